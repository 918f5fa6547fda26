import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';

describe('migrations', () => {
  it('build the schema and take it down again on SQLite', async () => {
    const dataSource = new DataSource(buildDataSourceOptions({ type: 'sqlite', file: ':memory:' }));
    await dataSource.initialize();
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      expect(applied.map((migration) => migration.name)).toEqual(['Foundation1767225600000', 'VenuesOrganizers1767312000000', 'Events1767398400000', 'DataVersion1767484800000']);
      const tables = async () =>
        (await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)).map((row: { name: string }) => row.name);
      expect(await tables()).toEqual([
        'api_tokens',
        'data_version',
        'event_organizers',
        'event_terms',
        'event_translations',
        'event_venues',
        'events',
        'media',
        'organizer_translations',
        'organizers',
        'schema_migrations',
        'term_translations',
        'terms',
        'users',
        'venue_translations',
        'venues',
      ]);
      expect(await dataSource.showMigrations()).toBe(false);
      for (let i = 0; i < applied.length; i++) await dataSource.undoLastMigration({ transaction: 'each' });
      expect(await tables()).toEqual(['schema_migrations']);
    } finally {
      await dataSource.destroy();
    }
  });
});

describe('buildDataSourceOptions', () => {
  it('never synchronises and picks the driver from the URL', () => {
    const mysql = buildDataSourceOptions({ type: 'mysql', url: 'mysql://root@db:3306/calendar', database: 'calendar' });
    expect(mysql).toMatchObject({ type: 'mysql', url: 'mysql://root@db:3306/calendar', timezone: 'Z', charset: 'utf8mb4_unicode_ci', synchronize: false });
    const sqlite = buildDataSourceOptions({ type: 'sqlite', file: ':memory:' });
    expect(sqlite).toMatchObject({ type: 'better-sqlite3', database: ':memory:', synchronize: false, migrationsTableName: 'schema_migrations' });
  });
});
