import { Module } from '@nestjs/common';
import { EventModule } from '@calendar/event';
import { OrganizerModule } from '@calendar/organizer';
import { TaxonomyModule } from '@calendar/taxonomy';
import { VenueModule } from '@calendar/venue';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';

/** The public pages (SPEC §14), made from the domain modules' services. */
@Module({
  imports: [EventModule, VenueModule, OrganizerModule, TaxonomyModule],
  controllers: [PagesController],
  providers: [PagesService],
})
export class WebModule {}
