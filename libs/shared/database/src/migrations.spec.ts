import { DataSource } from 'typeorm';
import { buildDataSourceOptions, SQLITE_CACHE_KIB } from './data-source-options';
import { MIGRATIONS } from './migrations';
import { SearchTokens1767571200000 } from './migrations/1767571200000-search-tokens';
import { VersionSlots1768262400000 } from './migrations/1768262400000-version-slots';
import { EventLinkLists1768953600000 } from './migrations/1768953600000-event-link-lists';
import { EventVenueStarts1769040000000 } from './migrations/1769040000000-event-venue-starts';
import { EventTermStarts1769126400000 } from './migrations/1769126400000-event-term-starts';
import { EventOrganizerStarts1769212800000 } from './migrations/1769212800000-event-organizer-starts';
import { EventCountedTerms1769299200000 } from './migrations/1769299200000-event-counted-terms';
import { EventVenueCells1769385600000 } from './migrations/1769385600000-event-venue-cells';
import { ListingStateCarried1769644800000 } from './migrations/1769644800000-listing-state-carried';
import { VERSION_SLOTS } from './data-version';

/**
 * Runs `use` on an in-memory SQLite database migrated up to `migration` (not included), holding a user (id 1) and
 * published events `eventIds` of that user, at the time it gives; the database is closed after.
 */
async function beforeMigration(migration: (typeof MIGRATIONS)[number], eventIds: number[], use: (dataSource: DataSource, at: string) => Promise<void>): Promise<void> {
  const options = buildDataSourceOptions({ type: 'sqlite', file: ':memory:' });
  const dataSource = new DataSource({ ...options, migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(migration)) });
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    const at = '2030-01-01 00:00:00';
    await dataSource.query(`INSERT INTO users (id, login, role, created_at) VALUES (1, 'a', 'editor', ?)`, [at]);
    for (const id of eventIds) {
      await dataSource.query(
        `INSERT INTO events (id, author_id, status, original_lang, published_at, created_at, modified_at, timezone, start_utc, end_utc) VALUES (?, 1, 'publish', 'en', ?, ?, ?, 'UTC', ?, ?)`,
        [id, at, at, at, at, at],
      );
    }
    await use(dataSource, at);
  } finally {
    await dataSource.destroy();
  }
}

describe('migrations', () => {
  it('build the schema and take it down again on SQLite', async () => {
    const dataSource = new DataSource(buildDataSourceOptions({ type: 'sqlite', file: ':memory:' }));
    await dataSource.initialize();
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      expect(applied.map((migration) => migration.name)).toEqual(['Foundation1767225600000', 'VenuesOrganizers1767312000000', 'Events1767398400000', 'DataVersion1767484800000', 'SearchTokens1767571200000', 'DataParts1767657600000', 'EventRevision1767744000000', 'WriteLog1767830400000', 'Recurrence1767916800000', 'EventSpan1768003200000', 'IdempotencyKeys1768089600000', 'IdempotencyRecord1768176000000', 'VersionSlots1768262400000', 'EventDayCounts1768348800000', 'Changes1768435200000', 'Webhooks1768521600000', 'ChangesByRecord1768608000000', 'SearchTokenStart1768694400000', 'TallyScheme1768780800000', 'EventLinkLists1768953600000', 'EventVenueStarts1769040000000', 'EventTermStarts1769126400000', 'EventOrganizerStarts1769212800000', 'EventCountedTerms1769299200000', 'EventVenueCells1769385600000', 'SearchTokenOriginal1769472000000', 'EventListingFeatured1769558400000', 'ListingStateCarried1769644800000', 'EventTranslationsByEvent1769731200000', 'EventSpanClass1769904000000']);
      expect((await dataSource.query('PRAGMA table_info(events)')).find((column: { name: string }) => column.name === 'revision')).toMatchObject({ type: 'INTEGER', notnull: 1, dflt_value: '0' });
      const tables = async () =>
        (await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)).map((row: { name: string }) => row.name);
      expect(await tables()).toEqual([
        'api_tokens',
        'change_sequence',
        'changes',
        'event_day_counts',
        'event_organizers',
        'event_span',
        'event_tallies',
        'event_tally_state',
        'event_terms',
        'event_translations',
        'event_venues',
        'events',
        'idempotency_keys',
        'media',
        'organizer_translations',
        'organizers',
        'schema_migrations',
        'search_tokens',
        'term_translations',
        'terms',
        'users',
        'venue_translations',
        'venues',
        'version_slots',
        'webhook_attempts',
        'webhook_messages',
        'webhooks',
        'write_log',
      ]);
      expect(await dataSource.query('SELECT COUNT(*) AS slots, SUM(writes + venues + organizers + terms) AS versions FROM version_slots')).toEqual([{ slots: VERSION_SLOTS, versions: 0 }]);
      expect(await dataSource.showMigrations()).toBe(false);
      for (let i = 0; i < applied.length; i++) await dataSource.undoLastMigration({ transaction: 'each' });
      expect(await tables()).toEqual(['schema_migrations']);
    } finally {
      await dataSource.destroy();
    }
  });
});

describe('the search index migration', () => {
  it('indexes the events, venues and organizers already there, each language with the original as fallback', async () => {
    await beforeMigration(SearchTokens1767571200000, [1, 2], async (dataSource, at) => {
      const text = `INSERT INTO event_translations (event_id, lang, name, slug, description, excerpt) VALUES (?, ?, ?, ?, ?, ?)`;
      await dataSource.query(text, [1, 'en', 'Café concert', 'cafe-concert', '<p>Jazz</p>', null]);
      await dataSource.query(text, [1, 'fr', 'Concert', 'concert', null, null]);
      await dataSource.query(text, [2, 'en', '古典音乐会', 'x', null, null]);
      await dataSource.query(`INSERT INTO venues (id, author_id, status, original_lang, published_at, created_at, modified_at, city) VALUES (1, 1, 'publish', 'en', ?, ?, ?, 'Montréal')`, [at, at, at]);
      await dataSource.query(`INSERT INTO venue_translations (venue_id, lang, name, slug) VALUES (1, 'en', 'Hall', 'hall')`);
      await new SearchTokens1767571200000().up(dataSource.createQueryRunner());
      expect(await dataSource.query(`SELECT record_id, lang, original, token FROM search_tokens WHERE kind = 'venue' ORDER BY token`)).toEqual([
        { record_id: 1, lang: 'en', original: 1, token: 'hall' },
        { record_id: 1, lang: 'en', original: 1, token: 'montreal' },
      ]);
      const rows = await dataSource.query(`SELECT record_id, lang, original, token FROM search_tokens WHERE kind = 'event' ORDER BY record_id, lang, token`);
      expect(rows).toEqual([
        { record_id: 1, lang: 'en', original: 1, token: 'cafe' },
        { record_id: 1, lang: 'en', original: 1, token: 'concert' },
        { record_id: 1, lang: 'en', original: 1, token: 'jazz' },
        { record_id: 1, lang: 'fr', original: 0, token: 'concert' },
        { record_id: 1, lang: 'fr', original: 0, token: 'jazz' },
        { record_id: 2, lang: 'en', original: 1, token: '乐会' },
        { record_id: 2, lang: 'en', original: 1, token: '会' },
        { record_id: 2, lang: 'en', original: 1, token: '典音' },
        { record_id: 2, lang: 'en', original: 1, token: '古典' },
        { record_id: 2, lang: 'en', original: 1, token: '音乐' },
      ]);
    });
  });
});

describe('the link lists migration', () => {
  it('writes on each event already there the ids it links to, in their order, and NULL where it links to none', async () => {
    await beforeMigration(EventLinkLists1768953600000, [1, 2], async (dataSource, at) => {
      for (const id of [1, 2, 3]) {
        await dataSource.query(`INSERT INTO venues (id, author_id, status, original_lang, published_at, created_at, modified_at) VALUES (?, 1, 'publish', 'en', ?, ?, ?)`, [id, at, at, at]);
        await dataSource.query(`INSERT INTO terms (id, taxonomy, parent_id, original_lang, created_at, modified_at) VALUES (?, 'tag', 0, 'en', ?, ?)`, [id, at, at]);
      }
      // Positions not in the order of the ids: the lists follow the positions.
      await dataSource.query('INSERT INTO event_venues (event_id, venue_id, position) VALUES (1, 3, 0), (1, 1, 1)');
      await dataSource.query('INSERT INTO event_terms (event_id, term_id, position) VALUES (1, 2, 1), (1, 3, 0), (2, 1, 0)');
      await new EventLinkLists1768953600000().up(dataSource.createQueryRunner());
      expect(await dataSource.query('SELECT id, venue_ids, organizer_ids, term_ids FROM events ORDER BY id')).toEqual([
        { id: 1, venue_ids: '3,1', organizer_ids: null, term_ids: '3,2' },
        { id: 2, venue_ids: null, organizer_ids: null, term_ids: '1' },
      ]);
    });
  });
});

describe('the counted terms migration', () => {
  it("writes on each published event the terms it counts for, and makes every term's count again from the links", async () => {
    await beforeMigration(EventCountedTerms1769299200000, [1, 2, 3], async (dataSource, at) => {
      for (const id of [1, 2, 3]) await dataSource.query(`INSERT INTO terms (id, taxonomy, parent_id, original_lang, created_at, modified_at, event_count) VALUES (?, 'tag', 0, 'en', ?, ?, 9)`, [id, at, at]);
      await dataSource.query(`UPDATE events SET status = 'draft' WHERE id = 2`);
      await dataSource.query('INSERT INTO event_terms (event_id, term_id, position) VALUES (1, 3, 0), (1, 2, 1), (2, 1, 0), (2, 2, 1)');
      await dataSource.query(`UPDATE events SET term_ids = CASE id WHEN 1 THEN '3,2' WHEN 2 THEN '1,2' END`);
      await new EventCountedTerms1769299200000().up(dataSource.createQueryRunner());
      expect(await dataSource.query('SELECT id, counted_term_ids FROM events ORDER BY id')).toEqual([
        { id: 1, counted_term_ids: '3,2' },
        { id: 2, counted_term_ids: null },
        { id: 3, counted_term_ids: null },
      ]);
      expect(await dataSource.query('SELECT id, event_count FROM terms ORDER BY id')).toEqual([
        { id: 1, event_count: 0 },
        { id: 2, event_count: 1 },
        { id: 3, event_count: 1 },
      ]);
    });
  });
});

describe.each([
  { name: 'venue', migration: EventVenueStarts1769040000000, table: 'event_venues', target: 'venue_id', parents: 'venues' },
  { name: 'term', migration: EventTermStarts1769126400000, table: 'event_terms', target: 'term_id', parents: 'terms' },
  { name: 'organizer', migration: EventOrganizerStarts1769212800000, table: 'event_organizers', target: 'organizer_id', parents: 'organizers' },
] as const)('the $name link starts migration', ({ migration, table, target, parents }) => {
  it("writes on each link already there its event's start, and indexes the links by target and start", async () => {
    await beforeMigration(migration, [1, 2], async (dataSource, at) => {
      await dataSource.query(`UPDATE events SET start_utc = '2031-02-03 04:05:06', end_utc = '2031-02-03 05:05:06' WHERE id = 2`);
      for (const id of [1, 2]) {
        await dataSource.query(
          parents === 'terms'
            ? `INSERT INTO terms (id, taxonomy, parent_id, original_lang, created_at, modified_at) VALUES (?, 'tag', 0, 'en', ?, ?)`
            : `INSERT INTO ${parents} (id, author_id, status, original_lang, published_at, created_at, modified_at) VALUES (?, 1, 'publish', 'en', ?, ?, ?)`,
          parents === 'terms' ? [id, at, at] : [id, at, at, at],
        );
      }
      await dataSource.query(`INSERT INTO ${table} (event_id, ${target}, position) VALUES (1, 2, 0), (2, 1, 0), (2, 2, 1)`);
      await new migration().up(dataSource.createQueryRunner());
      expect(await dataSource.query(`SELECT event_id, ${target} AS target, start_utc FROM ${table} ORDER BY event_id, ${target}`)).toEqual([
        { event_id: 1, target: 2, start_utc: at },
        { event_id: 2, target: 1, start_utc: '2031-02-03 04:05:06' },
        { event_id: 2, target: 2, start_utc: '2031-02-03 04:05:06' },
      ]);
      expect((await dataSource.query(`PRAGMA index_info(ix_${table}_start)`)).map((column: { name: string }) => column.name)).toEqual([target, 'start_utc', 'event_id']);
    });
  });
});

describe('the venue link cells migration', () => {
  it("writes on each venue link already there the cell of its venue's coordinates, and indexes the links by cell and start", async () => {
    await beforeMigration(EventVenueCells1769385600000, [1, 2], async (dataSource, at) => {
      // Paris; just west of Greenwich and south of the equator (cells round down); no coordinates.
      const places: [number, number | null, number | null][] = [
        [1, 48.8566, 2.3522],
        [2, -0.01, -0.01],
        [3, null, null],
      ];
      for (const [id, lat, lng] of places) {
        await dataSource.query(`INSERT INTO venues (id, author_id, status, original_lang, published_at, created_at, modified_at, geo_lat, geo_lng) VALUES (?, 1, 'publish', 'en', ?, ?, ?, ?, ?)`, [id, at, at, at, lat, lng]);
      }
      await dataSource.query('INSERT INTO event_venues (event_id, venue_id, position) VALUES (1, 1, 0), (1, 3, 1), (2, 2, 0)');
      await new EventVenueCells1769385600000().up(dataSource.createQueryRunner());
      // Rows of 7,201 cells of 0.05° from the south pole, each from the antimeridian: (977 + 1800) × 7201 + 47 + 3600.
      expect(await dataSource.query('SELECT event_id, venue_id, geo_cell FROM event_venues ORDER BY event_id, venue_id')).toEqual([
        { event_id: 1, venue_id: 1, geo_cell: 2777 * 7201 + 3647 },
        { event_id: 1, venue_id: 3, geo_cell: null },
        { event_id: 2, venue_id: 2, geo_cell: 1799 * 7201 + 3599 },
      ]);
      expect((await dataSource.query('PRAGMA index_info(ix_event_venues_cell)')).map((column: { name: string }) => column.name)).toEqual(['geo_cell', 'start_utc', 'venue_id', 'event_id']);
    });
  });

  it("writes on each venue link and event search row already there its event's start and listing state, and indexes them with it", async () => {
    await beforeMigration(ListingStateCarried1769644800000, [1, 2, 3], async (dataSource, at) => {
      // Published; hidden from listings and ending later; a featured draft.
      await dataSource.query("UPDATE events SET hide_from_listings = 1, end_utc = '2030-01-02 00:00:00' WHERE id = 2");
      await dataSource.query("UPDATE events SET status = 'draft', featured = 1 WHERE id = 3");
      await dataSource.query(`INSERT INTO venues (id, author_id, status, original_lang, published_at, created_at, modified_at) VALUES (1, 1, 'publish', 'en', ?, ?, ?)`, [at, at, at]);
      await dataSource.query('INSERT INTO event_venues (event_id, venue_id, position) VALUES (1, 1, 0), (2, 1, 0), (3, 1, 0)');
      await dataSource.query("INSERT INTO search_tokens (kind, token, record_id, lang, original) VALUES ('event', 'jazz', 1, 'en', 1), ('event', 'jazz', 2, 'en', 1), ('event', 'jazz', 3, 'en', 1), ('venue', 'hall', 1, 'en', 1)");
      await new ListingStateCarried1769644800000().up(dataSource.createQueryRunner());
      const carried = [
        { start_utc: at, end_utc: at, listed: 1, featured: 0 },
        { start_utc: at, end_utc: '2030-01-02 00:00:00', listed: 0, featured: 0 },
        { start_utc: at, end_utc: at, listed: 0, featured: 1 },
      ];
      expect(await dataSource.query('SELECT event_id, start_utc, end_utc, listed, featured FROM event_venues ORDER BY event_id')).toEqual(carried.map((row, index) => ({ event_id: index + 1, ...row })));
      expect(await dataSource.query('SELECT kind, record_id, start_utc, end_utc, listed, featured FROM search_tokens ORDER BY kind, record_id')).toEqual([
        ...carried.map((row, index) => ({ kind: 'event', record_id: index + 1, ...row })),
        { kind: 'venue', record_id: 1, start_utc: null, end_utc: null, listed: null, featured: null },
      ]);
      const columns = async (index: string) => (await dataSource.query(`PRAGMA index_info(${index})`)).map((column: { name: string }) => column.name);
      expect([await columns('ix_event_venues_cell'), await columns('ix_search_tokens_start')]).toEqual([
        ['geo_cell', 'start_utc', 'venue_id', 'event_id', 'listed', 'end_utc', 'featured'],
        ['kind', 'token', 'start_utc', 'record_id', 'lang', 'original', 'listed', 'end_utc', 'featured'],
      ]);
    });
  });
});

describe('buildDataSourceOptions', () => {
  it('never synchronises and picks the driver from the URL', () => {
    const mysql = buildDataSourceOptions({ type: 'mysql', url: 'mysql://root@db:3306/calendar', database: 'calendar' });
    expect(mysql).toMatchObject({ type: 'mysql', url: 'mysql://root@db:3306/calendar', timezone: 'Z', charset: 'utf8mb4_unicode_ci', synchronize: false });
    const sqlite = buildDataSourceOptions({ type: 'sqlite', file: ':memory:' });
    expect(sqlite).toMatchObject({ type: 'better-sqlite3', database: ':memory:', synchronize: false, migrationsTableName: 'schema_migrations' });
  });

  it('gives the embedded database a page cache of 8 MB (better-sqlite3 builds SQLite with 16)', async () => {
    const dataSource = await new DataSource(buildDataSourceOptions({ type: 'sqlite', file: ':memory:' })).initialize();
    try {
      expect(await dataSource.query('PRAGMA cache_size')).toEqual([{ cache_size: -SQLITE_CACHE_KIB }]);
      expect(SQLITE_CACHE_KIB).toBe(8000);
    } finally {
      await dataSource.destroy();
    }
  });
});

describe('the version slots migration', () => {
  it('carries the versions of the single row on in slot 0, and gives them back as they summed when undone', async () => {
    const options = buildDataSourceOptions({ type: 'sqlite', file: ':memory:' });
    const dataSource = new DataSource({ ...options, migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(VersionSlots1768262400000)) });
    await dataSource.initialize();
    try {
      await dataSource.runMigrations({ transaction: 'each' });
      await dataSource.query('UPDATE data_version SET version = id * 10 + 1');
      await dataSource.query('INSERT INTO write_log (version, event_id) VALUES (11, 0)');
      const slots = new VersionSlots1768262400000();
      const runner = dataSource.createQueryRunner();
      try {
        await slots.up(runner);
        expect(await dataSource.query('SELECT slot, writes, venues, organizers, terms FROM version_slots WHERE writes + venues + organizers + terms > 0')).toEqual([
          { slot: 0, writes: 11, venues: 21, organizers: 31, terms: 41 },
        ]);
        expect(await dataSource.query('SELECT COUNT(*) AS slots FROM version_slots')).toEqual([{ slots: VERSION_SLOTS }]);
        expect(await dataSource.query('SELECT COUNT(*) AS n FROM write_log')).toEqual([{ n: 0 }]);
        await dataSource.query('UPDATE version_slots SET writes = writes + 1, terms = terms + 1 WHERE slot = 5');
        await slots.down(runner);
        expect(await dataSource.query('SELECT id, version FROM data_version ORDER BY id')).toEqual([
          { id: 1, version: 12 },
          { id: 2, version: 21 },
          { id: 3, version: 31 },
          { id: 4, version: 42 },
        ]);
      } finally {
        await runner.release();
      }
    } finally {
      await dataSource.destroy();
    }
  });
});
