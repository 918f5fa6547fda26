import { MigrationInterface, QueryRunner } from 'typeorm';

/** Events filled per statement: a Galera cluster replicates each statement's rows as one write set. */
const BATCH = 5_000;

/**
 * The terms each event counts for in the terms' published-event counts (`terms.event_count`), kept on its row:
 * `counted_term_ids`, its term ids when it is published, NULL otherwise. A write then moves the counts of its events'
 * terms by what each event counted for before and counts for now, instead of counting every event of those terms
 * again (at a million events, a category's count read tens of thousands of rows for each event written into it).
 * Filled from the term lists kept on the rows, and every count made again from the links, so that both agree.
 */
export class EventCountedTerms1769299200000 implements MigrationInterface {
  name = 'EventCountedTerms1769299200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE events ADD COLUMN counted_term_ids TEXT NULL');
    const [{ top }] = await queryRunner.query('SELECT COALESCE(MAX(id), 0) AS top FROM events');
    for (let from = 0; from < Number(top); from += BATCH) {
      await queryRunner.query(`UPDATE events SET counted_term_ids = term_ids WHERE status = 'publish' AND id > ? AND id <= ?`, [from, from + BATCH]);
    }
    await queryRunner.query(
      `UPDATE terms SET event_count = (SELECT COUNT(*) FROM event_terms et INNER JOIN events e ON e.id = et.event_id WHERE et.term_id = terms.id AND e.status = 'publish')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE events DROP COLUMN counted_term_ids');
  }
}
