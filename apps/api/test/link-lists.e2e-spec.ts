import { geoCellSql, IN_LIST_DIVE_LIMIT } from '@calendar/shared/database';
import { ENGINE, startTestApp, TestApp } from './support/test-app';

const API = '/wp-json/calendar/events/v1';

interface Shown {
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
}

/**
 * The ids an event links to are kept on its row as well as in the link tables (what answers read), each venue,
 * category and tag link carries its event's start, and each venue link the cell of its venue's coordinates. Every kind of write that changes links or starts keeps them alike: creates,
 * updates, events moved, series written and written again, terms deleted for good, events trashed and restored.
 */
describe('link lists kept on events', () => {
  let t: TestApp;
  let editor: string;
  beforeAll(async () => {
    t = await startTestApp();
    editor = (await t.user('editor')).token;
  });
  afterAll(() => t.close());

  const send = async (method: 'POST' | 'DELETE', path: string, body?: Record<string, unknown>) => {
    const reply = await t.request(method, `${API}/${path}`, { token: editor, json: body });
    expect([method, path, reply.status]).toEqual([method, path, method === 'POST' && !/\d$/.test(path) ? 201 : 200]);
    return reply.body as { id: number };
  };

  /** The lists on every event's row, and the same read from the link rows in their order. */
  const lists = async () => {
    const rows: Record<string, unknown>[] = await t.dataSource.query('SELECT id, venue_ids, organizer_ids, term_ids FROM events ORDER BY id');
    const kept = rows.map((row) => [Number(row['id']), row['venue_ids'] ?? null, row['organizer_ids'] ?? null, row['term_ids'] ?? null]);
    const fromRows = async (table: string, column: string) => {
      const links: Record<string, unknown>[] = await t.dataSource.query(`SELECT event_id, ${column} AS target FROM ${table} ORDER BY event_id, position`);
      const byEvent = new Map<number, number[]>();
      for (const link of links) byEvent.set(Number(link['event_id']), [...(byEvent.get(Number(link['event_id'])) ?? []), Number(link['target'])]);
      return byEvent;
    };
    const [venues, organizers, terms] = [await fromRows('event_venues', 'venue_id'), await fromRows('event_organizers', 'organizer_id'), await fromRows('event_terms', 'term_id')];
    const expected = rows.map((row) => {
      const id = Number(row['id']);
      return [id, ...[venues, organizers, terms].map((map) => map.get(id)?.join(',') ?? null)];
    });
    // Each venue, organizer, category and tag link carries its event's start: lists of a venue, an organizer, a term
    // or a radius read the links of a window by it.
    const starts: Record<string, unknown>[] = await t.dataSource.query(
      `SELECT 'venue' AS kind, l.event_id, l.venue_id AS target, l.start_utc AS kept, e.start_utc AS event FROM event_venues l INNER JOIN events e ON e.id = l.event_id
       UNION ALL SELECT 'organizer' AS kind, l.event_id, l.organizer_id AS target, l.start_utc AS kept, e.start_utc AS event FROM event_organizers l INNER JOIN events e ON e.id = l.event_id
       UNION ALL SELECT 'term' AS kind, l.event_id, l.term_id AS target, l.start_utc AS kept, e.start_utc AS event FROM event_terms l INNER JOIN events e ON e.id = l.event_id
       ORDER BY kind, event_id, target`,
    );
    // Each venue link carries the cell of its venue's coordinates (NULL without them): lists within a radius read the
    // links by it.
    const cells: Record<string, unknown>[] = await t.dataSource.query(
      `SELECT l.event_id, l.venue_id, l.geo_cell AS kept, ${geoCellSql('v')} AS venue FROM event_venues l INNER JOIN venues v ON v.id = l.venue_id ORDER BY l.event_id, l.venue_id`,
    );
    const cell = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    // Each venue link and each search row of an event carries its start, end, whether it is listed (published, not
    // hidden from listings) and whether featured (`listing-state.ts`): the anonymous lists of a radius or a word check
    // their events on them.
    const eventState = `e.start_utc AS e_start, e.end_utc AS e_end, (e.status = 'publish' AND e.hide_from_listings = 0) AS e_listed, e.featured AS e_featured`;
    const states: Record<string, unknown>[] = [
      ...(await t.dataSource.query(`SELECT 'venue' AS kind, l.event_id AS id, l.venue_id AS target, l.start_utc, l.end_utc, l.listed, l.featured, ${eventState} FROM event_venues l INNER JOIN events e ON e.id = l.event_id ORDER BY l.event_id, l.venue_id`)),
      ...(await t.dataSource.query(`SELECT 'search' AS kind, l.record_id AS id, l.token AS target, l.start_utc, l.end_utc, l.listed, l.featured, ${eventState} FROM search_tokens l INNER JOIN events e ON e.id = l.record_id WHERE l.kind = 'event' ORDER BY l.record_id, l.token, l.lang`)),
    ];
    const flag = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    return {
      kept: {
        lists: kept,
        starts: starts.map((row) => [row['kind'], row['event_id'], row['target'], row['kept']]),
        cells: cells.map((row) => [row['event_id'], row['venue_id'], cell(row['kept'])]),
        states: states.map((row) => [row['kind'], row['id'], row['target'], row['start_utc'], row['end_utc'], flag(row['listed']), flag(row['featured'])]),
      },
      expected: {
        lists: expected,
        starts: starts.map((row) => [row['kind'], row['event_id'], row['target'], row['event']]),
        cells: cells.map((row) => [row['event_id'], row['venue_id'], cell(row['venue'])]),
        states: states.map((row) => [row['kind'], row['id'], row['target'], row['e_start'], row['e_end'], flag(row['e_listed']), flag(row['e_featured'])]),
      },
    };
  };

  const expectAlike = async (step: string) => {
    const { kept, expected } = await lists();
    expect([step, kept]).toEqual([step, expected]);
  };

  /** What the editor's answer of an event shows it linked to, in order. */
  const shown = async (id: number): Promise<Shown> => {
    const reply = await t.request('GET', `${API}/events/${id}`, { token: editor });
    expect(reply.status).toBe(200);
    const ids = (items: { id: number }[] | { id: number }) => (Array.isArray(items) ? items : [items]).map((item) => item.id);
    return { venues: ids(reply.body.venue), organizers: ids(reply.body.organizer), categories: ids(reply.body.categories), tags: ids(reply.body.tags) };
  };

  it('equal the link rows after every kind of write that changes links', async () => {
    const [hall, park] = [await send('POST', 'venues', { venue: 'Hall' }), await send('POST', 'venues', { venue: 'Park' })];
    const [crew, band] = [await send('POST', 'organizers', { organizer: 'Crew' }), await send('POST', 'organizers', { organizer: 'Band' })];
    const music = await send('POST', 'categories', { name: 'Music' });
    const jazz = await send('POST', 'categories', { name: 'Jazz', parent: music.id });
    const [outdoor, free] = [await send('POST', 'tags', { name: 'Outdoor' }), await send('POST', 'tags', { name: 'Free' })];

    const concert = await send('POST', 'events', {
      title: 'Concert',
      start_date: '2030-05-01 19:00',
      end_date: '2030-05-01 21:00',
      venue: [park.id, hall.id],
      organizer: [band.id, crew.id],
      categories: [jazz.id, music.id],
      tags: [free.id],
    });
    const bare = await send('POST', 'events', { title: 'Bare', start_date: '2030-05-02 10:00', end_date: '2030-05-02 11:00' });
    await expectAlike('created');
    expect(await shown(concert.id)).toEqual({ venues: [park.id, hall.id], organizers: [band.id, crew.id], categories: [jazz.id, music.id], tags: [free.id] });
    expect(await shown(bare.id)).toEqual({ venues: [], organizers: [], categories: [], tags: [] });

    await send('POST', `events/${concert.id}`, { venue: [hall.id], tags: [outdoor.id, free.id], organizer: [] });
    await expectAlike('updated');
    expect(await shown(concert.id)).toEqual({ venues: [hall.id], organizers: [], categories: [jazz.id, music.id], tags: [outdoor.id, free.id] });

    // A list within a radius, and one of a tag with a search word (counted from the events, not from the totals
    // per day), find the concert in the window it starts in, before and after it moves.
    await send('POST', `venues/${hall.id}`, { geo_lat: 48.8566, geo_lng: 2.3522 });
    const inMonth = async (month: string, query: string) => {
      const reply = await t.request('GET', `${API}/events?start_date=2030-${month}-01&end_date=2030-${month}-28&${query}`);
      expect(reply.status).toBe(200);
      return { month, ids: (reply.body.events as { id: number }[]).map((event) => event.id), total: reply.body.total };
    };
    const near = (month: string) => inMonth(month, 'geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=10');
    const tagged = (month: string) => inMonth(month, `tags=${outdoor.id}&search=conc`);
    expect([await near('05'), await near('06'), await tagged('05'), await tagged('06')]).toEqual([
      { month: '05', ids: [concert.id], total: 1 },
      { month: '06', ids: [], total: 0 },
      { month: '05', ids: [concert.id], total: 1 },
      { month: '06', ids: [], total: 0 },
    ]);
    await send('POST', `events/${concert.id}`, { start_date: '2030-06-01 19:00', end_date: '2030-06-01 21:00' });
    await expectAlike('moved');
    expect([await near('05'), await near('06'), await tagged('05'), await tagged('06')]).toEqual([
      { month: '05', ids: [], total: 0 },
      { month: '06', ids: [concert.id], total: 1 },
      { month: '05', ids: [], total: 0 },
      { month: '06', ids: [concert.id], total: 1 },
    ]);

    // Hidden from listings, then featured and shown again: anonymous lists of the radius and of the word follow.
    await send('POST', `events/${concert.id}`, { hide_from_listings: true });
    await expectAlike('hidden');
    expect([await near('06'), await tagged('06')]).toEqual([
      { month: '06', ids: [], total: 0 },
      { month: '06', ids: [], total: 0 },
    ]);
    await send('POST', `events/${concert.id}`, { hide_from_listings: false, featured: true });
    await expectAlike('featured and shown');
    expect([await inMonth('06', 'geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=10&featured=true'), await inMonth('06', 'search=conc&featured=false')]).toEqual([
      { month: '06', ids: [concert.id], total: 1 },
      { month: '06', ids: [], total: 0 },
    ]);

    // The venue moves out of the radius (to Lyon) and back: its links take each new cell, and the list follows.
    await send('POST', `venues/${hall.id}`, { geo_lat: 45.764, geo_lng: 4.8357 });
    await expectAlike('venue moved away');
    expect([await near('06'), await inMonth('06', 'geoloc_lat=45.76&geoloc_lng=4.84&geoloc_radius=10')]).toEqual([
      { month: '06', ids: [], total: 0 },
      { month: '06', ids: [concert.id], total: 1 },
    ]);
    await send('POST', `venues/${hall.id}`, { geo_lat: 48.8566, geo_lng: 2.3522 });
    await expectAlike('venue moved back');
    expect(await near('06')).toEqual({ month: '06', ids: [concert.id], total: 1 });

    // Soon: a series' occurrences are written up to a horizon ahead of today.
    const soon = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    const series = await send('POST', 'events', {
      title: 'Walk',
      start_date: `${soon} 07:00`,
      end_date: `${soon} 08:00`,
      venue: park.id,
      tags: [outdoor.id],
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3',
    });
    await expectAlike('series created');
    await send('POST', `events/${series.id}`, { tags: [free.id, outdoor.id], organizer: [crew.id] });
    await expectAlike('series written again');
    const occurrences = (await t.dataSource.query('SELECT id FROM events WHERE series_id = ? AND id <> ? ORDER BY id', [series.id, series.id])).map((row: { id: number }) => Number(row.id));
    expect(occurrences).toHaveLength(2);
    for (const id of occurrences) expect(await shown(id)).toEqual({ venues: [park.id], organizers: [crew.id], categories: [], tags: [free.id, outdoor.id] });

    await send('DELETE', `tags/${free.id}`);
    await send('DELETE', `categories/${jazz.id}`);
    await expectAlike('terms deleted');
    expect(await shown(concert.id)).toEqual({ venues: [hall.id], organizers: [], categories: [music.id], tags: [outdoor.id] });
    for (const id of occurrences) expect(await shown(id)).toEqual({ venues: [park.id], organizers: [crew.id], categories: [], tags: [outdoor.id] });

    await send('DELETE', `events/${concert.id}`);
    await expectAlike('trashed');
    expect([await near('06'), await inMonth('06', 'search=conc')]).toEqual([
      { month: '06', ids: [], total: 0 },
      { month: '06', ids: [], total: 0 },
    ]);
    await send('POST', `events/${concert.id}`, { status: 'publish' });
    await expectAlike('trashed and restored');
    expect([await near('06'), await inMonth('06', 'search=conc')]).toEqual([
      { month: '06', ids: [concert.id], total: 1 },
      { month: '06', ids: [concert.id], total: 1 },
    ]);
    expect(await shown(concert.id)).toEqual({ venues: [hall.id], organizers: [], categories: [music.id], tags: [outdoor.id] });
  });

  // MySQL and MariaDB only: SQLite keeps no such estimates.
  if (ENGINE === 'mysql') {
    it('estimates the venue list of a radius from index statistics, and runs transactions at READ COMMITTED, on every MySQL session', async () => {
      // MySQL 8 names the isolation variable transaction_isolation; MariaDB before 11.1 only tx_isolation.
      const [{ version }] = await t.dataSource.query('SELECT VERSION() AS version');
      const isolation = String(version).includes('MariaDB') ? '@@SESSION.tx_isolation' : '@@SESSION.transaction_isolation';
      // Several sessions at once, so that more than one connection of the pool answers.
      const settings = await Promise.all(Array.from({ length: 6 }, () => t.dataSource.query(`SELECT @@SESSION.eq_range_index_dive_limit AS dive_limit, ${isolation} AS isolation, SLEEP(0.05) AS slept`)));
      expect(settings.map(([row]) => [Number(row.dive_limit), row.isolation])).toEqual(Array(6).fill([IN_LIST_DIVE_LIMIT, 'READ-COMMITTED']));
    });
  }
});
