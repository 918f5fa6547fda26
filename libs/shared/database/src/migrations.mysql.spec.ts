import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { MIGRATIONS } from './migrations';
import { EventTranslationsByEvent1769731200000 } from './migrations/1769731200000-event-translations-by-event';
import { EventSpanClass1769904000000 } from './migrations/1769904000000-event-span-class';

/*
 * The migrations whose MySQL statements differ from SQLite's, run on SQLite in memory and on a MySQL/MariaDB database
 * of their own (made and dropped here) whenever one is reachable (`TEST_ENGINES`, from the jest configuration).
 */
const SERVER = process.env['MYSQL_TEST_URL'] ?? 'mysql://root@127.0.0.1:3306';
const engines = (globalThis as { TEST_ENGINES?: string[] }).TEST_ENGINES ?? ['sqlite'];

/** Runs `use` on a new database of `engine` migrated up to `migration` (not included); the database is dropped after. */
async function beforeMigrationOn(engine: string, migration: (typeof MIGRATIONS)[number], use: (dataSource: DataSource) => Promise<void>): Promise<void> {
  // On MySQL a database of its own, made here (shared-testing's `createTestDatabase` depends on this library).
  const name = `calendar_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = engine === 'mysql' ? await createConnection({ uri: SERVER }) : null;
  await admin?.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const options = admin ? buildDataSourceOptions({ type: 'mysql', url: `${SERVER.replace(/\/+$/, '')}/${name}`, database: name }) : buildDataSourceOptions({ type: 'sqlite', file: ':memory:' });
  const dataSource = new DataSource({ ...options, migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(migration)) });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await use(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await admin?.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin?.end();
  }
}

/** The keys of a table, each as its name and columns in order, by name. */
async function keys(dataSource: DataSource, table: string): Promise<[string, string[], boolean][]> {
  const rows: { Key_name: string; Column_name: string; Seq_in_index: number; Non_unique: number | string }[] = await dataSource.query(`SHOW KEYS FROM ${table}`);
  const byName = new Map<string, { columns: string[]; unique: boolean }>();
  for (const row of [...rows].sort((a, b) => a.Seq_in_index - b.Seq_in_index)) {
    const key = byName.get(row.Key_name) ?? { columns: [], unique: Number(row.Non_unique) === 0 };
    key.columns.push(row.Column_name);
    byName.set(row.Key_name, key);
  }
  return [...byName.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, key]) => [name, key.columns, key.unique]);
}

const before: [string, string[], boolean][] = [
  ['ix_event_translations_slug', ['slug'], false],
  ['PRIMARY', ['id'], true],
  ['uq_event_translations_owner_lang', ['event_id', 'lang'], true],
  ['uq_event_translations_slug', ['lang', 'slug'], true],
];

describe('the event translations migration', () => {
  it('leaves SQLite as it is', async () => {
    await beforeMigrationOn('sqlite', EventTranslationsByEvent1769731200000, async (dataSource) => {
      const schema = () => dataSource.query("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'event_translations' ORDER BY name");
      const was = await schema();
      expect(was.map((row: { name: string }) => row.name)).toEqual(['event_translations', 'ix_event_translations_slug', 'sqlite_autoindex_event_translations_1', 'sqlite_autoindex_event_translations_2']);
      const runner = dataSource.createQueryRunner();
      await new EventTranslationsByEvent1769731200000().up(runner);
      expect(await schema()).toEqual(was);
      await new EventTranslationsByEvent1769731200000().down(runner);
      expect(await schema()).toEqual(was);
      await runner.release();
    });
  });

  // On MySQL whenever it is reachable (an empty table of cases is refused by `it.each`).
  for (const engine of engines.filter((name) => name === 'mysql')) {
    it(`keeps an event's translations in the order of their event on ${engine}, id still unique and given, and takes it back`, async () => {
      await beforeMigrationOn(engine, EventTranslationsByEvent1769731200000, async (dataSource) => {
        const at = '2030-01-01 00:00:00';
        await dataSource.query(`INSERT INTO users (id, login, role, created_at) VALUES (1, 'a', 'editor', ?)`, [at]);
        for (const id of [1, 2]) {
          await dataSource.query(`INSERT INTO events (id, author_id, status, original_lang, published_at, created_at, modified_at, timezone, start_utc, end_utc) VALUES (?, 1, 'publish', 'en', ?, ?, ?, 'UTC', ?, ?)`, [id, at, at, at, at, at]);
        }
        // Written out of their events' order, as edits add languages later.
        await dataSource.query("INSERT INTO event_translations (id, event_id, lang, name, slug) VALUES (1, 2, 'en', 'Two', 'two'), (2, 1, 'fr', 'Un', 'un'), (3, 1, 'en', 'One', 'one')");
        expect(await keys(dataSource, 'event_translations')).toEqual(before);
        const runner = dataSource.createQueryRunner();
        const migration = new EventTranslationsByEvent1769731200000();
        await migration.up(runner);
        expect(await keys(dataSource, 'event_translations')).toEqual([
          ['ix_event_translations_slug', ['slug'], false],
          ['PRIMARY', ['event_id', 'lang'], true],
          ['uq_event_translations_slug', ['lang', 'slug'], true],
          ['ux_event_translations_id', ['id'], true],
        ]);
        // Read in the table's own order: by event, then language.
        expect(await dataSource.query('SELECT id, event_id, lang, name FROM event_translations')).toEqual([
          { id: 3, event_id: 1, lang: 'en', name: 'One' },
          { id: 2, event_id: 1, lang: 'fr', name: 'Un' },
          { id: 1, event_id: 2, lang: 'en', name: 'Two' },
        ]);
        // A new row is given the next id; an event's language is still held once, and so is an id.
        const inserted = await dataSource.query("INSERT INTO event_translations (event_id, lang, name, slug) VALUES (2, 'fr', 'Deux', 'deux')");
        expect(inserted.insertId).toBe(4);
        await expect(dataSource.query("INSERT INTO event_translations (event_id, lang, name, slug) VALUES (2, 'fr', 'Zwei', 'zwei')")).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
        await expect(dataSource.query("INSERT INTO event_translations (id, event_id, lang, name, slug) VALUES (4, 1, 'de', 'Eins', 'eins')")).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
        // Deleting an event still takes its translations with it.
        await dataSource.query('DELETE FROM events WHERE id = 1');
        expect(await dataSource.query('SELECT id FROM event_translations ORDER BY id')).toEqual([{ id: 1 }, { id: 4 }]);

        await migration.down(runner);
        expect(await keys(dataSource, 'event_translations')).toEqual(before);
        expect(await dataSource.query('SELECT id, event_id, lang FROM event_translations')).toEqual([
          { id: 1, event_id: 2, lang: 'en' },
          { id: 4, event_id: 2, lang: 'fr' },
        ]);
        await runner.release();
      });
    });
  }
});

describe.each(engines)('the event span class migration (%s)', (engine) => {
  it("makes each event's span class from its start and end, as they are written later too, indexes the listing by it, and takes it back", async () => {
    await beforeMigrationOn(engine, EventSpanClass1769904000000, async (dataSource) => {
      const at = '2030-01-01 00:00:00';
      await dataSource.query(`INSERT INTO users (id, login, role, created_at) VALUES (1, 'a', 'editor', ?)`, [at]);
      // An hour; 6 hours, and a second more; 2 days, and a second more; 90 days.
      const ends = ['2030-01-01 01:00:00', '2030-01-01 06:00:00', '2030-01-01 06:00:01', '2030-01-03 00:00:00', '2030-01-03 00:00:01', '2030-04-01 00:00:00'];
      for (const [index, end] of ends.entries()) {
        await dataSource.query(`INSERT INTO events (id, author_id, status, original_lang, published_at, created_at, modified_at, timezone, start_utc, end_utc) VALUES (?, 1, 'publish', 'en', ?, ?, ?, 'UTC', ?, ?)`, [index + 1, at, at, at, at, end]);
      }
      const classes = async () => (await dataSource.query('SELECT id, span_class FROM events ORDER BY id')).map((row: { id: number; span_class: number }) => [Number(row.id), Number(row.span_class)]);
      const columns = async () =>
        engine === 'mysql'
          ? (await dataSource.query('SHOW COLUMNS FROM events')).map((row: { Field: string }) => row.Field)
          : (await dataSource.query('PRAGMA table_xinfo(events)')).map((row: { name: string }) => row.name);
      const indexed = async () =>
        engine === 'mysql'
          ? (await keys(dataSource, 'events')).find(([name]) => name === 'ix_events_span')?.[1] ?? null
          : (await dataSource.query('PRAGMA index_info(ix_events_span)')).map((column: { name: string }) => column.name);
      const runner = dataSource.createQueryRunner();
      const migration = new EventSpanClass1769904000000();
      await migration.up(runner);
      expect(await classes()).toEqual([[1, 0], [2, 0], [3, 1], [4, 1], [5, 2], [6, 2]]);
      expect(await indexed()).toEqual(['status', 'hide_from_listings', 'span_class', 'start_utc', 'id', 'end_utc']);
      // Written by the database as the start and end change, and on each new event: no write carries it.
      await dataSource.query("UPDATE events SET end_utc = '2030-01-01 02:00:00' WHERE id = 6");
      await dataSource.query("UPDATE events SET start_utc = '2029-12-30 00:00:00' WHERE id = 2");
      await dataSource.query(`INSERT INTO events (id, author_id, status, original_lang, published_at, created_at, modified_at, timezone, start_utc, end_utc) VALUES (7, 1, 'publish', 'en', ?, ?, ?, 'UTC', ?, '2030-01-02 12:00:00')`, [at, at, at, at]);
      expect(await classes()).toEqual([[1, 0], [2, 2], [3, 1], [4, 1], [5, 2], [6, 0], [7, 1]]);
      await migration.down(runner);
      expect([(await columns()).includes('span_class'), await indexed()]).toEqual([false, engine === 'mysql' ? null : []]);
      expect(await dataSource.query('SELECT COUNT(*) AS events FROM events')).toEqual([{ events: 7 }]);
      await runner.release();
    });
  });
});
