import { randomUUID } from 'node:crypto';
import { REDIS_URL, Reply, startTestApp, startTwoInstances, TestApp } from './support/test-app';

/*
 * Rate limits (SPEC §18): per client address for anonymous callers, per user for the others; 429
 * `rest_rate_limited` with Retry-After past a limit, and the IETF RateLimit-Policy / RateLimit headers on every
 * answer under one; per instance, or shared by every instance through Redis.
 */

const NS = '/wp-json/calendar/events/v1';

/** What the RateLimit header says is left, and in how many seconds the window ends. */
function left(reply: Reply, policy: string): { remaining: number; seconds: number } {
  const match = new RegExp(`^"${policy}";r=(\\d+);t=(\\d+)$`).exec(String(reply.headers['ratelimit']));
  if (!match) throw new Error(`RateLimit header not as expected: ${reply.headers['ratelimit']}`);
  const seconds = Number(match[2]);
  // A window is a minute long.
  expect(seconds >= 1 && seconds <= 60).toBe(true);
  return { remaining: Number(match[1]), seconds };
}

function refused(reply: Reply, policy: string, quota: number): void {
  const { remaining, seconds } = left(reply, policy);
  expect([reply.status, reply.body, remaining, reply.headers['retry-after'], reply.headers['ratelimit-policy']]).toEqual([
    429,
    { code: 'rest_rate_limited', message: `Too many requests: the ${policy} limit is ${quota} a minute; try again in ${seconds} seconds.`, data: { status: 429 } },
    0,
    String(seconds),
    `"${policy}";q=${quota};w=60`,
  ]);
}

describe('Rate limits (SPEC §18)', () => {
  describe('with both limits set, per instance', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ RATE_LIMIT_ANONYMOUS: '3', RATE_LIMIT_USER: '4' });
    });
    afterAll(() => t.close());

    it('counts anonymous requests per address, cached answers included, and refuses the one past the limit', async () => {
      const remaining: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const read = await t.request('GET', `${NS}/categories`, { headers: { 'x-forwarded-for': '198.51.100.1' } });
        expect([read.status, read.headers['ratelimit-policy']]).toEqual([200, '"anonymous";q=3;w=60']);
        remaining.push(left(read, 'anonymous').remaining);
      }
      expect(remaining).toEqual([2, 1, 0]);
      refused(await t.request('GET', `${NS}/categories`), 'anonymous', 3);
      // Credentials that are not valid count as anonymous: the limit comes before their 401.
      refused(await t.request('GET', `${NS}/categories`, { token: 'not-a-token' }), 'anonymous', 3);
      // Probes and scrapers are never limited.
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        const probe = await t.request('GET', path);
        expect([probe.status, probe.headers['ratelimit'], probe.headers['ratelimit-policy']]).toEqual([200, undefined, undefined]);
      }
    });

    it('counts a user on their own limit, whatever their address or token', async () => {
      const editor = await t.user('editor');
      const first = await t.request('GET', `${NS}/events`, { token: editor.token });
      expect([first.status, first.headers['ratelimit-policy'], left(first, 'user').remaining]).toEqual([200, '"user";q=4;w=60', 3]);
      const created = await t.request('POST', `${NS}/tags`, { token: editor.token, json: { name: 'limited' } });
      expect([created.status, left(created, 'user').remaining]).toEqual([201, 2]);
      const other = await t.request('GET', `${NS}/tags`, { token: editor.token });
      expect([other.status, left(other, 'user').remaining]).toEqual([200, 1]);
      const last = await t.request('GET', `${NS}/tags`, { token: editor.token });
      expect([last.status, left(last, 'user').remaining]).toEqual([200, 0]);
      refused(await t.request('POST', `${NS}/tags`, { token: editor.token, json: { name: 'refused' } }), 'user', 4);
      // Nothing was written by the refused create.
      expect(Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM term_translations WHERE name = 'refused'`))[0].n)).toBe(0);
      // Another user has a limit of their own.
      const author = await t.user('author');
      const theirs = await t.request('GET', `${NS}/events`, { token: author.token });
      expect([theirs.status, left(theirs, 'user').remaining]).toEqual([200, 3]);
    });
  });

  it('takes the client address from X-Forwarded-For only from the proxies TRUST_PROXY names', async () => {
    const trusting = await startTestApp({ RATE_LIMIT_ANONYMOUS: '2', TRUST_PROXY: '127.0.0.1' });
    const trustingNone = await startTestApp({ RATE_LIMIT_ANONYMOUS: '2' });
    try {
      const from = (app: TestApp, address: string) => app.request('GET', `${NS}/tags`, { headers: { 'x-forwarded-for': address } });
      // Behind a trusted proxy, each client address is counted apart.
      for (const app of [trusting]) {
        expect(left(await from(app, '203.0.113.1'), 'anonymous').remaining).toBe(1);
        expect(left(await from(app, '203.0.113.1'), 'anonymous').remaining).toBe(0);
        refused(await from(app, '203.0.113.1'), 'anonymous', 2);
        expect(left(await from(app, '203.0.113.2'), 'anonymous').remaining).toBe(1);
      }
      // Without TRUST_PROXY the header is the client's own say: the connection's address is counted.
      expect(left(await from(trustingNone, '203.0.113.1'), 'anonymous').remaining).toBe(1);
      expect(left(await from(trustingNone, '203.0.113.2'), 'anonymous').remaining).toBe(0);
      refused(await from(trustingNone, '203.0.113.3'), 'anonymous', 2);
    } finally {
      await trusting.close();
      await trustingNone.close();
    }
  });

  it('limits nobody when no limit is set, and only anonymous callers when only theirs is', async () => {
    const open = await startTestApp();
    const anonymousOnly = await startTestApp({ RATE_LIMIT_ANONYMOUS: '1' });
    try {
      const plain = await open.request('GET', `${NS}/tags`);
      expect([plain.status, plain.headers['ratelimit'], plain.headers['ratelimit-policy']]).toEqual([200, undefined, undefined]);
      const editor = await anonymousOnly.user('editor');
      for (let i = 0; i < 3; i += 1) {
        const read = await anonymousOnly.request('GET', `${NS}/tags`, { token: editor.token });
        expect([read.status, read.headers['ratelimit']]).toEqual([200, undefined]);
      }
      expect((await anonymousOnly.request('GET', `${NS}/tags`)).status).toBe(200);
      refused(await anonymousOnly.request('GET', `${NS}/tags`), 'anonymous', 1);
    } finally {
      await open.close();
      await anonymousOnly.close();
    }
  });
});

describe('Rate limits of two instances (SPEC §18)', () => {
  it('counts per instance without REDIS_URL', async () => {
    const { a, b, close } = await startTwoInstances({ RATE_LIMIT_ANONYMOUS: '2' });
    try {
      for (const app of [a, b]) {
        expect(left(await app.request('GET', `${NS}/tags`), 'anonymous').remaining).toBe(1);
        expect(left(await app.request('GET', `${NS}/tags`), 'anonymous').remaining).toBe(0);
        refused(await app.request('GET', `${NS}/tags`), 'anonymous', 2);
      }
    } finally {
      await close();
    }
  });

  // Shared counters need a Redis; the run's configuration says whether one answers (REQUIRE_REDIS=1 in CI).
  if (REDIS_URL !== null) {
    it('shares the counters of every instance through Redis', async () => {
      const { a, b, close } = await startTwoInstances({ RATE_LIMIT_ANONYMOUS: '3', RATE_LIMIT_USER: '2', REDIS_URL: REDIS_URL as string });
      try {
        expect(left(await a.request('GET', `${NS}/tags`), 'anonymous').remaining).toBe(2);
        expect(left(await b.request('GET', `${NS}/tags`), 'anonymous').remaining).toBe(1);
        expect(left(await a.request('GET', `${NS}/tags`), 'anonymous').remaining).toBe(0);
        refused(await b.request('GET', `${NS}/tags`), 'anonymous', 3);
        refused(await a.request('GET', `${NS}/tags`), 'anonymous', 3);
        // A user's requests through either instance count on one limit.
        const editor = await a.user('editor', `editor-${randomUUID()}`);
        expect(left(await b.request('GET', `${NS}/events`, { token: editor.token }), 'user').remaining).toBe(1);
        expect(left(await a.request('GET', `${NS}/events`, { token: editor.token }), 'user').remaining).toBe(0);
        refused(await b.request('GET', `${NS}/events`, { token: editor.token }), 'user', 2);
      } finally {
        await close();
      }
    });
  }
});
