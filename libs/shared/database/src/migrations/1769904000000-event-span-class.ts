import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './schema-helpers';

/**
 * Each event's span class, made by the database from its start and end (a generated column, so that no write has to
 * carry it): 0 for an event that lasts at most 6 hours, 1 for at most 2 days, 2 for longer. `EventRepository`'s
 * `SPAN_CLASSES` holds the same limits. The listing index by class (`ix_events_span`) lets a window's page read each
 * class from its own lower bound on the start: an event of class 0 that overlaps a window starts at most 6 hours
 * before it, whatever the longest event of the calendar lasts. With only `ix_events_listing`, a window's page read
 * every event that started within the longest event's span before the window (at a million events over three
 * years and a longest event of two days, some 1,800 index rows before the first of the page; of three months,
 * eighty thousand).
 */
export class EventSpanClass1769904000000 implements MigrationInterface {
  name = 'EventSpanClass1769904000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (isMysql(queryRunner)) {
      await queryRunner.query(
        'ALTER TABLE events ADD COLUMN span_class TINYINT AS (CASE WHEN end_utc <= start_utc + INTERVAL 21600 SECOND THEN 0 WHEN end_utc <= start_utc + INTERVAL 172800 SECOND THEN 1 ELSE 2 END) STORED',
      );
    } else {
      // SQLite adds only virtual generated columns to a table; an index holds their values. Times are stored as UTC text.
      await queryRunner.query(
        'ALTER TABLE events ADD COLUMN span_class INTEGER GENERATED ALWAYS AS (CASE WHEN unixepoch(end_utc) - unixepoch(start_utc) <= 21600 THEN 0 WHEN unixepoch(end_utc) - unixepoch(start_utc) <= 172800 THEN 1 ELSE 2 END) VIRTUAL',
      );
    }
    await queryRunner.query('CREATE INDEX ix_events_span ON events (status, hide_from_listings, span_class, start_utc, id, end_utc)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(isMysql(queryRunner) ? 'DROP INDEX ix_events_span ON events' : 'DROP INDEX ix_events_span');
    await queryRunner.query('ALTER TABLE events DROP COLUMN span_class');
  }
}
