import { MigrationInterface, QueryRunner } from 'typeorm';
import { addLinkStarts, dropLinkStarts } from './schema-helpers';

/**
 * Each organizer link of an event carries the event's start (`event_organizers.start_utc`), indexed after the
 * organizer, as venue and term links do (EventVenueStarts1769040000000, EventTermStarts1769126400000): a list of an
 * organizer then reads the organizer's links that start in its window, and a page of it is read along that index
 * (SPEC §10.2), instead of every event the organizer ever had.
 */
export class EventOrganizerStarts1769212800000 implements MigrationInterface {
  name = 'EventOrganizerStarts1769212800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addLinkStarts(queryRunner, 'event_organizers', 'organizer_id');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropLinkStarts(queryRunner, 'event_organizers');
  }
}
