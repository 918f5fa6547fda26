import { QueryRunner, Table, TableColumnOptions } from 'typeorm';

/*
 * Migrations are written once with TypeORM's portable schema API and run unchanged on MySQL/MariaDB and SQLite.
 * These helpers hold the few places where the two engines need different words.
 */

export function isMysql(queryRunner: QueryRunner): boolean {
  return queryRunner.connection.options.type === 'mysql';
}

/** Creates a table; on MySQL as InnoDB in utf8mb4 whatever the server's default character set is. */
export async function createTable(queryRunner: QueryRunner, table: Table): Promise<void> {
  if (isMysql(queryRunner)) table.engine = 'InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';
  await queryRunner.createTable(table);
}

export const idColumn = (): TableColumnOptions => ({ name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' });

export const dateTimeColumn = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'datetime', isNullable: nullable });

/** Text compared byte for byte on both engines (slugs, token hashes): MySQL's default collation would fold case and accents. */
export function exactText(queryRunner: QueryRunner, name: string, length: number, nullable = false): TableColumnOptions {
  return { name, type: 'varchar', length: String(length), isNullable: nullable, ...(isMysql(queryRunner) ? { collation: 'utf8mb4_bin' } : {}) };
}

/** The columns every publishable record has (SPEC §3.4). */
export function recordColumns(): TableColumnOptions[] {
  return [
    idColumn(),
    { name: 'author_id', type: 'integer' },
    { name: 'status', type: 'varchar', length: '20' },
    { name: 'previous_status', type: 'varchar', length: '20', isNullable: true },
    { name: 'original_lang', type: 'varchar', length: '16' },
    { name: 'image_id', type: 'integer', isNullable: true },
    dateTimeColumn('published_at'),
    dateTimeColumn('created_at'),
    dateTimeColumn('modified_at'),
  ];
}

/** Events filled per statement when a column is filled from the events' rows: a Galera cluster replicates each statement's rows as one write set. */
const FILL_BATCH = 5_000;

/**
 * Gives an event link table (`event_venues`, `event_terms`, `event_organizers`) the start of each link's event (`start_utc`, as
 * `events.start_utc` holds it), filled from the events' rows, and an index by the link's target and start
 * (`ix_<table>_start`): a list then reads a target's links within its window. ALTER TABLE on both engines
 * (TypeORM's addColumn would copy an SQLite table anew).
 */
export async function addLinkStarts(queryRunner: QueryRunner, table: 'event_venues' | 'event_terms' | 'event_organizers', target: 'venue_id' | 'term_id' | 'organizer_id'): Promise<void> {
  await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN start_utc DATETIME NULL`);
  const [{ top }] = await queryRunner.query(`SELECT COALESCE(MAX(event_id), 0) AS top FROM ${table}`);
  for (let from = 0; from < Number(top); from += FILL_BATCH) {
    await queryRunner.query(`UPDATE ${table} SET start_utc = (SELECT e.start_utc FROM events e WHERE e.id = ${table}.event_id) WHERE event_id > ? AND event_id <= ?`, [from, from + FILL_BATCH]);
  }
  await queryRunner.query(`CREATE INDEX ix_${table}_start ON ${table} (${target}, start_utc, event_id)`);
}

/** Undoes `addLinkStarts`. */
export async function dropLinkStarts(queryRunner: QueryRunner, table: 'event_venues' | 'event_terms' | 'event_organizers'): Promise<void> {
  await queryRunner.query(isMysql(queryRunner) ? `DROP INDEX ix_${table}_start ON ${table}` : `DROP INDEX ix_${table}_start`);
  await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN start_utc`);
}

/**
 * Replaces index `name` of `table` by one of the same name over `columns`: in one statement on MySQL and MariaDB, so a
 * read never finds the table without it; on SQLite, inside the migration's transaction.
 */
export async function replaceIndex(queryRunner: QueryRunner, table: string, name: string, columns: string[]): Promise<void> {
  if (isMysql(queryRunner)) {
    await queryRunner.query(`ALTER TABLE ${table} DROP INDEX ${name}, ADD INDEX ${name} (${columns.join(', ')})`);
    return;
  }
  await queryRunner.query(`DROP INDEX ${name}`);
  await queryRunner.query(`CREATE INDEX ${name} ON ${table} (${columns.join(', ')})`);
}
