import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './schema-helpers';

/** Events filled per statement: a Galera cluster replicates each statement's rows as one write set. */
const BATCH = 5_000;

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
    // ALTER TABLE on both engines (TypeORM's addColumn would copy an SQLite table anew).
    await queryRunner.query('ALTER TABLE event_venues ADD COLUMN start_utc DATETIME NULL');
    const [{ top }] = await queryRunner.query('SELECT COALESCE(MAX(event_id), 0) AS top FROM event_venues');
    for (let from = 0; from < Number(top); from += BATCH) {
      await queryRunner.query('UPDATE event_venues SET start_utc = (SELECT e.start_utc FROM events e WHERE e.id = event_venues.event_id) WHERE event_id > ? AND event_id <= ?', [from, from + BATCH]);
    }
    await queryRunner.query('CREATE INDEX ix_event_venues_start ON event_venues (venue_id, start_utc, event_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(isMysql(queryRunner) ? 'DROP INDEX ix_event_venues_start ON event_venues' : 'DROP INDEX ix_event_venues_start');
    await queryRunner.query('ALTER TABLE event_venues DROP COLUMN start_utc');
  }
}
