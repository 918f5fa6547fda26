import { DataSource } from 'typeorm';
import { buildDataSourceOptions, TransactionRunner } from '@calendar/shared/database';
import { firstFreeSlug } from '@calendar/i18n';
import { SlugsInFlight } from './slugs-in-flight';

describe('SlugsInFlight', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = new DataSource(buildDataSourceOptions({ type: 'sqlite', file: ':memory:' }));
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  });
  afterAll(() => dataSource.destroy());

  it('passes over the slugs of running writes in their language, until each write ends, committed or not', async () => {
    const runner = new TransactionRunner(dataSource);
    const slugs = new SlugsInFlight();
    const inDatabase = new Set(['concert']);
    const seen: string[] = [];
    await runner.run(async (first) => {
      const one = firstFreeSlug('concert', slugs.including('en', inDatabase));
      slugs.hold(first, 'en', one);
      seen.push(one, firstFreeSlug('concert', slugs.including('en', inDatabase)), firstFreeSlug('concert', slugs.including('fr', inDatabase)));
    });
    expect(seen).toEqual(['concert-2', 'concert-3', 'concert-2']);
    expect(slugs.size).toBe(0);
    await expect(
      runner.run(async (manager) => {
        slugs.hold(manager, 'en', 'concert-2');
        slugs.hold(manager, 'en', 'concert-2');
        expect([...slugs.including('en', new Set())]).toEqual(['concert-2']);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(slugs.size).toBe(0);
  });
});
