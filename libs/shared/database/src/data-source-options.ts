import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseConfig } from '@calendar/shared/config';
import type { DataSourceOptions, EntitySchema, MixedList } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { queryCounter } from './query-counter';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Entities = MixedList<Function | string | EntitySchema>;

/**
 * TypeORM options for MySQL/MariaDB (mysql2) or the embedded SQLite (better-sqlite3).
 * The schema comes only from the migrations; `synchronize` is never on.
 */
export function buildDataSourceOptions(database: DatabaseConfig, entities: Entities = []): DataSourceOptions {
  const common = { entities, migrations: MIGRATIONS, migrationsTableName: 'schema_migrations', synchronize: false, logging: ['query'] as ('query')[], logger: queryCounter };
  if (database.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: database.url,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      supportBigNumbers: true,
      bigNumberStrings: false,
      extra: { connectionLimit: 20, enableKeepAlive: true },
    };
  }
  if (database.file !== ':memory:') mkdirSync(dirname(database.file), { recursive: true });
  return { ...common, type: 'better-sqlite3', database: database.file, enableWAL: database.file !== ':memory:' };
}
