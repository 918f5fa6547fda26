import { Clock } from '@calendar/shared/database';
import { WebhookWorker } from '@calendar/webhook';
import { Webhook } from 'standardwebhooks';
import { Receiver } from './support/receiver';
import { API, startTestApp, startTwoInstances, TestApp } from './support/test-app';

const NS = '/wp-json/calendar/events/v1';

describe('webhooks (SPEC §17)', () => {
  let t: TestApp;
  let admin: { id: number; token: string };
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await t.user('administrator');
    receiver = await new Receiver().start();
  });
  // Attempts still being recorded would land in the next case's emptied tables (as attempts of its message 1).
  afterEach(async () => {
    await t.get(WebhookWorker).settled();
    await receiver.close();
  });

  const send = (method: string, path: string, json?: Record<string, unknown>, token = admin.token) => t.request(method, `${NS}/${path}`, { token, json });
  const subscribe = async (body: Record<string, unknown> = {}) => {
    const reply = await send('POST', 'webhooks', { url: receiver.url, ...body });
    expect(reply.status).toBe(201);
    return reply.body as { id: number; secret: string };
  };
  const event = async (body: Record<string, unknown> = {}) => {
    const reply = await send('POST', 'events', { title: 'Gig', start_date: '2030-04-01 20:00', end_date: '2030-04-01 22:00', ...body });
    expect(reply.status).toBe(201);
    return reply.body as { id: number };
  };
  const clock = () => t.get(Clock);
  /** Moves the service's clock on by `ms` more (kept until the test ends) and runs one delivery pass. */
  const later = async (ms: number) => {
    const base = clock().now();
    clock().now = () => new Date(base.getTime() + ms);
    await t.get(WebhookWorker).tick();
  };
  afterEach(() => {
    clock().now = () => new Date();
  });
  /** Waits until the endpoint's log holds `count` attempts in all (an attempt is logged after its answer came). */
  const logged = async (hook: number, count: number) => {
    for (let waited = 0; ; waited += 20) {
      const log = await send('GET', `webhooks/${hook}/deliveries?per_page=100`);
      if (log.body.deliveries.reduce((sum: number, delivery: { attempts: unknown[] }) => sum + delivery.attempts.length, 0) >= count) return;
      if (waited > 10_000) throw new Error(`the log does not hold ${count} attempts`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('is for administrators only: 401 anonymous, 403 for others', async () => {
    const editor = await t.user('editor');
    expect((await t.request('GET', `${NS}/webhooks`)).status).toBe(401);
    const forbidden = await send('POST', 'webhooks', { url: receiver.url }, editor.token);
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'rest_forbidden']);
  });

  it('creates an endpoint with a secret shown once, lists, updates and deletes it', async () => {
    const created = await send('POST', 'webhooks', { url: receiver.url, types: ['event.*', 'venue.deleted'], description: 'Site rebuild' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: 1,
      url: receiver.url,
      types: ['event.*', 'venue.deleted'],
      description: 'Site rebuild',
      enabled: true,
      disabled_reason: null,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      rest_url: `${API}/webhooks/1`,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const read = await send('GET', 'webhooks/1');
    expect(read.body).toEqual({ ...created.body, secret: undefined });
    expect(Object.keys(read.body)).not.toContain('secret');
    const list = await send('GET', 'webhooks');
    expect([list.status, list.headers['x-wp-total'], list.body.webhooks.map((hook: { id: number }) => hook.id)]).toEqual([200, '1', [1]]);
    const disabled = await send('PATCH', 'webhooks/1', { enabled: false, description: '' });
    expect(disabled.body).toMatchObject({ enabled: false, disabled_reason: 'manual', description: '' });
    const rotated = await send('PATCH', 'webhooks/1', { rotate_secret: true });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await send('DELETE', 'webhooks/1')).status).toBe(200);
    expect((await send('GET', 'webhooks/1')).body).toEqual({ code: 'rest-webhook-not-found', message: 'The webhook does not exist.', data: { status: 404 } });
  });

  it('refuses URLs that are not absolute http(s), and types it does not know, naming them', async () => {
    const reply = await send('POST', 'webhooks', { url: 'ftp://example.org/x' });
    expect(reply.body).toEqual({ code: 'rest_invalid_param', message: 'Invalid parameter(s): url', data: { status: 400, params: { url: 'must be an absolute http or https URL' } } });
    const types = await send('POST', 'webhooks', { url: receiver.url, types: ['event.moved'] });
    expect([types.status, Object.keys(types.body.data.params)]).toEqual([400, ['types']]);
    expect((await send('GET', 'webhooks')).headers['x-wp-total']).toBe('0');
  });

  it('delivers every change as a signed Standard Webhooks message, with the record as an administrator reads it', async () => {
    const { secret } = await subscribe();
    const { id } = await event({ title: 'Signed gig' });
    await receiver.waitFor(1);
    const [request] = receiver.received;
    const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    const asRead = await send('GET', `events/${id}`);
    expect(verified).toEqual({
      type: 'event.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { id, kind: 'event', rest_url: `${API}/events/${id}`, object: asRead.body },
    });
    expect(request.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{24}$/);
    expect(request.headers['content-type']).toBe('application/json');

    // A trash is `deleted`, a restore `updated`; a venue, a category. A body is made at its first attempt (the record
    // as it is then), so the trash's message is awaited before the restore: sent after it, it would show the event
    // published again.
    expect((await send('DELETE', `events/${id}`)).status).toBe(200);
    await receiver.waitFor(2);
    expect((await send('POST', `events/${id}`, { status: 'publish' })).status).toBe(200);
    expect((await send('POST', 'venues', { venue: 'Hall' })).status).toBe(201);
    expect((await send('POST', 'categories', { name: 'Jazz' })).status).toBe(201);
    await receiver.waitFor(5);
    // In the order of the writes for one record; different records go in parallel.
    const bodies = receiver.bodies();
    expect(bodies.filter((body) => body.data.kind === 'event').map((body) => body.type)).toEqual(['event.created', 'event.deleted', 'event.updated']);
    expect(bodies.map((body) => `${body.type} ${body.data.kind}`).sort()).toEqual(['category.created category', 'event.created event', 'event.deleted event', 'event.updated event', 'venue.created venue']);
    expect(bodies.find((body) => body.type === 'event.deleted')?.data.object).toMatchObject({ id, status: 'trash' });
  });

  it('sends every type of message: created, updated and deleted of each kind', async () => {
    await subscribe({ types: ['venue.*', 'organizer.*', 'category.*', 'tag.*'] });
    const ids: Record<string, number> = {};
    for (const [kind, path, field] of [['venue', 'venues', 'venue'], ['organizer', 'organizers', 'organizer'], ['category', 'categories', 'name'], ['tag', 'tags', 'name']]) {
      const created = await send('POST', path, { [field]: `A ${kind}` });
      expect(created.status).toBe(201);
      ids[kind] = created.body.id;
      expect((await send('POST', `${path}/${created.body.id}`, { description: 'Changed' })).status).toBe(200);
      expect((await send('DELETE', `${path}/${created.body.id}`)).status).toBe(200);
    }
    await receiver.waitFor(12);
    const byRecord = (kind: string) => receiver.bodies().filter((body) => body.data.kind === kind).map((body) => `${body.type} ${body.data.id}`);
    for (const kind of ['venue', 'organizer', 'category', 'tag']) {
      expect(byRecord(kind)).toEqual(['created', 'updated', 'deleted'].map((verb) => `${kind}.${verb} ${ids[kind]}`));
    }
    // Terms are deleted for good: their last message shows no object; venues and organizers go to the trash.
    const last = (kind: string) => receiver.bodies().filter((body) => body.data.kind === kind).at(-1)?.data.object;
    expect([last('category'), last('tag'), last('venue')?.['status'], last('organizer')?.['status']]).toEqual([null, null, 'trash', 'trash']);
  });

  it('waits for Retry-After when it is longer than the schedule’s next step', async () => {
    receiver.answer({ status: 429, headers: { 'retry-after': '60' } });
    const { id: hook } = await subscribe();
    await event();
    await receiver.waitFor(1);
    await logged(hook, 1);
    // The schedule's second attempt would be 5 s on; the receiver asked for 60.
    await later(30_000);
    expect(receiver.received.length).toBe(1);
    await later(31_000);
    await receiver.waitFor(2);
    expect(receiver.received.map((request) => request.status)).toEqual([429, 200]);
  });

  it('keeps trying a receiver that is down for a while, and delivers once it is back', async () => {
    const { id: hook } = await subscribe();
    const port = receiver.port;
    await receiver.close();
    await event({ title: 'While down' });
    await logged(hook, 1);
    const down = await send('GET', `webhooks/${hook}/deliveries`);
    expect(down.body.deliveries[0]).toMatchObject({ state: 'pending', attempts: [{ status: null, error: expect.any(String), response: null }] });
    receiver = await new Receiver().start(port);
    await later(7_000);
    await receiver.waitFor(1);
    expect(receiver.bodies().map((body) => body.data.object?.['title'])).toEqual(['While down']);
  });

  it('takes a redirect for a failure and does not follow it', async () => {
    receiver.answer({ status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' } });
    const { id: hook } = await subscribe();
    await event();
    await receiver.waitFor(1);
    await logged(hook, 1);
    const log = await send('GET', `webhooks/${hook}/deliveries`);
    expect(log.body.deliveries[0]).toMatchObject({ state: 'pending', attempts: [{ status: 302, error: 'redirect to http://127.0.0.1:9/elsewhere not followed' }] });
    expect(receiver.received.length).toBe(1);
  });

  it('sends only the types an endpoint subscribes to, and a message per occurrence of a series', async () => {
    await subscribe({ types: ['event.created'] });
    // Starting tomorrow: the series' occurrences are written with it (within its horizon).
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const head = await event({ title: 'Weekly', start_date: `${tomorrow} 20:00`, end_date: `${tomorrow} 22:00`, recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3' });
    expect((await send('POST', 'venues', { venue: 'Ignored' })).status).toBe(201);
    await receiver.waitFor(3);
    await t.get(WebhookWorker).tick();
    const created = receiver.bodies().map((body) => body.data.id);
    expect(receiver.bodies().every((body) => body.type === 'event.created')).toBe(true);
    expect(created).toContain(head.id);
    expect(new Set(created).size).toBe(created.length);
    expect(created.length).toBe(3);
  });

  it('retries on Standard Webhooks’ schedule with the same id, honours Retry-After, and logs every attempt', async () => {
    receiver.answer(500, { status: 503, headers: { 'retry-after': '120' } }, 200);
    const { id: hook } = await subscribe();
    const { id } = await event();
    await receiver.waitFor(1);
    await logged(hook, 1);
    // The second attempt 5 s (±20 %) after the first: not at 3 s, by 6.1 s.
    await later(3_000);
    expect(receiver.received.length).toBe(1);
    await later(3_100);
    await receiver.waitFor(2);
    await logged(hook, 2);
    // The third 5 minutes (±20 %) after the second: Retry-After's 120 s is sooner, so the schedule's delay holds.
    await later(130_000);
    expect(receiver.received.length).toBe(2);
    await later(240_000);
    await receiver.waitFor(3);
    const ids = receiver.received.map((request) => request.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    const log = await send('GET', `webhooks/${hook}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries).toEqual([
      {
        id: 1,
        message_id: ids[0],
        type: 'event.created',
        record: { kind: 'event', id },
        state: 'delivered',
        next_attempt_at: null,
        created: expect.any(String),
        attempts: [500, 503, 200].map((status) => ({ at: expect.any(String), status, duration_ms: expect.any(Number), error: status === 200 ? null : `HTTP ${status}`, response: `answer ${status}` })),
      },
    ]);
  });

  it('keeps the order of messages about one record: a later one waits while an earlier one is retried', async () => {
    receiver.answer(503);
    const { id: hook } = await subscribe();
    const { id } = await event({ title: 'First' });
    await receiver.waitFor(1);
    await logged(hook, 1);
    expect((await send('POST', `events/${id}`, { title: 'Second' })).status).toBe(200);
    const other = await event({ title: 'Other' });
    await receiver.waitFor(2);
    await t.get(WebhookWorker).tick();
    // The other record's message went out; the update waits behind the failed create.
    expect(receiver.bodies().map((body) => `${body.type} ${body.data.id}`)).toEqual([`event.created ${id}`, `event.created ${other.id}`]);
    await later(7_000);
    await receiver.waitFor(3);
    await t.get(WebhookWorker).tick();
    await receiver.waitFor(4);
    expect(receiver.bodies().map((body) => `${body.type} ${body.data.id}`)).toEqual([`event.created ${id}`, `event.created ${other.id}`, `event.created ${id}`, `event.updated ${id}`]);
  });

  it('disables an endpoint that answers 410, and sends it nothing more until it is enabled again', async () => {
    receiver.answer(410);
    const { id: hook } = await subscribe();
    await event({ title: 'Gone' });
    await receiver.waitFor(1);
    await logged(hook, 1);
    for (let waited = 0; (await send('GET', `webhooks/${hook}`)).body.enabled; waited += 20) {
      if (waited > 10_000) throw new Error('not disabled');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await send('GET', `webhooks/${hook}`)).body).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    await event({ title: 'Not sent' });
    await later(60_000);
    expect(receiver.received.length).toBe(1);
    expect((await send('PATCH', `webhooks/${hook}`, { enabled: true })).body).toMatchObject({ enabled: true, disabled_reason: null });
    // The message that met the 410 goes out again; the event written while it was disabled made none.
    await receiver.waitFor(2);
    expect(receiver.bodies().map((body) => body.data.object?.['title'])).toEqual(['Gone', 'Gone']);
  });

  it('signs with both keys for a day after a rotation, pings, and redelivers', async () => {
    const { id: hook, secret: old } = await subscribe();
    const rotated = await send('PATCH', `webhooks/${hook}`, { rotate_secret: true });
    const ping = await send('POST', `webhooks/${hook}/ping`);
    expect([ping.status, ping.body.type, ping.body.state]).toEqual([202, 'webhook.ping', 'pending']);
    await receiver.waitFor(1);
    const [request] = receiver.received;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [old, rotated.body.secret]) expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({ type: 'webhook.ping' });
    const again = await send('POST', `webhooks/${hook}/deliveries/${ping.body.id}/redeliver`);
    expect([again.status, again.body.message_id]).toEqual([202, ping.body.message_id]);
    await receiver.waitFor(2);
    expect(receiver.received[1].body).toBe(request.body);
    // A day later, the old key no longer signs.
    await later(86_400_000 + 1_000);
    await send('POST', `webhooks/${hook}/ping`);
    await t.get(WebhookWorker).tick();
    await receiver.waitFor(3);
    expect(String(receiver.received[2].headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect((await send('POST', `webhooks/${hook}/deliveries/999/redeliver`)).body.code).toBe('rest-delivery-not-found');
  });

  it('sends a message again when it is redelivered while an attempt of it is in flight', async () => {
    receiver.delayMs = 400;
    const { id: hook } = await subscribe();
    const ping = await send('POST', `webhooks/${hook}/ping`);
    // The request arrived; its answer is held back, so the attempt is not recorded yet.
    await receiver.waitFor(1);
    const again = await send('POST', `webhooks/${hook}/deliveries/${ping.body.id}/redeliver`);
    expect([again.status, again.body.state, again.body.attempts]).toEqual([202, 'pending', []]);
    await receiver.waitFor(2);
    await logged(hook, 2);
    const log = await send('GET', `webhooks/${hook}/deliveries`);
    expect(log.body.deliveries.map((delivery: { state: string; attempts: { status: number }[] }) => [delivery.state, delivery.attempts.map((attempt) => attempt.status)])).toEqual([
      ['delivered', [200, 200]],
    ]);
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([ping.body.message_id, ping.body.message_id]);
  });

  it('disables an endpoint whose every delivery failed for five days, and drops the log after thirty', async () => {
    receiver.answer(...Array(50).fill(500));
    const { id: hook } = await subscribe();
    await event({ title: 'Failing' });
    await receiver.waitFor(1);
    // The first attempt recorded (its failure starts the endpoint's run of failures) before time moves on.
    await logged(hook, 1);
    // Its retries fail on schedule; the one five days after the first failure disables the endpoint.
    await later(5 * 86_400_000 + 60_000);
    for (let waited = 0; (await send('GET', `webhooks/${hook}`)).body.enabled; waited += 20) {
      if (waited > 10_000) throw new Error('not disabled');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await send('GET', `webhooks/${hook}`)).body).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    const before = await send('GET', `webhooks/${hook}/deliveries`);
    expect(before.body.deliveries.map((delivery: { state: string; attempts: unknown[] }) => [delivery.state, delivery.attempts.length])).toEqual([['pending', 2]]);
    // Thirty days on, the attempts (and the messages that are over) are gone; the pending message stays.
    await later(31 * 86_400_000);
    const after = await send('GET', `webhooks/${hook}/deliveries`);
    expect(after.body.deliveries.map((delivery: { state: string; attempts: unknown[] }) => [delivery.state, delivery.attempts.length])).toEqual([['pending', 0]]);
  });

  it('refuses an endpoint on a loopback address unless WEBHOOK_ALLOW_PRIVATE is true', async () => {
    const strict = await startTestApp();
    try {
      const token = (await strict.user('administrator')).token;
      const reply = await strict.request('POST', `${NS}/webhooks`, { token, json: { url: receiver.url } });
      expect(reply.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): url',
        data: { status: 400, params: { url: 'resolves to 127.0.0.1, a loopback, private, link-local or unique-local address (WEBHOOK_ALLOW_PRIVATE=true allows it)' } },
      });
    } finally {
      await strict.close();
    }
  });
});

describe('webhooks delivered by two instances of one database (SPEC §17.3)', () => {
  it('makes each attempt of each message once, whichever instance writes or delivers', async () => {
    const { a, b, close } = await startTwoInstances({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    const receiver = await new Receiver().start();
    try {
      const token = (await a.user('administrator')).token;
      const hook = await a.request('POST', `${NS}/webhooks`, { token, json: { url: receiver.url } });
      expect(hook.status).toBe(201);
      const writes = await Promise.all(
        Array.from({ length: 30 }, (_, n) =>
          (n % 2 === 0 ? a : b).request('POST', `${NS}/events`, { token, json: { title: `Pair ${n}`, start_date: '2030-06-01 19:00', end_date: '2030-06-01 21:00' } }),
        ),
      );
      expect(writes.map((reply) => reply.status)).toEqual(Array(30).fill(201));
      await receiver.waitFor(30);
      // A moment more: a second attempt of any message would arrive now.
      await Promise.all([a.get(WebhookWorker).tick(), b.get(WebhookWorker).tick()]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const ids = receiver.received.map((request) => request.headers['webhook-id']);
      expect([ids.length, new Set(ids).size]).toEqual([30, 30]);
      expect(new Set(receiver.bodies().map((body) => body.data.id)).size).toBe(30);
    } finally {
      await receiver.close();
      await close();
    }
  });
});
