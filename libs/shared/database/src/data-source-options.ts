import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseConfig } from '@calendar/shared/config';
import type { DataSourceOptions, EntitySchema, MixedList } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { queryCounter } from './query-counter';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Entities = MixedList<Function | string | EntitySchema>;

/** The embedded database's page cache, in KiB. */
export const SQLITE_CACHE_KIB = 8000;

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
      // The service sends text statements only (no prepared statement): mysql2's per-connection statement cache is
      // made with room for its limit (four arrays of 16,000 slots by default, half a megabyte a connection, about 10 MB
      // of old generation for the pool that every full collection walks).
      extra: { connectionLimit: 20, enableKeepAlive: true, maxPreparedStatements: 16 },
    };
  }
  if (database.file !== ':memory:') mkdirSync(dirname(database.file), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.file,
    enableWAL: database.file !== ':memory:',
    // better-sqlite3 builds SQLite with a page cache of 16 MB; the process keeps within SPEC §10's 250 MB with 8
    // (pages beyond it are read again from the system's file cache).
    prepareDatabase: (db: { pragma: (source: string) => unknown }) => {
      db.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    },
  };
}
