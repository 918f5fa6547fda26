import { TransactionRunner } from '@calendar/shared/database';
import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from './support/test-app';

const BASE = '/wp-json/calendar/events/v1';
const KINDS = [
  { path: 'events', kind: 'event', body: (name: string) => ({ title: name, start_date: '2030-05-01 19:00', end_date: '2030-05-01 21:00' }) },
  { path: 'venues', kind: 'venue', body: (name: string) => ({ venue: name }) },
  { path: 'organizers', kind: 'organizer', body: (name: string) => ({ organizer: name }) },
];
const CONCURRENT = 20;

describe('concurrent writes', () => {
  let t: TestApp;
  let editor: { token: string };
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = await t.user('editor');
  });

  describe.each(KINDS)('$path', ({ path, kind, body }) => {
    it(`gives ${CONCURRENT} simultaneous creates with one name a slug each (title, title-2, ...)`, async () => {
      const replies = await Promise.all(
        Array.from({ length: CONCURRENT }, () => t.request('POST', `${BASE}/${path}`, { token: editor.token, json: body('Open Air Night') })),
      );
      expect(replies.map((reply) => reply.status)).toEqual(Array(CONCURRENT).fill(201));
      const slugs = replies.map((reply) => reply.body.slug).sort();
      const expected = ['open-air-night', ...Array.from({ length: CONCURRENT - 1 }, (_, index) => `open-air-night-${index + 2}`)].sort();
      expect(slugs).toEqual(expected);
      const listed = await t.request('GET', `${BASE}/${path}?per_page=100&start_date=2030-01-01&end_date=2030-12-31`);
      expect(listed.body.total).toBe(CONCURRENT);
    });

    it('answers one of several simultaneous creates with the same explicit slug 201 and the others 409 slug-exists', async () => {
      const replies = await Promise.all(
        Array.from({ length: 5 }, (_, index) => t.request('POST', `${BASE}/${path}`, { token: editor.token, json: { ...body(`Take ${index}`), slug: 'taken' } })),
      );
      const statuses = replies.map((reply) => reply.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409]);
      const winner = replies.find((reply) => reply.status === 201)?.body;
      expect(winner.slug).toBe('taken');
      for (const reply of replies.filter((candidate) => candidate.status === 409)) {
        expect(reply.body).toEqual({ code: 'slug-exists', message: `Another ${kind} uses that slug in this language.`, data: { status: 409, id: winner.id } });
      }
    });
  });

  it(`keeps the event count of a category exact through ${CONCURRENT} simultaneous creates in it and as many moves out`, async () => {
    const category = await t.request('POST', `${BASE}/categories`, { token: editor.token, json: { name: 'Busy' } });
    const other = await t.request('POST', `${BASE}/categories`, { token: editor.token, json: { name: 'Quiet' } });
    const created = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, index) =>
        t.request('POST', `${BASE}/events`, { token: editor.token, json: { title: `Busy ${index}`, start_date: '2030-05-01 19:00', end_date: '2030-05-01 21:00', categories: [category.body.id] } }),
      ),
    );
    expect(created.map((reply) => reply.status)).toEqual(Array(CONCURRENT).fill(201));
    const count = async (id: number) => (await t.request('GET', `${BASE}/categories/${id}`)).body.count;
    expect(await count(category.body.id)).toBe(CONCURRENT);
    const moved = await Promise.all(
      created.slice(0, CONCURRENT / 2).map((reply) => t.request('POST', `${BASE}/events/${reply.body.id}`, { token: editor.token, json: { categories: [other.body.id] } })),
    );
    const trashed = await Promise.all(created.slice(CONCURRENT / 2).map((reply) => t.request('DELETE', `${BASE}/events/${reply.body.id}`, { token: editor.token })));
    expect([...moved, ...trashed].map((reply) => reply.status)).toEqual(Array(CONCURRENT).fill(200));
    expect([await count(category.body.id), await count(other.body.id)]).toEqual([0, CONCURRENT / 2]);
  });

  it('runs a write again whole when the database ended its transaction midway, keeping nothing of the lost attempt', async () => {
    let attempts = 0;
    const result = await t.get(TransactionRunner).run(async (manager) => {
      attempts += 1;
      await manager.query(`INSERT INTO users (login, role, created_at) VALUES (?, 'author', '2030-01-01 00:00:00')`, [`lost-${attempts}`]);
      // What a Galera node does to a transaction that holds what a replicated write needs, the error that says so
      // not reaching the write: the statements that follow would each commit alone.
      if (attempts === 1) await manager.query('ROLLBACK');
      return `attempt ${attempts}`;
    });
    const kept = await t.get(DataSource).query(`SELECT login FROM users WHERE login LIKE 'lost-%'`);
    const created = await t.request('POST', `${BASE}/events`, { token: editor.token, json: KINDS[0].body('After the lost one') });
    expect([result, kept, created.status]).toEqual(['attempt 2', [{ login: 'lost-2' }], 201]);
  });
});
