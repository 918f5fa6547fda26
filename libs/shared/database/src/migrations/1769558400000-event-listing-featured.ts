import { MigrationInterface, QueryRunner } from 'typeorm';
import { replaceIndex } from './schema-helpers';

const BEFORE = ['status', 'hide_from_listings', 'start_utc', 'id', 'end_utc'];

/**
 * The listing index (`ix_events_listing`) also holds whether an event is featured: a list driven from a word's
 * matches or a radius's links that asks for `featured` finds and checks its events on that index alone, as the
 * others do (`EventRepository.joinsByListing`), instead of reading each event's row by key.
 */
export class EventListingFeatured1769558400000 implements MigrationInterface {
  name = 'EventListingFeatured1769558400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await replaceIndex(queryRunner, 'events', 'ix_events_listing', [...BEFORE, 'featured']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await replaceIndex(queryRunner, 'events', 'ix_events_listing', BEFORE);
  }
}
