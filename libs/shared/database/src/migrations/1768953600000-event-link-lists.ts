import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './schema-helpers';

/** Events filled per statement: a Galera cluster replicates each statement's rows as one write set. */
const BATCH = 5_000;

const LISTS: [column: string, table: string, target: string][] = [
  ['venue_ids', 'event_venues', 'venue_id'],
  ['organizer_ids', 'event_organizers', 'organizer_id'],
  ['term_ids', 'event_terms', 'term_id'],
];

/**
 * The ids each event links to, kept on its row as well as in the link tables: `venue_ids`, `organizer_ids` and
 * `term_ids`, the ids in the order given, comma-separated (NULL for none). Every answer with events reads them;
 * from the link tables that took a subquery per event and kind, about a third of the database's time for a page
 * of ten events. The write path writes them from the link rows with every write's effects (the events a write
 * changed or touched); the link tables stay what filters and joins read.
 */
export class EventLinkLists1768953600000 implements MigrationInterface {
  name = 'EventLinkLists1768953600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ALTER TABLE on both engines (TypeORM's addColumns would copy an SQLite table anew, and the link rows with
    // their cascades would go with the old one).
    for (const [column] of LISTS) await queryRunner.query(`ALTER TABLE events ADD COLUMN ${column} TEXT NULL`);
    // MySQL cuts GROUP_CONCAT at 1,024 bytes unless told otherwise; SQLite has no such limit.
    if (isMysql(queryRunner)) await queryRunner.query('SET SESSION group_concat_max_len = 4294967295');
    const [{ top }] = await queryRunner.query('SELECT COALESCE(MAX(id), 0) AS top FROM events');
    const lists = LISTS.map(([column, table, target]) => `${column} = (SELECT GROUP_CONCAT(l.${target} ORDER BY l.position) FROM ${table} l WHERE l.event_id = events.id)`).join(', ');
    for (let from = 0; from < Number(top); from += BATCH) {
      await queryRunner.query(`UPDATE events SET ${lists} WHERE id > ? AND id <= ?`, [from, from + BATCH]);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [column] of LISTS) await queryRunner.query(`ALTER TABLE events DROP COLUMN ${column}`);
  }
}
