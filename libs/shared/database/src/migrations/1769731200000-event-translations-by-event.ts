import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './schema-helpers';

/**
 * On MySQL and MariaDB, an event's translations are stored in the order of their event (InnoDB keeps a table's rows in
 * the order of its primary key): the primary key of `event_translations` becomes (`event_id`, `lang`), which the
 * unique key `uq_event_translations_owner_lang` held, and `id` keeps its values and stays unique (`ux_event_translations_id`).
 * A page of a list reads its events' texts by event: one descent of the table's own index per event, where through
 * the owner key it took two (the key's row, then the row by id), each a page of its own when the table does not fit
 * in the buffer pool (at a million events, 1.4 million rows). SQLite is left as it is: its tables keep rows by rowid
 * and its page cache holds what a list reads.
 */
export class EventTranslationsByEvent1769731200000 implements MigrationInterface {
  name = 'EventTranslationsByEvent1769731200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    // One statement: `id` (AUTO_INCREMENT) is never without a key, and the owner's foreign key always has one on `event_id`.
    await queryRunner.query(
      'ALTER TABLE event_translations DROP PRIMARY KEY, ADD PRIMARY KEY (event_id, lang), ADD UNIQUE KEY ux_event_translations_id (id), DROP INDEX uq_event_translations_owner_lang',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    await queryRunner.query(
      'ALTER TABLE event_translations ADD UNIQUE KEY uq_event_translations_owner_lang (event_id, lang), DROP PRIMARY KEY, ADD PRIMARY KEY (id), DROP INDEX ux_event_translations_id',
    );
  }
}
