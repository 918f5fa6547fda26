import { MigrationInterface, QueryRunner } from 'typeorm';

/** Versions of their own for venues (2), organizers (3) and terms (4), next to the global one (1). */
export class DataParts1767657600000 implements MigrationInterface {
  name = 'DataParts1767657600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('INSERT INTO data_version (id, version) VALUES (2, 0), (3, 0), (4, 0)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM data_version WHERE id IN (2, 3, 4)');
  }
}
