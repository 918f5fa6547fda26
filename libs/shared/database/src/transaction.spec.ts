import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { DatabaseDataVersion } from './data-version';
import { markChanged, TransactionRunner } from './transaction';

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
});
