import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable } from './schema-helpers';

/**
 * What each write transaction did, by the global data version it moved to: one row per event it only added, or
 * one row with event 0 for any other write. Kept totals of event lists catch up over a run of writes that only
 * added events by counting those events alone (see CountMemo.countSince).
 */
export class WriteLog1767830400000 implements MigrationInterface {
  name = 'WriteLog1767830400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'write_log',
        columns: [
          { name: 'version', type: 'integer', isPrimary: true },
          { name: 'event_id', type: 'integer', isPrimary: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('write_log');
  }
}
