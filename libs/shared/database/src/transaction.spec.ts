import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { DatabaseDataVersion } from './data-version';
import { markChanged, markOnlyAdded, TransactionRunner, WRITE_LOG_VERSIONS } from './transaction';

describe('TransactionRunner and the data versions', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = new DataSource(buildDataSourceOptions({ type: 'sqlite', file: ':memory:' }));
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  });
  afterAll(() => dataSource.destroy());

  it('moves the global version on with every write, and the versions of the parts a write marks', async () => {
    const runner = new TransactionRunner(dataSource);
    const versions = new DatabaseDataVersion(dataSource);
    expect(await versions.read()).toEqual({ global: 0, parts: { venues: 0, organizers: 0, terms: 0 } });
    await runner.run(async () => undefined);
    await runner.run(async (manager) => {
      markChanged(manager, 'terms');
      markChanged(manager, 'venues');
      markChanged(manager, 'terms');
    });
    expect(await versions.read()).toEqual({ global: 2, parts: { venues: 1, organizers: 0, terms: 1 } });
    await expect(
      runner.run(async (manager) => {
        markChanged(manager, 'organizers');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await versions.read()).toEqual({ global: 2, parts: { venues: 1, organizers: 0, terms: 1 } });
    expect(await versions.current()).toBe(2);
  });

  it('runs a write again whole when the database gave it up for a concurrent one, up to its bound', async () => {
    const runner = new TransactionRunner(dataSource, 4);
    const versions = new DatabaseDataVersion(dataSource);
    const before = await versions.current();
    const conflicts = [{ errno: 1213, code: 'ER_LOCK_DEADLOCK' }, { errno: 1205, code: 'ER_LOCK_WAIT_TIMEOUT' }, { errno: 1047, code: 'ER_UNKNOWN_COM_ERROR' }];
    let attempts = 0;
    const result = await runner.run(async () => {
      const conflict = conflicts[attempts++];
      if (conflict) throw Object.assign(new Error(conflict.code), { driverError: conflict });
      return 'written';
    });
    // Three attempts gave way, the fourth was written, once.
    expect([result, attempts, await versions.current()]).toEqual(['written', 4, before + 1]);
    let tries = 0;
    await expect(
      runner.run(async () => {
        tries += 1;
        throw Object.assign(new Error('ER_LOCK_DEADLOCK'), { driverError: { errno: 1213 } });
      }),
    ).rejects.toThrow('ER_LOCK_DEADLOCK');
    expect([tries, await versions.current()]).toEqual([4, before + 1]);
  });

  it('logs each write under its version: the events it only added, or event 0; and forgets old versions', async () => {
    const runner = new TransactionRunner(dataSource);
    const versions = new DatabaseDataVersion(dataSource);
    const start = await versions.current();
    await runner.run(async (manager) => {
      markOnlyAdded(manager, 41);
      markOnlyAdded(manager, 42);
    });
    await runner.run(async () => undefined);
    await expect(
      runner.run(async (manager) => {
        markOnlyAdded(manager, 43);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const log = () => dataSource.query('SELECT version, event_id FROM write_log WHERE version > ? ORDER BY version, event_id', [start]);
    expect(await log()).toEqual([
      { version: start + 1, event_id: 41 },
      { version: start + 1, event_id: 42 },
      { version: start + 2, event_id: 0 },
    ]);
    await dataSource.query('UPDATE data_version SET version = ? WHERE id = 1', [WRITE_LOG_VERSIONS + 63]);
    await runner.run(async () => undefined);
    // Every 64th version, rows more than WRITE_LOG_VERSIONS behind go.
    expect(await log()).toEqual([{ version: WRITE_LOG_VERSIONS + 64, event_id: 0 }]);
  });
});
