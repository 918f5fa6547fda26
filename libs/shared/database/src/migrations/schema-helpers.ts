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
