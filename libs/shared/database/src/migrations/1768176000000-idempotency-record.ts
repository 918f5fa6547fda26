import { MigrationInterface, QueryRunner } from 'typeorm';

/** The record a create made under an `Idempotency-Key`, kept with the key when its write commits. */
export class IdempotencyRecord1768176000000 implements MigrationInterface {
  name = 'IdempotencyRecord1768176000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_keys ADD COLUMN record_id INTEGER NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_keys DROP COLUMN record_id');
  }
}
