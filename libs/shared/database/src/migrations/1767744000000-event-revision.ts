import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stamp on every event that each write to it replaces with a new random value: renderings of an event are
 * kept under it and are valid while the row still carries it, whatever else is written.
 */
export class EventRevision1767744000000 implements MigrationInterface {
  name = 'EventRevision1767744000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE events ADD COLUMN revision INTEGER NOT NULL DEFAULT 0');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE events DROP COLUMN revision');
  }
}
