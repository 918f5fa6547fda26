import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, isMysql } from './schema-helpers';

/**
 * The longest time any event lasts, or more (it only grows): with it, "events that overlap a window" gets a lower
 * bound on the start, so the start-ordered index is read over the window and not from its beginning.
 */
export class EventSpan1768003200000 implements MigrationInterface {
  name = 'EventSpan1768003200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'event_span',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'max_seconds', type: 'integer' },
        ],
      }),
    );
    const span = isMysql(queryRunner) ? 'TIMESTAMPDIFF(SECOND, start_utc, end_utc)' : 'CAST(ROUND((julianday(end_utc) - julianday(start_utc)) * 86400) AS INTEGER)';
    await queryRunner.query(`INSERT INTO event_span (id, max_seconds) SELECT 1, COALESCE(MAX(${span}), 0) FROM events`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_span');
  }
}
