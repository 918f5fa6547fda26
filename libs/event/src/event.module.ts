import { SearchTokenEntity } from '@calendar/shared/search';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizerModule } from '@calendar/organizer';
import { RecordsModule } from '@calendar/records';
import { TaxonomyModule } from '@calendar/taxonomy';
import { VenueModule } from '@calendar/venue';
import { EventEntity, EventOrganizerEntity, EventTermEntity, EventTranslationEntity, EventVenueEntity } from './entities/event.entity';
import { DayCounts } from './count/day-counts';
import { EventController } from './event.controller';
import { EventRepository } from './event.repository';
import { EventService } from './event.service';
import { EventFeeds } from './read/event-feeds';
import { EventGrid } from './read/event-grid';
import { EventPresenter } from './read/event.presenter';
import { EventReader } from './read/event.reader';
import { EventSync } from './read/event-sync';
import { EventWriter } from './write/event.writer';
import { EventFeedController } from './ics/event-feed.controller';
import { EventFeedService } from './ics/event-feed.service';
import { SeriesHorizon } from './recurrence/series-horizon';
import { SeriesWriter } from './recurrence/series.writer';

@Module({
  imports: [
    TypeOrmModule.forFeature([EventEntity, EventTranslationEntity, EventVenueEntity, EventOrganizerEntity, EventTermEntity, SearchTokenEntity]),
    RecordsModule,
    VenueModule,
    OrganizerModule,
    TaxonomyModule,
  ],
  controllers: [EventController, EventFeedController],
  providers: [DayCounts, EventRepository, EventReader, EventSync, EventPresenter, EventWriter, EventService, EventFeeds, EventGrid, EventFeedService, SeriesWriter, SeriesHorizon],
  exports: [EventService, EventGrid, SeriesHorizon],
})
export class EventModule {}
