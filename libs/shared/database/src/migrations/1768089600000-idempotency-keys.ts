import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, dateTimeColumn, exactText, idColumn, isMysql } from './schema-helpers';

/**
 * Creates made with an `Idempotency-Key` (SPEC §15): per caller and key, what was asked (a fingerprint of the
 * request), where the create stands (`running`, `committed` with its write, `done` with its answer) and the answer
 * to give again.
 */
export class IdempotencyKeys1768089600000 implements MigrationInterface {
  name = 'IdempotencyKeys1768089600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'idempotency_keys',
        columns: [
          idColumn(),
          { name: 'caller_id', type: 'integer' },
          exactText(queryRunner, 'idem_key', 255),
          { name: 'fingerprint', type: 'varchar', length: '64' },
          { name: 'state', type: 'varchar', length: '10' },
          { name: 'status', type: 'integer', isNullable: true },
          { name: 'body', type: isMysql(queryRunner) ? 'mediumtext' : 'text', isNullable: true },
          { name: 'location', type: 'varchar', length: '2000', isNullable: true },
          dateTimeColumn('created_at'),
        ],
        uniques: [{ name: 'ux_idempotency_caller_key', columnNames: ['caller_id', 'idem_key'] }],
        indices: [{ name: 'ix_idempotency_created', columnNames: ['created_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
