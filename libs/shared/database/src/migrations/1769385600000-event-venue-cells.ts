import { MigrationInterface, QueryRunner } from 'typeorm';
import { linkCellsUpdate } from '../geo-cell';
import { isMysql } from './schema-helpers';

/** Links filled per statement: a Galera cluster replicates each statement's rows as one write set. */
const BATCH = 5_000;

/**
 * Each venue link of an event carries the cell of its venue's coordinates (`event_venues.geo_cell`, `geoCellSql`),
 * indexed with the link's start: a list within a radius reads the links of the window in the cells its venues lie in
 * (a range per cell), instead of a range per venue (at a million events, 1,500 venues round a city against 25
 * cells). The write path writes it with the link lists, and again for a venue's links when its coordinates change.
 */
export class EventVenueCells1769385600000 implements MigrationInterface {
  name = 'EventVenueCells1769385600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE event_venues ADD COLUMN geo_cell INTEGER NULL');
    const [{ top }] = await queryRunner.query('SELECT COALESCE(MAX(event_id), 0) AS top FROM event_venues');
    for (let from = 0; from < Number(top); from += BATCH) {
      await queryRunner.query(linkCellsUpdate('event_id > ? AND event_id <= ?'), [from, from + BATCH]);
    }
    await queryRunner.query('CREATE INDEX ix_event_venues_cell ON event_venues (geo_cell, start_utc, venue_id, event_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(isMysql(queryRunner) ? 'DROP INDEX ix_event_venues_cell ON event_venues' : 'DROP INDEX ix_event_venues_cell');
    await queryRunner.query('ALTER TABLE event_venues DROP COLUMN geo_cell');
  }
}
