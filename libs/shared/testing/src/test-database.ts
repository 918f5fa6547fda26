import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { mysqlServerUrl } from './mysql-server';
import { BUMP_VERSIONS, buildDataSourceOptions } from '@calendar/shared/database';
import { DataSource, DataSourceOptions } from 'typeorm';

export type Engine = 'sqlite' | 'mysql';

export interface TestDatabase {
  /** A DATABASE_URL for the service. */
  url: string;
  /** Drops what `createTestDatabase` created. */
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file: an SQLite file in a new temporary folder (a file, as the service's
 * default is: its reads then run on their own connection, as they do in production), or a new MySQL database named
 * `calendar_test_<random>`. Only databases made here are ever dropped.
 */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'calendar-test-'));
    return { url: `sqlite:${join(folder, 'calendar.sqlite')}`, drop: async () => rmSync(folder, { recursive: true, force: true }) };
  }
  const server = mysqlServerUrl();
  const name = `calendar_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const connection = await createConnection({ uri: server });
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
  return {
    url: `${server.replace(/\/+$/, '')}/${name}`,
    drop: async () => {
      const admin = await createConnection({ uri: server });
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.end();
    },
  };
}

/**
 * Empties every table but the migration history, and restarts ids at 1, so that each test starts clean; the
 * data version moves on, as after any write, so no cache serves what was there before.
 */
export async function resetDatabase(dataSource: DataSource): Promise<void> {
  await bumpDataVersion(dataSource);
  // The tables of the entities, and those the service writes without one (`version_slots` and `event_span` keep
  // their rows: they only grow, as does `change_sequence`; `event_tally_state` names the zone the emptied day
  // counts are counted in).
  const tables = [...dataSource.entityMetadatas.map((metadata) => metadata.tableName), 'idempotency_keys', 'event_day_counts', 'event_tallies', 'changes', 'webhooks', 'webhook_messages', 'webhook_attempts'];
  if (dataSource.options.type === 'mysql') {
    await dataSource.transaction(async (manager) => {
      await manager.query('SET FOREIGN_KEY_CHECKS = 0');
      for (const table of tables) await manager.query(`TRUNCATE TABLE \`${table}\``);
      await manager.query('SET FOREIGN_KEY_CHECKS = 1');
    });
    return;
  }
  await dataSource.query('PRAGMA foreign_keys = OFF');
  for (const table of tables) await dataSource.query(`DELETE FROM "${table}"`);
  await dataSource.query(`DELETE FROM sqlite_sequence`);
  await dataSource.query('PRAGMA foreign_keys = ON');
}

/** An initialised, migrated in-memory SQLite data source for integration tests of repositories and services. */
export async function createMigratedSqlite(entities: DataSourceOptions['entities']): Promise<DataSource> {
  const dataSource = new DataSource({ ...buildDataSourceOptions({ type: 'sqlite', file: ':memory:' }, entities) } as DataSourceOptions);
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}

async function bumpDataVersion(dataSource: DataSource): Promise<void> {
  const exists =
    dataSource.options.type === 'mysql'
      ? (await dataSource.query(`SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'version_slots'`))[0].n > 0
      : (await dataSource.query(`SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'version_slots'`))[0].n > 0;
  if (exists) await dataSource.query(BUMP_VERSIONS);
}
