import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The change log read by record: a conditional write (SPEC §18) compares the newest change of the record it writes
 * with the one seen when its precondition was checked.
 */
export class ChangesByRecord1768608000000 implements MigrationInterface {
  name = 'ChangesByRecord1768608000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('changes', new TableIndex({ name: 'idx_changes_record', columnNames: ['kind', 'record_id', 'id'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('changes', 'idx_changes_record');
  }
}
