import fc from 'fast-check';
import { startTwoInstances, TestApp } from './support/test-app';

const API = '/wp-json/calendar/events/v1';

type Item = { id: number; removed?: true; [key: string]: unknown };

/** One write a client of the calendar may make; ids are picked among those the run made so far. */
type Write =
  | { op: 'create'; terms: 'watched' | 'other' | 'none'; draft: boolean }
  | { op: 'series'; count: number }
  | { op: 'rename' | 'trash' | 'restore' | 'draft' | 'publish' | 'lock' | 'unlock' | 'into' | 'out'; pick: number }
  | { op: 'rule'; pick: number; count: number }
  | { op: 'venue' | 'term'; pick: number };

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), terms: fc.constantFrom('watched' as const, 'other' as const, 'none' as const), draft: fc.boolean() }),
  fc.record({ op: fc.constant('series' as const), count: fc.integer({ min: 2, max: 4 }) }),
  fc.record({ op: fc.constantFrom('rename' as const, 'trash' as const, 'restore' as const, 'draft' as const, 'publish' as const, 'lock' as const, 'unlock' as const, 'into' as const, 'out' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('rule' as const), pick: fc.nat(), count: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ op: fc.constantFrom('venue' as const, 'term' as const), pick: fc.nat() }),
);

/**
 * SPEC §16.2's guarantee, as a property: random writes through two instances of one database run while a client
 * pages through syncs (between its pages); after each round, the copy the client kept by applying every page of
 * each sync, synced once more from its token, equals a fresh full sync: for an anonymous client of everything and
 * for an editor's sync filtered by a category.
 */
describe('sync guarantee (SPEC §16.2)', () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  let token: string;
  beforeAll(async () => {
    ({ a, b, close } = await startTwoInstances());
    token = (await a.user('editor')).token;
  });
  afterAll(() => close());

  it('keeps a copy equal to a full sync while writes run through two instances', async () => {
    const send = async (app: TestApp, method: string, path: string, json?: Record<string, unknown>) => {
      const reply = await app.request(method, `${API}/${path}`, { token, json });
      if (reply.status >= 300 && reply.status !== 410) throw new Error(`${method} ${path} → ${reply.status} ${reply.text}`);
      return reply.body;
    };
    const category = (await send(a, 'POST', 'categories', { name: 'Watched' })).id as number;
    const other = (await send(a, 'POST', 'categories', { name: 'Other' })).id as number;
    const venue = (await send(a, 'POST', 'venues', { venue: 'Hall' })).id as number;
    const events: number[] = [];
    const heads: number[] = [];
    let n = 0;

    const run = async (app: TestApp, step: Write) => {
      n += 1;
      const id = 'pick' in step && events.length > 0 ? events[step.pick % events.length] : undefined;
      const head = 'pick' in step && heads.length > 0 ? heads[step.pick % heads.length] : undefined;
      const day = `2030-0${1 + (n % 9)}-1${n % 10}`;
      switch (step.op) {
        case 'create': {
          // Events without a term change only through themselves and their venue.
          const categories = { watched: [category], other: [other], none: [] }[step.terms];
          const body = { title: `Event ${n}`, start_date: `${day} 10:00`, end_date: `${day} 11:00`, categories, venue, status: step.draft ? 'draft' : 'publish' };
          events.push((await send(app, 'POST', 'events', body)).id);
          return;
        }
        case 'series': {
          const created = await send(app, 'POST', 'events', { title: `Series ${n}`, start_date: `${day} 18:00`, end_date: `${day} 19:00`, categories: [category], recurrence: `RRULE:FREQ=DAILY;COUNT=${step.count}` });
          heads.push(created.id);
          return;
        }
        case 'rule':
          if (head !== undefined) await send(app, 'POST', `events/${head}`, { recurrence: `RRULE:FREQ=DAILY;COUNT=${step.count}` });
          return;
        case 'venue':
          await send(app, 'POST', `venues/${venue}`, { venue: `Hall ${n}` });
          return;
        case 'term':
          await send(app, 'POST', `categories/${category}`, { name: `Watched ${n}` });
          return;
      }
      if (id === undefined) return;
      const fields: Record<string, Record<string, unknown>> = {
        rename: { title: `Renamed ${n}` },
        restore: { status: 'publish' },
        draft: { status: 'draft' },
        publish: { status: 'publish' },
        lock: { password: 'pw' },
        unlock: { password: '' },
        into: { categories: [category] },
        out: { categories: [other] },
      };
      if (step.op === 'trash') await send(app, 'DELETE', `events/${id}`);
      else await send(app, 'POST', `events/${id}`, fields[step.op]);
    };

    /** A client: its sync's query, its credentials, its copy and the token it holds. */
    const clients = [
      { query: 'per_page=3', auth: undefined as string | undefined, copy: new Map<number, Item>(), token: '' },
      { query: `per_page=2&categories=${category}`, auth: token, copy: new Map<number, Item>(), token: '' },
    ];
    const page = async (url: string, auth?: string) => {
      const reply = await (n % 2 === 0 ? a : b).request('GET', url, { token: auth });
      if (reply.status !== 200) throw new Error(`GET ${url} → ${reply.status} ${reply.text}`);
      return reply.body as { events: Item[]; next_rest_url?: string; sync_token?: string };
    };
    /** One sync of a client, with `between` run before each of its pages; answers when its last page is applied. */
    const syncWhile = async (client: (typeof clients)[number], between: () => Promise<void>) => {
      let url: string | undefined = `${API}/events/sync?${client.query}${client.token ? `&sync_token=${encodeURIComponent(client.token)}` : ''}`;
      while (url) {
        await between();
        const body = await page(url, client.auth);
        for (const item of body.events) {
          if (item.removed) client.copy.delete(item.id);
          else client.copy.set(item.id, item);
        }
        url = body.next_rest_url;
        if (body.sync_token) client.token = body.sync_token;
      }
    };
    const fullSync = async (client: (typeof clients)[number]) => {
      const fresh = { ...client, copy: new Map<number, Item>(), token: '' };
      await syncWhile(fresh, async () => undefined);
      return [...fresh.copy.values()].sort((x, y) => x.id - y.id);
    };

    for (const client of clients) await syncWhile(client, async () => undefined);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(write, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }), async (rounds) => {
        for (const client of clients) {
          const pending = [...rounds];
          // Writes through both instances at once, between the pages of the sync.
          await syncWhile(client, async () => {
            const batch = pending.shift() ?? [];
            await Promise.all(batch.map((step, index) => run(index % 2 === 0 ? a : b, step)));
          });
          for (const batch of pending) await Promise.all(batch.map((step, index) => run(index % 2 === 0 ? a : b, step)));
        }
        // Writes have stopped: one more sync from the token brings each copy to what a full sync gives.
        for (const client of clients) {
          await syncWhile(client, async () => undefined);
          expect([...client.copy.values()].sort((x, y) => x.id - y.id)).toEqual(await fullSync(client));
        }
      }),
      { numRuns: 12, seed: Number(process.env['SYNC_PROPERTY_SEED'] ?? Date.now() % 2 ** 31), endOnFailure: true },
    );
  }, 300_000);
});
