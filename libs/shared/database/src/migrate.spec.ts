import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { migrate } from './migrate';

describe('migrate on SQLite', () => {
  it('waits for another process that holds the file\'s write lock longer than the driver waits, then migrates', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'calendar-migrate-'));
    const file = join(folder, 'shared.sqlite');
    // Another connection (another instance's) holds the write lock for 600 ms; the driver's busy handler waits 100.
    const other = new Database(file);
    other.pragma('journal_mode = WAL');
    other.exec('BEGIN IMMEDIATE');
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        other.exec('COMMIT');
        resolve();
      }, 600),
    );
    const dataSource = new DataSource({ ...buildDataSourceOptions({ type: 'sqlite', file }), timeout: 100 } as ConstructorParameters<typeof DataSource>[0]);
    await dataSource.initialize();
    try {
      const started = Date.now();
      await migrate(dataSource);
      await released;
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
      const [row] = await dataSource.query('SELECT COUNT(*) AS n FROM schema_migrations');
      expect([Number(row.n), await dataSource.showMigrations()]).toEqual([dataSource.migrations.length, false]);
    } finally {
      await dataSource.destroy();
      other.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
