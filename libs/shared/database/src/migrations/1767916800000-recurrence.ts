import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recurring events (SPEC §13). A series' head keeps its normalised lines (`recurrence`) and how far ahead its
 * occurrences are written (`materialized_until`); every occurrence is an event row of its own that names its
 * series (`series_id`), the start the rule gives it (`recurrence_start`, unique per series: two instances
 * extending a series at once cannot both write an occurrence), the fields edited on it alone (`detached`), and
 * whether it went to the trash with its head (`series_trashed`).
 */
export class Recurrence1767916800000 implements MigrationInterface {
  name = 'Recurrence1767916800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const column of [
      'recurrence TEXT NULL',
      'series_id INTEGER NULL',
      'recurrence_start DATETIME NULL',
      'detached VARCHAR(1000) NULL',
      'series_trashed BOOLEAN NOT NULL DEFAULT 0',
      'materialized_until DATETIME NULL',
    ]) {
      await queryRunner.query(`ALTER TABLE events ADD COLUMN ${column}`);
    }
    await queryRunner.query('CREATE UNIQUE INDEX ux_events_occurrence ON events (series_id, recurrence_start)');
    await queryRunner.query('CREATE INDEX ix_events_materialized ON events (materialized_until)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('events', 'ix_events_materialized');
    await queryRunner.dropIndex('events', 'ux_events_occurrence');
    for (const column of ['materialized_until', 'series_trashed', 'detached', 'recurrence_start', 'series_id', 'recurrence']) {
      await queryRunner.query(`ALTER TABLE events DROP COLUMN ${column}`);
    }
  }
}
