import { startTestApp, TestApp } from './support/test-app';

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
});
