import { MigrationInterface, QueryRunner } from 'typeorm';
import { listingStateUpdate } from '../listing-state';
import { isMysql, replaceIndex } from './schema-helpers';

/** Events whose rows are filled per statement: a Galera cluster replicates each statement's rows as one write set. */
const BATCH = 5_000;

const CELL_BEFORE = ['geo_cell', 'start_utc', 'venue_id', 'event_id'];
const START_BEFORE = ['kind', 'token', 'start_utc', 'record_id', 'lang', 'original'];
const CARRIED = ['listed', 'end_utc', 'featured'];

/**
 * Venue links and search rows carry their event's listing state beside its start (`listed`, `end_utc`, `featured`;
 * `listing-state.ts`), and the indexes a radius and a word are read by hold them: an anonymous list's total or page
 * driven from those sets checks its events on the index it reads the set from, instead of finding each event on the
 * listing index. NULL for search rows of other kinds.
 */
export class ListingStateCarried1769644800000 implements MigrationInterface {
  name = 'ListingStateCarried1769644800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const engine = isMysql(queryRunner) ? 'mysql' : 'sqlite';
    for (const table of ['event_venues', 'search_tokens']) {
      for (const column of ['listed BOOLEAN NULL', 'end_utc DATETIME NULL', 'featured BOOLEAN NULL']) await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN ${column}`);
    }
    const [{ top }] = await queryRunner.query('SELECT COALESCE(MAX(id), 0) AS top FROM events');
    for (let from = 0; from < Number(top); from += BATCH) {
      await queryRunner.query(listingStateUpdate(engine, 'event_venues', 'l.event_id > ? AND l.event_id <= ?'), [from, from + BATCH]);
      await queryRunner.query(listingStateUpdate(engine, 'search_tokens', "l.kind = 'event' AND l.record_id > ? AND l.record_id <= ?"), [from, from + BATCH]);
    }
    await replaceIndex(queryRunner, 'event_venues', 'ix_event_venues_cell', [...CELL_BEFORE, ...CARRIED]);
    await replaceIndex(queryRunner, 'search_tokens', 'ix_search_tokens_start', [...START_BEFORE, ...CARRIED]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await replaceIndex(queryRunner, 'search_tokens', 'ix_search_tokens_start', START_BEFORE);
    await replaceIndex(queryRunner, 'event_venues', 'ix_event_venues_cell', CELL_BEFORE);
    for (const table of ['event_venues', 'search_tokens']) {
      for (const column of CARRIED) await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
    }
  }
}
