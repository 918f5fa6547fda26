import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable } from './schema-helpers';

/** One row whose version every write transaction increments: caches validate against it on every read. */
export class DataVersion1767484800000 implements MigrationInterface {
  name = 'DataVersion1767484800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'data_version',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'version', type: 'integer', default: 0 },
        ],
      }),
    );
    await queryRunner.query('INSERT INTO data_version (id, version) VALUES (1, 0)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('data_version');
  }
}
