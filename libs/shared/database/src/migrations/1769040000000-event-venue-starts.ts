import { MigrationInterface, QueryRunner } from 'typeorm';
import { addLinkStarts, dropLinkStarts } from './schema-helpers';

/**
 * Each venue link of an event carries the event's start (`event_venues.start_utc`, as `events.start_utc` holds
 * it), indexed after the venue: a list within a radius then reads the links of the venues within it that start in
 * its window (one index range per venue) instead of every event ever held at those venues (SPEC §10.2: with a
 * radius, the cost follows the events that match). The write path writes it with the link lists, from the events'
 * rows, for every event a write changed or touched.
 */
export class EventVenueStarts1769040000000 implements MigrationInterface {
  name = 'EventVenueStarts1769040000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addLinkStarts(queryRunner, 'event_venues', 'venue_id');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropLinkStarts(queryRunner, 'event_venues');
  }
}
