import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './schema-helpers';

/** Events filled per statement: a Galera cluster replicates each statement's rows as one write set. */
const BATCH = 5_000;

/**
 * Each category and tag link of an event carries the event's start (`event_terms.start_utc`, as `events.start_utc`
 * holds it), indexed after the term: a list of a term then reads the term's links that start in its window (one
 * index range per term) instead of every event that ever carried the term (SPEC §10.2: the cost follows the
 * events of the window, not the calendar's age). The write path writes it with the link lists, as it writes the
 * venue links' starts (EventVenueStarts1769040000000).
 */
export class EventTermStarts1769126400000 implements MigrationInterface {
  name = 'EventTermStarts1769126400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ALTER TABLE on both engines (TypeORM's addColumn would copy an SQLite table anew).
    await queryRunner.query('ALTER TABLE event_terms ADD COLUMN start_utc DATETIME NULL');
    const [{ top }] = await queryRunner.query('SELECT COALESCE(MAX(event_id), 0) AS top FROM event_terms');
    for (let from = 0; from < Number(top); from += BATCH) {
      await queryRunner.query('UPDATE event_terms SET start_utc = (SELECT e.start_utc FROM events e WHERE e.id = event_terms.event_id) WHERE event_id > ? AND event_id <= ?', [from, from + BATCH]);
    }
    await queryRunner.query('CREATE INDEX ix_event_terms_start ON event_terms (term_id, start_utc, event_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(isMysql(queryRunner) ? 'DROP INDEX ix_event_terms_start ON event_terms' : 'DROP INDEX ix_event_terms_start');
    await queryRunner.query('ALTER TABLE event_terms DROP COLUMN start_utc');
  }
}
