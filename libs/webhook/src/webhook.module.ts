import { Module } from '@nestjs/common';
import { EventModule } from '@calendar/event';
import { OrganizerModule } from '@calendar/organizer';
import { TaxonomyModule } from '@calendar/taxonomy';
import { VenueModule } from '@calendar/venue';
import { WebhookController } from './webhook.controller';
import { WebhookService } from './webhook.service';
import { WebhookStore } from './webhook.store';
import { WebhookWorker } from './webhook.worker';

/** Webhooks (SPEC §17): endpoints, the outbox filled by the one write path, and a delivery worker per instance. */
@Module({
  imports: [EventModule, VenueModule, OrganizerModule, TaxonomyModule],
  controllers: [WebhookController],
  providers: [WebhookStore, WebhookService, WebhookWorker],
  exports: [WebhookService, WebhookWorker, WebhookStore],
})
export class WebhookModule {}
