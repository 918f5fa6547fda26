import { createHash } from 'node:crypto';
import { startTestApp, TestApp } from './support/test-app';

/*
 * Safe retries (SPEC §15): a create sent again with its `Idempotency-Key` answers the first answer again and writes
 * nothing more, whatever happened to the first connection.
 */

const NS = '/wp-json/calendar/events/v1';
const CREATES: [string, Record<string, unknown>][] = [
  ['events', { title: 'Open air', start_date: '2030-05-01 19:00', end_date: '2030-05-01 21:00' }],
  ['venues', { venue: 'Open hall' }],
  ['organizers', { organizer: 'Open crew' }],
  ['categories', { name: 'Open music' }],
  ['tags', { name: 'open' }],
];

describe('Idempotency-Key on creates (SPEC §15)', () => {
  let t: TestApp;
  let editor: { id: number; token: string };
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = await t.user('editor');
  });

  const post = (path: string, json: Record<string, unknown>, key?: string, token = editor.token) =>
    t.request('POST', `${NS}/${path}`, { token, json, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const FILTERS: Record<string, string> = { events: 'start_date=2000-01-01&end_date=2100-01-01', venues: 'status=publish,draft', organizers: 'status=publish,draft', categories: 'hide_empty=false', tags: 'hide_empty=false' };
  const total = async (path: string) => (await t.request('GET', `${NS}/${path}?per_page=100&${FILTERS[path]}`, { token: editor.token })).body.total;

  it.each(CREATES)('answers a repeated create of %s with its first answer, and creates one record', async (path, body) => {
    const first = await post(path, body, 'create-1');
    const again = await post(path, body, 'create-1');
    expect([first.status, again.status, again.body, again.headers['location']]).toEqual([201, 201, first.body, first.headers['location']]);
    expect(await total(path)).toBe(1);
    // Under another key the same request is a new create: another record, or for a term the clash of its name.
    const other = await post(path, body, 'create-2');
    expect([other.status, other.body.id === first.body.id, other.body.code]).toEqual(['categories', 'tags'].includes(path) ? [409, false, 'term-exists'] : [201, false, undefined]);
  });

  it('refuses a used key with another request (422), a key of the wrong form (400), and keeps keys per caller', async () => {
    const first = await post('venues', { venue: 'Hall A' }, 'key-a');
    expect(first.status).toBe(201);
    const reused = await post('venues', { venue: 'Hall B' }, 'key-a');
    expect([reused.status, reused.body]).toEqual([
      422,
      { code: 'idempotency-key-reused', message: 'This Idempotency-Key was used for another request; use a new key for a new request.', data: { status: 422 } },
    ]);
    for (const bad of ['', 'x'.repeat(256), 'with space']) {
      const reply = await post('venues', { venue: 'Hall C' }, bad);
      expect([reply.status, reply.body.data?.params]).toEqual([400, { 'Idempotency-Key': 'must be 1 to 255 visible ASCII characters' }]);
    }
    // The same key is another caller's own.
    const author = await t.user('author', 'second-author');
    const theirs = await post('venues', { venue: 'Hall A' }, 'key-a', author.token);
    expect([theirs.status, theirs.body.id === first.body.id]).toEqual([201, false]);
    expect(await total('venues')).toBe(2);
  });

  it('frees the key of a create that failed, so that the corrected request may use it', async () => {
    const refused = await post('events', { title: 'No dates' }, 'fix-me');
    expect([refused.status, refused.body.code]).toEqual([400, 'rest_missing_callback_param']);
    const fixed = await post('events', { title: 'With dates', start_date: '2030-06-01 10:00', end_date: '2030-06-01 11:00' }, 'fix-me');
    expect(fixed.status).toBe(201);
    expect(await total('events')).toBe(1);
  });

  it('answers a key whose create was made but whose answer was lost from the record, and gives up a claim cut off', async () => {
    const made = await post('venues', { venue: 'Lost answer' }, 'lost');
    expect(made.status).toBe(201);
    // As if the process had stopped between the create's commit and the answer: the key holds the record only.
    await t.dataSource.query(`UPDATE idempotency_keys SET state = 'committed', status = NULL, body = NULL, location = NULL WHERE idem_key = 'lost'`);
    const again = await post('venues', { venue: 'Lost answer' }, 'lost');
    expect([again.status, again.body, again.headers['location']]).toEqual([201, made.body, made.headers['location']]);
    // A claim still running after ten seconds belongs to a request that was cut off before its write: given up.
    const sqlTime = new Date(Date.now() - 60_000).toISOString().replace('T', ' ').slice(0, 19);
    const fingerprint = createHash('sha256').update(`POST ${NS}/venues\n{"venue":"After a cut"}`).digest('hex');
    await t.dataSource.query(`INSERT INTO idempotency_keys (caller_id, idem_key, fingerprint, state, created_at) VALUES (?, 'cut', ?, 'running', ?)`, [editor.id, fingerprint, sqlTime]);
    const retried = await post('venues', { venue: 'After a cut' }, 'cut');
    expect([retried.status, retried.body.venue]).toEqual([201, 'After a cut']);
    expect(await total('venues')).toBe(2);
  });

  it('lets one of simultaneous requests with one key create, and answers the others 409 or the first answer', async () => {
    const body = { title: 'Rush', start_date: '2030-07-01 10:00', end_date: '2030-07-01 11:00' };
    const replies = await Promise.all(Array.from({ length: 8 }, () => post('events', body, 'rush')));
    const created = replies.filter((reply) => reply.status === 201);
    const waiting = replies.filter((reply) => reply.status === 409);
    expect(created.length + waiting.length).toBe(8);
    expect(new Set(created.map((reply) => reply.body.id)).size).toBe(1);
    expect(waiting.every((reply) => reply.body.code === 'idempotency-key-in-flight' && reply.headers['retry-after'] === '1')).toBe(true);
    expect(await total('events')).toBe(1);
    const later = await post('events', body, 'rush');
    expect([later.status, later.body.id]).toEqual([201, created[0].body.id]);
  });
});
