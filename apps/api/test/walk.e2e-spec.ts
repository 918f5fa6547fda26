import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { DayCounts, EventRepository, LinkRange, NEAR_SET_MAX_VENUES, PageRead } from '@calendar/event';
import { linkCellsUpdate, listingStateUpdate, queryCounter } from '@calendar/shared/database';
import { createTestDatabase, TestDatabase } from '@calendar/shared/testing';
import { ENGINE, startTestApp, TestApp } from './support/test-app';

/*
 * A page of a filtered list is read either by walking the start-ordered index and probing each event's links,
 * place and search tokens, along the start-ordered index of its one link (a category and its descendants, venues),
 * or from the link side (PAGE_WALK_ROWS decides on MySQL, SPEC §10.1, §10.2). All must list the same events: 1,200
 * events written straight into the tables of one database, read through an instance that always walks, one that
 * never does and one with the default, and compared with the events the test knows match. A radius holding many
 * venues beside another condition is checked per event of the other's set; a searched page read from the sets is
 * driven from the word's matches on MySQL.
 */

const EVENTS = '/wp-json/calendar/events/v1/events';
const COUNT = 1200;

describe('pages of common filters (SPEC §10.1)', () => {
  let t: TestApp;
  let instances: [string, TestApp][];
  let database: TestDatabase;
  let directory: string;
  const matches: Record<string, number[]> = {};
  let categories: { a: number; b: number; parent: number; child: number };
  let venues: { paris: number; sydney: number };
  let organizer: number;
  let lyon: number[];
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'calendar-walk-'));
    database = ENGINE === 'sqlite' ? { url: `sqlite:${join(directory, 'walk.sqlite')}`, drop: async () => undefined } : await createTestDatabase('mysql');
    t = await startTestApp({}, { database });
    instances = [
      ['default', t],
      ['always walks', await startTestApp({ PAGE_WALK_ROWS: '100000000' }, { database })],
      ['never walks', await startTestApp({ PAGE_WALK_ROWS: '0' }, { database })],
    ];
    const editor = await t.user('editor');
    const post = async (path: string, json: Record<string, unknown>) => (await t.request('POST', `/wp-json/calendar/events/v1/${path}`, { token: editor.token, json })).body.id as number;
    const parent = await post('categories', { name: 'Parent' });
    categories = { a: await post('categories', { name: 'Alpha' }), b: await post('categories', { name: 'Beta' }), parent, child: await post('categories', { name: 'Child', parent }) };
    organizer = await post('organizers', { organizer: 'Host' });
    // More venues within one radius than the radius's set is read for beside another condition (NEAR_SET_MAX_VENUES).
    lyon = [];
    for (let n = 0; n <= NEAR_SET_MAX_VENUES; n++) lyon.push(await post('venues', { venue: `Lyon ${n}`, geo_lat: 45.76 + n / 1000, geo_lng: 4.83 }));
    venues = { paris: await post('venues', { venue: 'Paris', geo_lat: 48.8566, geo_lng: 2.3522 }), sydney: await post('venues', { venue: 'Sydney', geo_lat: -33.8688, geo_lng: 151.2093 }) };
    // The form the service writes on both engines (SQLite compares the text).
    const at = (hours: number) => new Date(Date.UTC(2030, 0, 1) + hours * 3_600_000).toISOString().replace('T', ' ').replace('Z', '');
    const rows = { events: [] as unknown[][], texts: [] as unknown[][], terms: [] as unknown[][], places: [] as unknown[][], hosts: [] as unknown[][], tokens: [] as unknown[][] };
    for (const key of ['all', 'a', 'b', 'paris', 'alpha', 'a+paris', 'family', 'host', 'lyon', 'a+lyon', 'alpha+lyon', 'host+lyon', 'alpha+b', 'alpha+paris', 'featured', 'not featured']) matches[key] = [];
    for (let i = 1; i <= COUNT; i++) {
      // Start times interleave (i * 37 mod COUNT) so that id order and start order differ.
      const start = (i * 37) % COUNT;
      rows.events.push([i, editor.id, 'publish', 'en', at(0), at(0), at(0), 'UTC', at(start), at(start + 1), i % 6 === 0 ? 1 : 0]);
      const word = i % 4 === 0 ? 'alpha' : 'beta';
      rows.texts.push([i, 'en', `${word} ${i}`, `e-${i}`]);
      rows.tokens.push(['event', word, i, 'en', 1, at(start)], ['event', String(i), i, 'en', 1, at(start)]);
      // A longer word beginning with the word: some events carry both (a page along the word merges the two runs).
      if (i % 8 === 0 || i % 10 === 5) rows.tokens.push(['event', 'alphas', i, 'en', 1, at(start)]);
      if (i % 2 === 0) rows.terms.push([i, categories.a, 0, at(start)]);
      if (i % 7 === 0) rows.terms.push([i, categories.b, 1, at(start)]);
      // A category and its descendant: some events carry both (the page merges the two runs, each event once).
      if (i % 5 === 0) rows.terms.push([i, categories.parent, 2, at(start)]);
      if (i % 3 === 0) rows.terms.push([i, categories.child, 3, at(start)]);
      rows.places.push([i, i % 3 === 0 ? venues.paris : venues.sydney, 0, at(start)]);
      if (i % 4 === 1) rows.hosts.push([i, organizer, 0, at(start)]);
      if (i % 11 === 0) rows.places.push([i, lyon[i % lyon.length], 1, at(start)]);
    }
    const insert = async (table: string, columns: string, values: unknown[][]) => {
      for (let offset = 0; offset < values.length; offset += 200) {
        const chunk = values.slice(offset, offset + 200);
        await t.dataSource.query(`INSERT INTO ${table} (${columns}) VALUES ${chunk.map((row) => `(${row.map(() => '?').join(', ')})`).join(', ')}`, chunk.flat());
      }
    };
    await insert('events', 'id, author_id, status, original_lang, published_at, created_at, modified_at, timezone, start_utc, end_utc, featured', rows.events);
    await insert('event_translations', 'event_id, lang, name, slug', rows.texts);
    await insert('search_tokens', 'kind, token, record_id, lang, original, start_utc', rows.tokens);
    await insert('event_terms', 'event_id, term_id, position, start_utc', rows.terms);
    await insert('event_venues', 'event_id, venue_id, position, start_utc', rows.places);
    // Each venue link's cell of its venue's coordinates, as the write path gives it (lists within a radius read it).
    await t.dataSource.query(linkCellsUpdate('1 = 1'));
    await insert('event_organizers', 'event_id, organizer_id, position, start_utc', rows.hosts);
    // And each venue link's and search row's event's listing state, as the write path gives them (`listing-state.ts`).
    await t.dataSource.query(listingStateUpdate(ENGINE, 'event_venues', '1 = 1'));
    await t.dataSource.query(listingStateUpdate(ENGINE, 'search_tokens', "l.kind = 'event'"));
    // The test wrote behind the service's back: the service counts every event again, as a start whose counts per day
    // are stale does, and a write through the API moves the data version on.
    await t.dataSource.query('UPDATE event_tally_state SET zone = NULL WHERE id = 1');
    expect(await t.get(DayCounts).countAllIfStale()).toBe(true);
    await post('tags', { name: 'after the bulk write' });
    const alpha = (id: number) => id % 4 === 0 || id % 10 === 5;
    const byStart = Array.from({ length: COUNT }, (_, index) => index + 1).sort((x, y) => ((x * 37) % COUNT) - ((y * 37) % COUNT) || x - y);
    for (const id of byStart) {
      matches['all'].push(id);
      if (id % 2 === 0) matches['a'].push(id);
      if (id % 7 === 0) matches['b'].push(id);
      if (id % 3 === 0) matches['paris'].push(id);
      if (alpha(id)) matches['alpha'].push(id);
      matches[id % 6 === 0 ? 'featured' : 'not featured'].push(id);
      if (id % 2 === 0 && id % 3 === 0) matches['a+paris'].push(id);
      if (id % 5 === 0 || id % 3 === 0) matches['family'].push(id);
      if (id % 4 === 1) matches['host'].push(id);
      if (id % 11 === 0) matches['lyon'].push(id);
      if (id % 11 === 0 && id % 2 === 0) matches['a+lyon'].push(id);
      if (id % 11 === 0 && alpha(id)) matches['alpha+lyon'].push(id);
      if (id % 11 === 0 && id % 4 === 1) matches['host+lyon'].push(id);
      if (alpha(id) && id % 7 === 0) matches['alpha+b'].push(id);
      if (alpha(id) && id % 3 === 0) matches['alpha+paris'].push(id);
    }
    for (const key of ['a', 'b', 'paris', 'family', 'host']) {
      matches[`${key}+featured`] = matches[key].filter((id) => id % 6 === 0);
      matches[`${key}+not featured`] = matches[key].filter((id) => id % 6 !== 0);
    }
  });
  afterAll(async () => {
    for (const [, instance] of instances) await instance.close();
    await database.drop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('lists the same events walking the index (first pages) and from the link side (deep pages)', async () => {
    const window = 'start_date=2030-01-01&end_date=2030-03-31';
    const filters: [string, string][] = [
      ['all', ''],
      ['a', `categories=${categories.a}`],
      ['b', `categories=${categories.b}`],
      ['paris', `venue=${venues.paris}`],
      ['paris', 'geoloc_lat=48.8566&geoloc_lng=2.3522&geoloc_radius=20'],
      ['alpha', 'search=alp'],
      ['alpha', 'search=alpha'],
      ['a+paris', `categories=${categories.a}&venue=${venues.paris}`],
      ['family', `categories=${categories.parent}`],
      ['host', `organizer=${organizer}`],
      ['lyon', 'geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30'],
      ['a+lyon', `geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30&categories=${categories.a}`],
      ['alpha+lyon', 'geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30&search=alp'],
      ['host+lyon', `geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30&organizer=${organizer}`],
      ['all', `venue=${venues.paris},${venues.sydney}`],
      ['alpha+b', `search=alp&categories=${categories.b}`],
      ['alpha+paris', `search=alp&venue=${venues.paris}`],
      ['featured', 'featured=true'],
      ['not featured', 'featured=false'],
      ['a+not featured', `categories=${categories.a}&featured=false`],
      ['b+featured', `categories=${categories.b}&featured=true`],
      ['family+not featured', `categories=${categories.parent}&featured=false`],
      ['paris+not featured', `venue=${venues.paris}&featured=false`],
      ['host+not featured', `organizer=${organizer}&featured=false`],
    ];
    for (const [name, instance] of instances) for (const [key, query] of filters) {
      const expected = matches[key];
      for (const page of [1, 2, Math.ceil(expected.length / 10)]) {
        const reply = await instance.request('GET', `${EVENTS}?${window}&${query}&page=${page}&per_page=10`);
        const shown = `${name}: ${query} page ${page}`;
        expect([shown, reply.status, reply.body.total, reply.body.events?.map((event: { id: number }) => event.id)]).toEqual([
          shown,
          200,
          expected.length,
          expected.slice((page - 1) * 10, page * 10),
        ]);
      }
    }
  }, 60_000);

  it('reads a searched page from the sets driven from the word on MySQL, as its total is counted, its events checked on the search rows for anonymous callers', async () => {
    const never = instances[2][1];
    const editor = await t.user('editor');
    // A window no other test asks for, so that its total is counted here: the events starting from its first day.
    const query = `start_date=2030-01-02&end_date=2030-03-31&search=alp&categories=${categories.b}&per_page=5&page=2`;
    const expected = matches['alpha+b'].filter((id) => (id * 37) % COUNT >= 24);
    const read = async (token?: string) => {
      let reply: Awaited<ReturnType<TestApp['request']>> | undefined;
      const statements = await queryCounter.record(async () => {
        reply = await never.request('GET', `${EVENTS}?${query}`, { token });
      });
      const page = statements.filter((sql) => /ORDER BY/.test(sql) && /LIMIT/.test(sql));
      const total = statements.filter((sql) => sql.startsWith('SELECT COUNT(*)'));
      // Driven from the word's rows; then its events read by key, or checked on the rows (listed ones, with what they
      // carry of each event: `listing-state.ts`), reading no event.
      const driven = (sql: string) => sql.includes('FROM (SELECT DISTINCT s.record_id AS id');
      const carried = (sql: string) => sql.includes('AND s.listed = 1') && !sql.includes('`events` `e`');
      return [reply?.status, reply?.body.total, reply?.body.events.map((event: { id: number }) => event.id), page.length, page.map(driven), [...total, ...page].map(carried)];
    };
    // An editor's list may show events that are not published: its total and its page find them by key.
    expect([await read(), await read(editor.token)]).toEqual([
      [200, expected.length, expected.slice(5, 10), 1, [ENGINE === 'mysql'], [ENGINE === 'mysql', ENGINE === 'mysql']],
      [200, expected.length, expected.slice(5, 10), 1, [ENGINE === 'mysql'], [false, false]],
    ]);
  });

  it('names no venue of a radius on MySQL where the cells of its venues lie wholly within it, and the venues of the others', async () => {
    // A window no other test asks for, so that the totals are counted here.
    const window = 'start_date=2030-01-05&end_date=2030-03-31&per_page=10&page=2';
    const read = async (query: string) => {
      let reply: Awaited<ReturnType<TestApp['request']>> | undefined;
      const statements = await queryCounter.record(async () => {
        reply = await t.request('GET', `${EVENTS}?${window}&${query}`);
      });
      const links = statements.filter((sql) => sql.includes('event_venues gv'));
      return [reply?.status, reply?.body.total, reply?.body.events.map((event: { id: number }) => event.id), links.length > 0, links.map((sql) => /gv\.venue_id( \+ 0)? IN \(/.test(sql)), links.map((sql) => sql.includes('gv.geo_cell IN ('))];
    };
    const atVenue = await t.request('GET', `${EVENTS}?${window}&venue=${venues.paris}`);
    const expected = (names: boolean, cells: boolean) => [200, atVenue.body.total, atVenue.body.events.map((event: { id: number }) => event.id), true, [names, names], [cells, cells]];
    // The Paris venue's cell (48.85–48.90, 2.35–2.40) lies within 20 km of it, and not within 1 km.
    expect([await read('geoloc_lat=48.8566&geoloc_lng=2.3522&geoloc_radius=20'), await read('geoloc_lat=48.8566&geoloc_lng=2.3522&geoloc_radius=1')]).toEqual([
      expected(ENGINE !== 'mysql', ENGINE === 'mysql'),
      expected(true, ENGINE === 'mysql'),
    ]);
  });

  it('reads a radius\'s links by their cells and start on MySQL, however many venues lie in the cells it crosses', async () => {
    // The Sydney venue's cell and the 15 round it, as a wide radius resolves them: that cell wholly within, beside 500
    // venues of the others (none of them linked here). Named as a column beside the cells and the conditions an
    // anonymous list checks on the links (listing state, end, featured), those venues made MariaDB's range analysis
    // give the cell index up and read all of it.
    const cell = (lat: number, lng: number) => (Math.floor(lat * 20) + 1800) * 7201 + Math.floor(lng * 20) + 3600;
    const sydney = cell(-33.8688, 151.2093);
    const cells = [-1, 0, 1, 2].flatMap((row) => [-1, 0, 1, 2].map((column) => sydney + row * 7201 + column)).sort((a, b) => a - b);
    const edge = Array.from({ length: 500 }, (_, n) => 1_000_000 + n);
    const resolved = jest.spyOn(t.get(EventRepository), 'venuesNear').mockReturnValue({ ids: [venues.sydney, ...edge], cells, innerCells: [sydney], edgeVenues: edge });
    let reply: Awaited<ReturnType<TestApp['request']>> | undefined;
    let statements: [string, unknown[]][];
    let resolutions: number;
    try {
      // A window no other test asks for, so that its total is counted here.
      statements = await queryCounter.recordStatements(async () => {
        reply = await t.request('GET', `${EVENTS}?start_date=2030-01-06&end_date=2030-02-18&featured=false&geoloc_lat=-33.8688&geoloc_lng=151.2093&geoloc_radius=12&per_page=5&page=2`);
      });
      resolutions = resolved.mock.calls.length;
    } finally {
      resolved.mockRestore();
    }
    const from = Date.UTC(2030, 0, 6);
    const to = Date.UTC(2030, 1, 19);
    const expected = matches['not featured'].filter((id) => id % 3 !== 0 && Date.UTC(2030, 0, 1) + ((id * 37) % COUNT) * 3_600_000 >= from && Date.UTC(2030, 0, 1) + ((id * 37) % COUNT + 1) * 3_600_000 < to);
    // How MariaDB reads the links: by ranges of the cell index, not the whole index.
    const access = async ([sql, params]: [string, unknown[]]) =>
      ((await t.dataSource.query(`EXPLAIN ${sql}`, params)) as { table: string; type: string }[]).filter((row) => row.table === 'gv').map((row) => row.type);
    const links = statements.filter(([sql]) => sql.includes('FORCE INDEX (ix_event_venues_cell)'));
    expect([reply?.status, reply?.body.total, reply?.body.events.map((event: { id: number }) => event.id), resolutions, links.length > 0 || ENGINE !== 'mysql', ENGINE === 'mysql' ? (await Promise.all(links.map(access))).flat() : []]).toEqual([
      200,
      expected.length,
      expected.slice(5, 10),
      1,
      true,
      ENGINE === 'mysql' ? links.map(() => 'range') : [],
    ]);
  });

  it('counts and reads a list with a venue, an organizer or a term beside another set from that link\'s rows on SQLite', async () => {
    // A window no other test asks for, so that every total is counted here: the events starting from its first day.
    const window = 'start_date=2030-01-03&end_date=2030-03-31&per_page=5';
    const inWindow = (key: string) => matches[key].filter((id) => (id * 37) % COUNT >= 48);
    const asked: [string, string][] = [
      ['host+lyon', `geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30&organizer=${organizer}`],
      ['a+lyon', `geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30&categories=${categories.a}`],
      ['alpha+paris', `search=alp&venue=${venues.paris}`],
      ['family', `categories=${categories.parent}`],
      ['alpha+b', `search=alp&categories=${categories.b}`],
    ];
    const found: unknown[] = [];
    for (const [key, query] of asked) {
      let reply: Awaited<ReturnType<TestApp['request']>> | undefined;
      const statements = await queryCounter.record(async () => {
        reply = await t.request('GET', `${EVENTS}?${window}&${query}`);
      });
      // The link table each statement that counted the list or read its page was driven from, if any.
      const driven = (sql: string) => /FROM \(SELECT DISTINCT ld\.event_id AS id FROM (\w+) ld /.exec(sql)?.[1] ?? null;
      const counts = statements.filter((sql) => sql.startsWith('SELECT COUNT(*)')).map(driven);
      const pages = statements.filter((sql) => /ORDER BY/.test(sql) && /LIMIT/.test(sql)).map(driven);
      found.push([key, reply?.status, reply?.body.total, reply?.body.events.map((event: { id: number }) => event.id), counts, pages]);
    }
    const onSqlite = (table: string | null) => (ENGINE === 'sqlite' ? table : null);
    const expected = (key: string, table: string | null, { counted = true, page = table }: { counted?: boolean; page?: string | null } = {}) => [
      key,
      200,
      inWindow(key).length,
      inWindow(key).slice(0, 5),
      counted ? [onSqlite(table)] : [],
      [onSqlite(page)],
    ];
    expect(found).toEqual([
      expected('host+lyon', 'event_organizers'),
      expected('a+lyon', 'event_terms'),
      expected('alpha+paris', 'event_venues'),
      // A category's total, its descendants' events with it, is read from the totals per day; half the events carry
      // it, so its first page is walked.
      expected('family', 'event_terms', { counted: false, page: null }),
      // A search word's matches drive a list with terms.
      expected('alpha+b', null),
    ]);
  });

  it('counts a radius beside a category, or a word beside a radius, from their sets joined by event on MySQL and MariaDB, the events checked on the driving set\'s rows', async () => {
    // A window no other test asks for, so that every total is counted here: the events starting from its fourth day.
    const window = 'start_date=2030-01-04&end_date=2030-03-31&per_page=5';
    const inWindow = (key: string) => matches[key].filter((id) => (id * 37) % COUNT >= 72);
    matches['lyon+featured'] = matches['lyon'].filter((id) => id % 6 === 0);
    const asked: [string, string][] = [
      ['a+lyon', `geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30&categories=${categories.a}`],
      ['alpha+lyon', 'geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30&search=alp'],
      ['lyon+featured', 'geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30&featured=true'],
    ];
    const found: unknown[] = [];
    for (const [key, query] of asked) {
      let reply: Awaited<ReturnType<TestApp['request']>> | undefined;
      const statements = await queryCounter.record(async () => {
        reply = await instances[2][1].request('GET', `${EVENTS}?${window}&${query}`);
      });
      // The count's sources: the driving set, then each set joined to it by event, and whether the events are checked
      // on the driving set's rows, listed ones with what they carry of each event, reading no event (an anonymous
      // caller's list, featured or not).
      const sources = statements
        .filter((sql) => sql.startsWith('SELECT COUNT(*)'))
        .map((sql) => [/FROM \(SELECT DISTINCT (\w+)\./.exec(sql)?.[1] ?? null, /STRAIGHT_JOIN \(SELECT DISTINCT (\w+)\.event_id AS id FROM (\w+) \w+ FORCE INDEX \((\w+)\)/.exec(sql)?.slice(1) ?? null, /\b(gv|s)\.listed = 1\b/.test(sql) && !sql.includes('`events` `e`')]);
      found.push([key, reply?.status, reply?.body.total, reply?.body.events.map((event: { id: number }) => event.id), sources]);
    }
    const expected = (key: string, mysql: unknown[], sqlite: unknown[]) => [key, 200, inWindow(key).length, inWindow(key).slice(0, 5), [ENGINE === 'mysql' ? mysql : sqlite]];
    // SQLite reads the first from the category's links (`linkDriven`), the second from the word's, the radius checked per event.
    expect(found).toEqual([
      expected('a+lyon', ['gv', ['et', 'event_terms', 'ix_event_terms_start'], true], ['ld', null, false]),
      expected('alpha+lyon', ['s', ['gv', 'event_venues', 'ix_event_venues_cell'], true], ['s', null, false]),
      expected('lyon+featured', ['gv', null, true], [null, null, false]),
    ]);
  });

  it('counts and reads a searched prefix on SQLite from two ranges of the search rows\' start index, the word\'s by start and the longer words\'', async () => {
    // A window no other test asks for, so that its total is counted here: the events starting from its fifth day.
    const expected = matches['alpha'].filter((id) => (id * 37) % COUNT >= 96);
    let reply: Awaited<ReturnType<TestApp['request']>> | undefined;
    const statements = await queryCounter.record(async () => {
      reply = await instances[2][1].request('GET', `${EVENTS}?start_date=2030-01-05&end_date=2030-03-31&search=alp&per_page=5&page=2`);
    });
    // How SQLite reads the search rows in each statement that counted the list or read its page (planned as they
    // were run): as one OR it read every row of the kind from the index.
    const plans = () => {
      const sqlite = new Sqlite(database.url.replace(/^sqlite:/, ''), { readonly: true });
      try {
        return statements
          .filter((sql) => sql.includes('ix_search_tokens_start'))
          .map((sql) => sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.match(/\?/g) ?? []).map(() => null)) as { detail: string }[])
          .map((rows) => rows.map((row) => row.detail).filter((detail) => detail.includes('ix_search_tokens_start')));
      } finally {
        sqlite.close();
      }
    };
    const ranges = ['SEARCH s USING COVERING INDEX ix_search_tokens_start (kind=? AND token=? AND start_utc>? AND start_utc<?)', 'SEARCH s USING COVERING INDEX ix_search_tokens_start (kind=? AND token>? AND token<?)'];
    expect([reply?.status, reply?.body.total, reply?.body.events.map((event: { id: number }) => event.id), ENGINE === 'sqlite' ? plans() : null]).toEqual([
      200,
      expected.length,
      expected.slice(5, 10),
      ENGINE === 'sqlite' ? [ranges, ranges] : null,
    ]);
  });

  it('reads a page narrowed by featured alone, or walked with featured, along the featured index on MySQL', async () => {
    // A list's status, total and ids, and for each statement that read its page whether it read the featured index.
    const listed = async (app: TestApp, query: string) => {
      let reply: Awaited<ReturnType<TestApp['request']>> | undefined;
      const statements = await queryCounter.record(async () => {
        reply = await app.request('GET', `${EVENTS}?start_date=2030-01-01&end_date=2030-03-31&${query}`);
      });
      const page = statements.filter((sql) => /ORDER BY/.test(sql) && /LIMIT/.test(sql));
      return [reply?.status, reply?.body.total, reply?.body.events.map((event: { id: number }) => event.id), page.map((sql) => sql.includes('FORCE INDEX (`ix_events_featured`)'))];
    };
    const found = [await listed(t, 'featured=true&per_page=7&page=3'), await listed(t, 'featured=false&per_page=7&page=3')];
    // Walked with the probes of a category and a venue (the instance that always walks; with one link it would read
    // along that link): along the featured index too. Category a beside Sydney keeps every event of a not featured.
    const aNotFeatured = matches['a+not featured'];
    found.push(await listed(instances[1][1], `featured=false&categories=${categories.a}&venue=${venues.sydney}&per_page=7&page=2`));
    expect(found).toEqual([
      [200, matches['featured'].length, matches['featured'].slice(14, 21), [ENGINE === 'mysql']],
      [200, matches['not featured'].length, matches['not featured'].slice(14, 21), [ENGINE === 'mysql']],
      [200, aNotFeatured.length, aNotFeatured.slice(7, 14), [ENGINE === 'mysql']],
    ]);
  });

  it('reads a page narrowed by one link along its index on MySQL while that reads the fewest rows, by one word along its rows, by a radius from its cells unless the walk is far shorter, walks it on SQLite while the walk is short', async () => {
    const window = 'start_date=2030-01-01&end_date=2030-03-31&per_page=9';
    const page = jest.spyOn(t.get(EventRepository), 'page');
    const asked = [
      `${window}&categories=${categories.b}`,
      `${window}&categories=${categories.parent}`,
      `${window}&venue=${venues.paris}`,
      `${window}&organizer=${organizer}`,
      // A page as long as the list: its run would read the whole set, which the set read does (ten days: 34 events).
      `start_date=2030-01-01&end_date=2030-01-10&per_page=50&categories=${categories.b}`,
      // A page far into the list starts at its day (the totals per day), its run reads from there.
      `${window}&categories=${categories.a}&page=${Math.ceil(matches['a'].length / 9)}`,
      // Two links: a walk.
      `${window}&categories=${categories.a}&venue=${venues.paris}`,
      // Beside featured=false (five events in six): along the link; its run reads past the featured ones.
      `${window}&categories=${categories.a}&featured=false`,
      // Beside featured=true (one in six) for a category of 28 such events: a run would read about 54 rows to the
      // page's end, more than the set read whole.
      `${window}&categories=${categories.b}&featured=true`,
      // One search word: along its rows by start on MySQL (the word and, for its prefix, the longer words).
      `${window}&search=alpha&page=3`,
      // A word beside a category: not along the word (its run may read past most of the word's rows).
      `${window}&search=alpha&categories=${categories.b}`,
      // A radius holding one event in three (Paris): 27 events walked, each probed, against a set of 400 rows.
      `${window}&geoloc_lat=48.8566&geoloc_lng=2.3522&geoloc_radius=20`,
      // One in eleven (Lyon): 99 events walked against 109 rows of its cells, each row costing a fraction of a
      // walked event's probe on MySQL: read from the cells' set there, walked on SQLite.
      `${window}&geoloc_lat=45.76&geoloc_lng=4.83&geoloc_radius=30`,
    ];
    const reads: unknown[] = [];
    for (const query of asked) {
      page.mockClear();
      const reply = await t.request('GET', `${EVENTS}?${query}`);
      const read = page.mock.calls[0]?.[3] as PageRead;
      reads.push([reply.status, typeof read === 'object' ? { ...read, ids: [...read.ids].sort((x, y) => x - y) } : read]);
    }
    page.mockRestore();
    const along = (link: LinkRange['link'], ids: number[]) => [200, { link, ids, ...(link === 'terms' ? { termSet: 0 } : {}) }];
    expect(reads).toEqual(
      ENGINE === 'mysql'
        ? [
            along('terms', [categories.b]),
            along('terms', [categories.parent, categories.child].sort((x, y) => x - y)),
            along('venues', [venues.paris]),
            along('organizers', [organizer]),
            [200, false],
            along('terms', [categories.a]),
            [200, true],
            along('terms', [categories.a]),
            [200, false],
            [200, 'word'],
            [200, false],
            [200, true],
            [200, false],
          ]
        : [[200, true], [200, true], [200, true], [200, true], [200, false], [200, true], [200, true], [200, true], [200, false], [200, false], [200, false], [200, true], [200, true]],
    );
  });
});
