import { EventRepository } from '@calendar/event';
import { startTestApp, TestApp } from './support/test-app';

/*
 * List totals stay exact whatever is kept between requests: after each round of random creates, updates and
 * trashings, `total` and `X-WP-Total` of a matrix of filters, for an anonymous caller and an editor, equal a
 * count made here from what the test wrote. Each filter is asked twice per round, so a total kept from an
 * earlier round would show. Between the creates and the other writes of each round the totals are checked too:
 * kept totals catch up over writes that only added events by counting those, never counting everything again.
 */

const EVENTS = '/wp-json/calendar/events/v1/events';
const WORDS = ['jazz', 'market', 'lecture', 'café'];
const STATUSES = ['publish', 'publish', 'publish', 'draft', 'pending', 'private'] as const;

/**
 * Where an event takes place, against the lists' radius of 10 km round (48.85, 2.35): at a venue in a cell wholly
 * within it (`near`, 0.7 km away), at one of two venues of the cell north of it, which the radius crosses (`edgeIn`
 * 9 km away, `edgeOut` 10.6 km), or far away (Lyon).
 */
type Place = 'near' | 'edgeIn' | 'edgeOut' | 'far';
const IN_RADIUS: (Place | null)[] = ['near', 'edgeIn'];

interface Model {
  id: number;
  start: string;
  end: string;
  status: string;
  featured: boolean;
  hidden: boolean;
  word: string;
  category: 'music' | 'arts' | null;
  place: Place | null;
}

/** A small deterministic generator, so that a failure can be replayed. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return { int: (below: number) => Math.floor(next() * below), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] };
}

describe('list totals after random writes (SPEC §10.1)', () => {
  let t: TestApp;
  let editor: string;
  beforeAll(async () => {
    t = await startTestApp();
    editor = (await t.user('editor')).token;
  });
  afterAll(() => t.close());

  it('equal a brute-force count for every filter, caller and round', async () => {
    const random = generator(20261123);
    const events = new Map<number, Model>();
    const venue = async (name: string, lat: number, lng: number) => (await t.request('POST', '/wp-json/calendar/events/v1/venues', { token: editor, json: { venue: name, geo_lat: lat, geo_lng: lng } })).body.id as number;
    const places: Record<Place, number> = {
      near: await venue('Hall', 48.8566, 2.3522),
      edgeIn: await venue('Barn', 48.931, 2.35),
      edgeOut: await venue('Mill', 48.945, 2.36),
      far: await venue('Quay', 45.764, 4.8357),
    };
    const day = (offset: number) => `2030-03-${String(1 + offset).padStart(2, '0')}`;
    const attributes = () => {
      const first = random.int(20);
      const length = random.int(3);
      return {
        start: `${day(first)} ${String(8 + random.int(10)).padStart(2, '0')}:00:00`,
        end: `${day(first + length)} 23:00:00`,
        status: random.pick(STATUSES),
        featured: random.int(4) === 0,
        hidden: random.int(10) === 0,
        word: random.pick(WORDS),
        category: random.pick(['music', 'arts', null] as const),
        place: random.pick(['near', 'edgeIn', 'edgeOut', 'far', null] as const),
      };
    };
    const send = (model: Omit<Model, 'id'>) => ({
      title: `${model.word} ${random.int(1000)}`,
      start_date: model.start,
      end_date: model.end,
      status: model.status,
      featured: model.featured,
      hide_from_listings: model.hidden,
      categories: model.category ?? [],
      venue: model.place ? places[model.place] : [],
    });

    const filters: { query: string; keep: (event: Model) => boolean }[] = [
      { query: '', keep: () => true },
      { query: 'featured=true', keep: (event) => event.featured },
      { query: 'categories=music', keep: (event) => event.category === 'music' },
      { query: 'search=caf', keep: (event) => event.word === 'café' },
      { query: 'search=jazz&featured=false', keep: (event) => event.word === 'jazz' && !event.featured },
      { query: 'categories=music&featured=true', keep: (event) => event.category === 'music' && event.featured },
      { query: 'geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=10', keep: (event) => IN_RADIUS.includes(event.place) },
      { query: 'geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=10&featured=true', keep: (event) => IN_RADIUS.includes(event.place) && event.featured },
      { query: 'geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=10&search=jazz', keep: (event) => IN_RADIUS.includes(event.place) && event.word === 'jazz' },
      // Every cell of its venues wholly within it: no venue named.
      { query: 'geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=12', keep: (event) => event.place !== null && event.place !== 'far' },
    ];
    const windows: [string, string][] = [
      ['2030-03-01', '2030-03-31'],
      ['2030-03-05', '2030-03-12'],
      ['2030-03-10', '2030-03-10'],
    ];

    const check = async (round: number) => {
      for (const [from, to] of windows) {
        for (const filter of filters) {
          for (const [who, token] of [['anonymous', undefined], ['editor', editor]] as const) {
            const expected = [...events.values()].filter(
              (event) =>
                !event.hidden &&
                event.start >= `${from} 00:00:00` &&
                event.end <= `${to} 23:59:59` &&
                (who === 'editor' ? event.status !== 'trash' : event.status === 'publish') &&
                filter.keep(event),
            ).length;
            for (let ask = 0; ask < 2; ask++) {
              const reply = await t.request('GET', `${EVENTS}?start_date=${from}&end_date=${to}&per_page=1&${filter.query}`, { token });
              const shown = `round ${round}, ${who}, ${from}..${to}, ${filter.query}`;
              expect([shown, reply.status, reply.body.total, reply.headers['x-wp-total']]).toEqual([shown, 200, expected, String(expected)]);
            }
          }
        }
      }
    };

    const repository = t.get(EventRepository);
    const fullCounts = jest.spyOn(repository, 'countAtVersion');
    const catchUps = jest.spyOn(repository, 'countAdded');
    // Every filter (with its audience) counted in full so far.
    const counted = new Set<string>();
    const fullyCounted = () => {
      const keys = fullCounts.mock.calls.map(([filter]) => JSON.stringify({ ...filter, caller: filter.caller?.id }));
      fullCounts.mockClear();
      return keys;
    };
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 12; i++) {
        const model = attributes();
        const reply = await t.request('POST', EVENTS, { token: editor, json: send(model) });
        expect(reply.status).toBe(201);
        events.set(reply.body.id, { id: reply.body.id, ...model });
      }
      if (round > 0) {
        // Only totals never asked before are counted in full (on MySQL, the listing window of a filter whose page
        // is first read by walking); the others catch up.
        fullyCounted().forEach((key) => counted.add(key));
        catchUps.mockClear();
        await check(round);
        const recounted = fullyCounted();
        expect(recounted.filter((key) => counted.has(key))).toEqual([]);
        recounted.forEach((key) => counted.add(key));
        expect(catchUps).toHaveBeenCalled();
      }
      for (const event of [...events.values()].filter(() => random.int(4) === 0)) {
        if (event.status !== 'trash' && random.int(3) === 0) {
          expect((await t.request('DELETE', `${EVENTS}/${event.id}`, { token: editor })).status).toBe(200);
          event.status = 'trash';
          continue;
        }
        const model = attributes();
        const reply = await t.request('POST', `${EVENTS}/${event.id}`, { token: editor, json: send(model) });
        expect(reply.status).toBe(200);
        events.set(event.id, { id: event.id, ...model });
      }
      await check(round);
    }
  }, 120_000);
});
