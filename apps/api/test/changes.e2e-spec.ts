import { EventRepository } from '@calendar/event';
import { ChangeLog, Clock, queryCounter } from '@calendar/shared/database';
import { ORIGIN, startTestApp, TestApp } from './support/test-app';

const API = '/wp-json/calendar/events/v1';
const WINDOW = 'start_date=2030-01-01&end_date=2030-12-31';

describe('changes (SPEC §16)', () => {
  let t: TestApp;
  let editor: { id: number; token: string };
  beforeAll(async () => {
    t = await startTestApp({ TIMEZONE: 'Europe/Paris' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = await t.user('editor');
  });

  const post = async (path: string, body: Record<string, unknown>) => {
    const reply = await t.request('POST', `${API}/${path}`, { token: editor.token, json: body });
    expect(reply.status).toBe(201);
    return reply.body as { id: number };
  };

  describe('modified_after and modified_before (§16.1)', () => {
    /** Three records of each kind, last modified on 10, 11 and 12 January 2026 at 10:00:00 UTC. */
    const seed = async () => {
      const ids: Record<'events' | 'venues' | 'organizers', number[]> = { events: [], venues: [], organizers: [] };
      for (const day of [10, 11, 12]) {
        ids.venues.push((await post('venues', { venue: `Hall ${day}` })).id);
        ids.organizers.push((await post('organizers', { organizer: `Crew ${day}` })).id);
        ids.events.push((await post('events', { title: `Show ${day}`, start_date: `2030-03-${day} 19:00`, end_date: `2030-03-${day} 21:00`, venue: ids.venues.at(-1) })).id);
      }
      for (const [table, list] of Object.entries(ids)) {
        for (const [index, id] of list.entries()) {
          await t.dataSource.query(`UPDATE ${table} SET modified_at = ? WHERE id = ?`, [`2026-01-${10 + index} 10:00:00.000`, id]);
        }
      }
      return ids;
    };
    const listed = async (path: string, query: string) => {
      const reply = await t.request('GET', `${API}/${path}?${query}`);
      // Sorted: venues and organizers are listed by name.
      return { status: reply.status, total: reply.headers['x-wp-total'], ids: (reply.body[path] as { id: number }[]).map((item) => item.id).sort((a, b) => a - b) };
    };

    it('compares modified_utc with exclusive bounds, in the service time zone unless an offset is given, with every other filter', async () => {
      const ids = await seed();
      for (const path of ['events', 'venues', 'organizers'] as const) {
        const window = path === 'events' ? `${WINDOW}&` : '';
        const [first, second, third] = ids[path];
        // 11:00 in Paris is 10:00 UTC: the record modified at that second is neither after nor before it.
        expect(await listed(path, `${window}modified_after=2026-01-11 11:00:00`)).toEqual({ status: 200, total: '1', ids: [third] });
        expect(await listed(path, `${window}modified_before=2026-01-11 11:00:00`)).toEqual({ status: 200, total: '1', ids: [first] });
        expect(await listed(path, `${window}modified_after=2026-01-11T09:59:59Z`)).toEqual({ status: 200, total: '2', ids: [second, third] });
        expect(await listed(path, `${window}modified_after=2026-01-10T10:00:00.5Z&modified_before=2026-01-12T10:00:00.5Z`)).toEqual({ status: 200, total: '2', ids: [second, third] });
        expect(await listed(path, `${window}modified_after=2026-01-10&modified_before=2026-01-12`)).toEqual({ status: 200, total: '2', ids: [first, second] });
      }
      // Combined with the other filters of the list.
      expect(await listed('events', `${WINDOW}&modified_after=2026-01-10T10:00:00Z&venue=${ids.venues[2]}`)).toEqual({ status: 200, total: '1', ids: [ids.events[2]] });
      expect(await listed('events', `${WINDOW}&modified_after=2026-01-10T10:00:00Z&search=show 10`)).toEqual({ status: 200, total: '0', ids: [] });
    });

    it('moves modified with every write', async () => {
      const ids = await seed();
      const update = await t.request('POST', `${API}/venues/${ids.venues[0]}`, { token: editor.token, json: { city: 'Lyon' } });
      expect(update.status).toBe(200);
      expect((await listed('venues', 'modified_after=2026-02-01')).ids).toEqual([ids.venues[0]]);
      const trashed = await t.request('DELETE', `${API}/events/${ids.events[1]}`, { token: editor.token });
      expect(trashed.status).toBe(200);
      const all = await t.request('GET', `${API}/events?${WINDOW}&modified_after=2026-02-01&status=publish,trash`, { token: editor.token });
      expect({ status: all.status, ids: all.body.events.map((event: { id: number }) => event.id) }).toEqual({ status: 200, ids: [ids.events[1]] });
    });

    it('refuses what is not a date-time with a 400 naming the parameter', async () => {
      for (const path of ['events', 'venues', 'organizers']) {
        const reply = await t.request('GET', `${API}/${path}?modified_after=soon-ish&modified_before=2026-13-01`);
        expect(reply.status).toBe(400);
        expect(reply.body).toEqual({
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): modified_after, modified_before',
          data: { status: 400, params: { modified_after: expect.any(String), modified_before: expect.any(String) } },
        });
      }
    });
  });

  describe('sync of events (§16.2)', () => {
    type Item = { id: number; removed?: true; title?: string; [key: string]: unknown };
    /** Every page of one sync, followed through `next_rest_url`: the items in order, the pages and the token. */
    const sync = async (query: string, token?: string) => {
      let url: string | undefined = `${API}/events/sync?${query}`;
      const items: Item[] = [];
      const pages: number[] = [];
      for (;;) {
        const reply = await t.request('GET', url as string, { token });
        expect(reply.status).toBe(200);
        expect(Object.keys(reply.body).sort()).toEqual(['events', 'rest_url', reply.body.next_rest_url ? 'next_rest_url' : 'sync_token'].sort());
        items.push(...reply.body.events);
        pages.push(reply.body.events.length);
        if (!reply.body.next_rest_url) return { items, pages, syncToken: reply.body.sync_token as string };
        expect(reply.body.next_rest_url).toMatch(new RegExp(`^${ORIGIN}${API}/events/sync\\?.*cursor=`));
        url = reply.body.next_rest_url;
      }
    };
    /** A copy kept by applying syncs, as a client does. */
    const apply = (copy: Map<number, Item>, items: Item[]) => {
      for (const item of items) {
        if (item.removed) copy.delete(item.id);
        else copy.set(item.id, item);
      }
      return copy;
    };
    const event = (body: Record<string, unknown>) => post('events', { start_date: '2030-03-01 19:00', end_date: '2030-03-01 21:00', ...body });

    it('gives every event the caller may read, past, hidden and of every status but trash, in pages of the id, then a token', async () => {
      const ids = [
        (await event({ title: 'Past', start_date: '2001-01-01 10:00', end_date: '2001-01-01 11:00' })).id,
        (await event({ title: 'Hidden', hide_from_listings: true })).id,
        (await event({ title: 'Draft', status: 'draft' })).id,
        (await event({ title: 'Far', start_date: '2090-01-01 10:00', end_date: '2090-01-01 11:00' })).id,
        (await event({ title: 'Trashed' })).id,
        (await event({ title: 'Locked' })).id,
      ];
      expect((await t.request('POST', `${API}/events/${ids[5]}`, { token: editor.token, json: { password: 'secret' } })).status).toBe(200);
      expect((await t.request('DELETE', `${API}/events/${ids[4]}`, { token: editor.token })).status).toBe(200);
      const anonymous = await sync('per_page=2');
      expect(anonymous.items.map((item) => item.title)).toEqual(['Past', 'Hidden', 'Far']);
      expect(anonymous.pages).toEqual([2, 1]);
      const list = await t.request('GET', `${API}/events?include=${ids[0]}`);
      expect(anonymous.items[0]).toEqual(list.body.events[0]);
      const editors = await sync('per_page=3', editor.token);
      expect(editors.items.map((item) => item.title)).toEqual(['Past', 'Hidden', 'Draft', 'Far', 'Locked']);
      expect(editors.pages).toEqual([3, 2]);
      expect((await sync('status=draft', editor.token)).items.map((item) => item.title)).toEqual(['Draft']);
    });

    it('then gives what changed since the token: current objects, and tombstones for what left the view or the filter', async () => {
      const rock = (await post('categories', { name: 'Rock' })).id;
      const hall = (await post('venues', { venue: 'Hall' })).id;
      const a = (await event({ title: 'A', categories: [rock], venue: hall })).id;
      const b = (await event({ title: 'B', categories: [rock] })).id;
      const c = (await event({ title: 'C', categories: [rock] })).id;
      const d = (await event({ title: 'D', categories: [rock] })).id;
      const e = (await event({ title: 'E' })).id;
      const first = await sync(`categories=${rock}`);
      expect(first.items.map((item) => item.id)).toEqual([a, b, c, d]);
      const copy = apply(new Map(), first.items);

      // No change: nothing, and a token that works again.
      const quiet = await sync(`categories=${rock}`, undefined);
      const none = await t.request('GET', `${API}/events/sync?categories=${rock}&sync_token=${encodeURIComponent(first.syncToken)}`);
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ events: [], rest_url: expect.stringContaining('/events/sync?'), sync_token: expect.any(String) });
      expect(quiet.items.length).toBe(4);

      const update = (id: number, body: Record<string, unknown>) => t.request('POST', `${API}/events/${id}`, { token: editor.token, json: body });
      expect((await update(a, { title: 'A2' })).status).toBe(200);
      expect((await update(b, { status: 'draft' })).status).toBe(200);
      expect((await update(c, { categories: [] })).status).toBe(200);
      expect((await update(d, { password: 'pw' })).status).toBe(200);
      expect((await update(e, { categories: [rock] })).status).toBe(200);
      expect((await t.request('POST', `${API}/venues/${hall}`, { token: editor.token, json: { venue: 'Great Hall' } })).status).toBe(200);
      const next = await sync(`categories=${rock}&sync_token=${encodeURIComponent(first.syncToken)}`);
      const byId = new Map(next.items.map((item) => [item.id, item]));
      expect(next.items.length).toBe(byId.size);
      expect([...byId.keys()].sort((x, y) => x - y)).toEqual([a, b, c, d, e]);
      expect(byId.get(a)).toMatchObject({ title: 'A2', venue: { venue: 'Great Hall' } });
      expect([b, c, d].map((id) => byId.get(id))).toEqual([b, c, d].map((id) => ({ id, removed: true })));
      expect(byId.get(e)).toMatchObject({ title: 'E' });
      apply(copy, next.items);
      const fresh = await sync(`categories=${rock}`);
      expect([...copy.values()].sort((x, y) => x.id - y.id)).toEqual(fresh.items);

      // The category deleted: its events leave the filter (the filter itself is gone: 400 unknown category).
      const tag = (await post('tags', { name: 'Loud' })).id;
      expect((await update(a, { tags: [tag] })).status).toBe(200);
      const before = await sync('');
      expect((await t.request('DELETE', `${API}/tags/${tag}`, { token: editor.token })).status).toBe(200);
      const after = await sync(`sync_token=${encodeURIComponent(before.syncToken)}`);
      expect(after.items.map((item) => item.id)).toEqual([a]);
      expect(after.items[0]).toMatchObject({ tags: [] });
    });

    it('answers a sync of a venue filter in one statement with no change and two with changes, and knows a venue made since at once', async () => {
      const hall = (await post('venues', { venue: 'Hall' })).id;
      await event({ title: 'A', venue: hall });
      const { syncToken } = await sync(`venue=${hall}`);
      /** The sync from the token, asked twice: the second answer and the statements it ran. */
      const again = async () => {
        await t.request('GET', `${API}/events/sync?venue=${hall}&sync_token=${encodeURIComponent(syncToken)}`);
        const before = queryCounter.count;
        const reply = await t.request('GET', `${API}/events/sync?venue=${hall}&sync_token=${encodeURIComponent(syncToken)}`);
        return { status: reply.status, events: reply.body.events, statements: queryCounter.count - before };
      };
      // The data versions only: the venue's existence and the token's position are kept under them.
      expect(await again()).toEqual({ status: 200, events: [], statements: 1 });

      // Changes: the versions, then the changes with the heads of the events that match the filter now, in one
      // statement (the renderings are kept).
      const b = (await event({ title: 'B', venue: hall })).id;
      expect((await t.request('POST', `${API}/events/${b}`, { token: editor.token, json: { venue: 0 } })).status).toBe(200);
      expect(await again()).toEqual({ status: 200, events: [{ id: b, removed: true }], statements: 2 });
      const c = (await event({ title: 'C', venue: hall })).id;
      const shown = (await t.request('GET', `${API}/events?include=${c}`)).body.events;
      expect(shown.map((item: { title: string }) => item.title)).toEqual(['C']);
      expect(await again()).toEqual({ status: 200, events: [{ id: b, removed: true }, ...shown], statements: 2 });

      const unknown = await t.request('GET', `${API}/events/sync?venue=${hall + 1}`);
      expect([unknown.status, unknown.body]).toEqual([400, expect.objectContaining({ code: 'rest_invalid_param', data: expect.objectContaining({ params: { venue: `must list existing venue ids; unknown: ${hall + 1}` } }) })]);
      expect((await post('venues', { venue: 'Annex' })).id).toBe(hall + 1);
      const known = await t.request('GET', `${API}/events/sync?venue=${hall + 1}`);
      expect([known.status, known.body.events]).toEqual([200, []]);
    });

    it('reads the changes of a sync with no filter together with the data versions: one statement, and a write made since is in it', async () => {
      const a = (await event({ title: 'A' })).id;
      const { syncToken } = await sync('');
      const b = (await event({ title: 'B' })).id;
      expect((await t.request('POST', `${API}/events/${a}`, { token: editor.token, json: { title: 'A2' } })).status).toBe(200);
      /** One sync from the token (or a cursor): its status, events, next page and the statements it ran. */
      const once = async (query: string) => {
        const before = queryCounter.count;
        const reply = await t.request('GET', `${API}/events/sync?${query}`);
        return { status: reply.status, events: reply.body.events.map((item: Item) => [item.id, item.title ?? item.removed]), next: reply.body.next_rest_url, statements: queryCounter.count - before };
      };
      const fromToken = `sync_token=${encodeURIComponent(syncToken)}`;
      // The first sync since the writes: the versions, the newest position, the transaction that gives the writes'
      // rows theirs and reads the newest position given to a venue's, organizer's or term's change (on MySQL too:
      // its sessions run transactions at READ COMMITTED without a statement per transaction), the changes, then the
      // two events' records (nothing of them is rendered yet). Both writes got the same position: by id.
      const sequencing = 5;
      expect(await once(fromToken)).toEqual({ status: 200, events: [[a, 'A2'], [b, 'B']], next: undefined, statements: 1 + 1 + sequencing + 1 + 1 });
      // Since, the newest position is known: the changes up to it and the data versions in one statement. The
      // versions have not moved, so the position is still the newest and the answer stands.
      expect(await once(fromToken)).toEqual({ status: 200, events: [[a, 'A2'], [b, 'B']], next: undefined, statements: 1 });

      // A write since: that statement sees the versions moved; the position is read and given again, the changes
      // read up to it, and the new event's record. The write is in the answer.
      const c = (await event({ title: 'C' })).id;
      expect(await once(fromToken)).toEqual({ status: 200, events: [[a, 'A2'], [b, 'B'], [c, 'C']], next: undefined, statements: 1 + 1 + sequencing + 1 + 1 });
      expect(await once(fromToken)).toEqual({ status: 200, events: [[a, 'A2'], [b, 'B'], [c, 'C']], next: undefined, statements: 1 });

      // A page after the first: its range is in the cursor; the changes and the versions that check it, in one statement.
      const first = await once(`${fromToken}&per_page=2`);
      expect(first).toEqual({ status: 200, events: [[a, 'A2'], [b, 'B']], next: expect.stringContaining('cursor='), statements: 1 });
      const next = new URL(first.next as string);
      expect(await once(next.search.slice(1))).toEqual({ status: 200, events: [[c, 'C']], next: undefined, statements: 1 });
    });

    it('looks for the events that embed a changed venue, organizer or term only in ranges that hold such a change', async () => {
      const hall = (await post('venues', { venue: 'Hall' })).id;
      const a = (await event({ title: 'A', venue: hall })).id;
      const b = (await event({ title: 'B' })).id;
      const first = await sync('');
      const update = (path: string, body: Record<string, unknown>) => t.request('POST', `${API}/${path}`, { token: editor.token, json: body });
      const statements = jest.spyOn(t.get(EventRepository), 'syncChanged');
      /** A whole sync from a token: what it shows, and whether each statement of changes it ran looked for those of embedded records. */
      const since = async (token: string, perPage = 10) => {
        statements.mockClear();
        const { items, syncToken } = await sync(`per_page=${perPage}&sync_token=${encodeURIComponent(token)}`);
        const shown = items.map((item) => [item.id, item.title, Array.isArray(item['venue']) ? null : (item['venue'] as { venue: string }).venue]);
        return { shown, linked: statements.mock.calls.map(([, range]) => range.linked), syncToken };
      };
      try {
        // An event written since the token: the range holds events' changes only.
        expect((await update(`events/${b}`, { title: 'B2' })).status).toBe(200);
        expect(await since(first.syncToken)).toEqual({ shown: [[b, 'B2', null]], linked: [false], syncToken: expect.any(String) });
        // Asked again, read up to the newest position known, with the data versions: the same.
        expect(await since(first.syncToken)).toEqual({ shown: [[b, 'B2', null]], linked: [false], syncToken: expect.any(String) });

        // The venue renamed. The statement read up to the position known before (no such change there) is dropped:
        // the data versions moved. The position read again holds the venue's change, and the event that embeds it.
        expect((await update(`venues/${hall}`, { venue: 'Great Hall' })).status).toBe(200);
        const renamed = await since(first.syncToken);
        expect(renamed).toEqual({ shown: [[b, 'B2', null], [a, 'A', 'Great Hall']], linked: [false, true], syncToken: expect.any(String) });
        // The same in pages of one: each page's range (in its cursor) holds the venue's change.
        expect(await since(first.syncToken, 1)).toEqual({ ...renamed, linked: [true, true], syncToken: expect.any(String) });

        // From the token given after the venue's change, an event's change alone again.
        expect((await update(`events/${a}`, { title: 'A2' })).status).toBe(200);
        expect(await since(renamed.syncToken)).toEqual({ shown: [[a, 'A2', 'Great Hall']], linked: [false], syncToken: expect.any(String) });
      } finally {
        statements.mockRestore();
      }
    });

    it('binds the token to its filter, language and caller, and expires it after the retention', async () => {
      await event({ title: 'A' });
      const { syncToken } = await sync('featured=true');
      const use = (query: string, token?: string) => t.request('GET', `${API}/events/sync?${query}&sync_token=${encodeURIComponent(syncToken)}`, { token });
      const refused = (why: string) => ({
        code: 'invalid-sync-token',
        message: `The sync token cannot be used: ${why}. Start again with a full sync (no sync_token).`,
        data: { status: 400, params: { sync_token: why } },
      });
      expect((await use('featured=true')).status).toBe(200);
      expect(await use('featured=false')).toMatchObject({ status: 400, body: refused('the token belongs to another filter or language') });
      expect(await use('featured=true&translation_language=fr')).toMatchObject({ status: 400, body: refused('the token belongs to another filter or language') });
      expect(await use('featured=true', editor.token)).toMatchObject({ status: 400, body: refused('the token belongs to another caller') });
      const garbled = await t.request('GET', `${API}/events/sync?featured=true&sync_token=${encodeURIComponent(syncToken.slice(0, -2))}xx`);
      expect(garbled).toMatchObject({ status: 400, body: refused('it is malformed') });
      const venues = await t.request('GET', `${API}/venues/sync?sync_token=${encodeURIComponent(syncToken)}`);
      expect(venues).toMatchObject({ status: 400, body: refused('the token belongs to another kind of record') });

      const clock = t.get(Clock);
      const now = clock.now;
      try {
        clock.now = () => new Date(Date.now() + 31 * 86_400_000);
        const expired = await use('featured=true');
        expect({ status: expired.status, body: expired.body }).toEqual({
          status: 410,
          body: { code: 'sync-token-expired', message: 'The sync token is older than the change log reaches. Drop the copy and run a full sync (no sync_token).', data: { status: 410 } },
        });
      } finally {
        clock.now = now;
      }
    });

    it('drops the change log past the retention, and a token older than what it holds is 410', async () => {
      await event({ title: 'A' });
      const { syncToken } = await sync('');
      await event({ title: 'B' });
      expect((await sync(`sync_token=${encodeURIComponent(syncToken)}`)).items.map((item) => item.title)).toEqual(['B']);
      const rows = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM changes'))[0].n);
      expect(await rows()).toBe(2);
      const clock = t.get(Clock);
      const now = clock.now;
      try {
        // Within the retention (30 days, and an hour's margin): nothing goes.
        clock.now = () => new Date(Date.now() + 30 * 86_400_000);
        expect(await t.get(ChangeLog).prune()).toBe(0);
        clock.now = () => new Date(Date.now() + 32 * 86_400_000);
        expect(await t.get(ChangeLog).prune()).toBe(2);
      } finally {
        clock.now = now;
      }
      expect(await rows()).toBe(0);
      // The token is fresh, but the changes since its position are gone.
      const reply = await t.request('GET', `${API}/events/sync?sync_token=${encodeURIComponent(syncToken)}`);
      expect({ status: reply.status, code: reply.body.code }).toEqual({ status: 410, code: 'sync-token-expired' });
    });

    it('refuses the parameters of lists it does not take, naming them', async () => {
      const reply = await t.request('GET', `${API}/events/sync?start_date=2030-01-01&search=x&page=2&geoloc_lat=1&orderby=date`);
      expect(reply.status).toBe(400);
      const allowed = 'is not a filter of a sync; a sync takes per_page, sync_token, cursor, translation_language, categories, tags, venue, organizer, featured, post_parent, status';
      expect(reply.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): start_date, search, page, orderby, geoloc_lat',
        data: { status: 400, params: { start_date: allowed, search: allowed, page: allowed, orderby: allowed, geoloc_lat: allowed } },
      });
      const trash = await t.request('GET', `${API}/events/sync?status=publish,trash`, { token: editor.token });
      expect(trash.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): status',
        data: { status: 400, params: { status: 'must not include trash: a sync never shows the trash (a trashed event is a tombstone)' } },
      });
      expect((await t.request('GET', `${API}/events/sync?per_page=1001`)).status).toBe(400);
    });
  });

  describe('sync of venues, organizers, categories and tags (§16.2)', () => {
    /** Every page of one sync of `path`, followed through `next_rest_url`. */
    const syncOf = async (path: string, query: string, token?: string) => {
      let url: string | undefined = `${API}/${path}/sync?${query}`;
      const items: { id: number; removed?: true; [key: string]: unknown }[] = [];
      for (;;) {
        const reply = await t.request('GET', url as string, { token });
        expect(reply.status).toBe(200);
        items.push(...reply.body[path]);
        if (!reply.body.next_rest_url) return { items, syncToken: reply.body.sync_token as string };
        url = reply.body.next_rest_url;
      }
    };

    it('gives every record the caller may read, then what changed and tombstones for what left', async () => {
      const draft = (await post('venues', { venue: 'Draft Hall', status: 'draft' })).id;
      const halls = [(await post('venues', { venue: 'Hall A' })).id, (await post('venues', { venue: 'Hall B' })).id];
      const crew = (await post('organizers', { organizer: 'Crew' })).id;
      const parent = (await post('categories', { name: 'Music' })).id;
      const child = (await post('categories', { name: 'Rock', parent })).id;
      const tag = (await post('tags', { name: 'Loud' })).id;

      const venues = await syncOf('venues', 'per_page=1');
      expect(venues.items.map((venue) => venue.id)).toEqual(halls);
      const list = await t.request('GET', `${API}/venues?per_page=10`);
      expect(venues.items).toEqual([...list.body.venues].sort((a: { id: number }, b: { id: number }) => a.id - b.id));
      expect((await syncOf('venues', '', editor.token)).items.map((venue) => venue.id)).toEqual([draft, ...halls]);
      const organizers = await syncOf('organizers', '');
      expect(organizers.items.map((organizer) => organizer.id)).toEqual([crew]);
      // Every term, empty ones too.
      const categories = await syncOf('categories', 'per_page=1');
      expect(categories.items.map((term) => term.id)).toEqual([parent, child]);
      const tags = await syncOf('tags', '');
      expect(tags.items.map((term) => term.id)).toEqual([tag]);

      expect((await t.request('DELETE', `${API}/venues/${halls[0]}`, { token: editor.token })).status).toBe(200);
      expect((await t.request('POST', `${API}/venues/${halls[1]}`, { token: editor.token, json: { city: 'Lyon' } })).status).toBe(200);
      expect((await t.request('POST', `${API}/organizers/${crew}`, { token: editor.token, json: { status: 'draft' } })).status).toBe(200);
      expect((await t.request('DELETE', `${API}/categories/${parent}`, { token: editor.token })).status).toBe(200);
      // A published event in the tag moves its count.
      await post('events', { title: 'Gig', start_date: '2030-03-01 19:00', end_date: '2030-03-01 21:00', tags: [tag] });

      const venueChanges = await syncOf('venues', `sync_token=${encodeURIComponent(venues.syncToken)}`);
      expect(venueChanges.items).toEqual([{ id: halls[0], removed: true }, expect.objectContaining({ id: halls[1], city: 'Lyon' })]);
      expect((await syncOf('organizers', `sync_token=${encodeURIComponent(organizers.syncToken)}`)).items).toEqual([{ id: crew, removed: true }]);
      // The deleted category is a tombstone; its child moved up to the top level.
      const categoryChanges = await syncOf('categories', `sync_token=${encodeURIComponent(categories.syncToken)}`);
      expect(categoryChanges.items.map((term) => term.id).sort((a, b) => a - b)).toEqual([parent, child]);
      expect(categoryChanges.items.find((term) => term.id === parent)).toEqual({ id: parent, removed: true });
      expect(categoryChanges.items.find((term) => term.id === child)).toMatchObject({ parent: 0 });
      expect((await syncOf('tags', `sync_token=${encodeURIComponent(tags.syncToken)}`)).items).toEqual([expect.objectContaining({ id: tag, count: 1 })]);
    });

    it('refuses list parameters and trash, naming them', async () => {
      const venues = await t.request('GET', `${API}/venues/sync?search=x&status=trash`, { token: editor.token });
      expect(venues.status).toBe(400);
      expect(venues.body.data.params).toEqual({ search: 'is not a filter of a sync; a sync takes per_page, sync_token, cursor, translation_language, status' });
      const trash = await t.request('GET', `${API}/organizers/sync?status=trash`, { token: editor.token });
      expect(trash.body.data.params).toEqual({ status: 'must not include trash: a sync never shows the trash (a trashed organizer is a tombstone)' });
      const tags = await t.request('GET', `${API}/tags/sync?hide_empty=true&orderby=id`);
      expect(tags.status).toBe(400);
      const allowed = 'is not a filter of a sync; a sync takes per_page, sync_token, cursor, translation_language';
      expect(tags.body.data.params).toEqual({ orderby: allowed, hide_empty: allowed });
    });
  });
});
