import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './schema-helpers';

/**
 * On MySQL and MariaDB, events are stored in the order of their start (InnoDB keeps a table's rows in the order of
 * its primary key): the primary key of `events` becomes (`start_utc`, `id`), and `id` keeps its values, its
 * AUTO_INCREMENT and stays unique (`ux_events_id`, which the foreign keys of translations and links now reference).
 * A page of a window reads events that start one after another: with the rows in the order they were written, each
 * event of the page lay on a page of the table of its own, read from the disk when the table does not fit in the
 * buffer pool (at a million events, about one page per event with MariaDB's default 128 MB). The rows of a window now
 * lie side by side. A read by id descends the unique key, then the table. SQLite is left as it is: its tables keep
 * rows by rowid and its page cache holds what a list reads.
 */
export class EventsByStart1769817600000 implements MigrationInterface {
  name = 'EventsByStart1769817600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    // One statement: `id` (AUTO_INCREMENT, referenced by foreign keys) is never without a key of its own.
    await queryRunner.query('ALTER TABLE events DROP PRIMARY KEY, ADD PRIMARY KEY (start_utc, id), ADD UNIQUE KEY ux_events_id (id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    await queryRunner.query('ALTER TABLE events DROP PRIMARY KEY, ADD PRIMARY KEY (id), DROP INDEX ux_events_id');
  }
}
