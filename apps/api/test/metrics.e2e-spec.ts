import { ENGINE, startTestApp, TestApp } from './support/test-app';
import { Family, parsePrometheusText } from './support/prometheus';
import { Receiver } from './support/receiver';

/*
 * Metrics (SPEC §19): `GET /metrics` in Prometheus' text format, read here by a strict reader of that format.
 */

const NS = '/wp-json/calendar/events/v1';
const TOKEN = 'metrics-token-0123456789abcdef';
const API_ROUTE = `${NS}`;

type Families = Family[];

describe('GET /metrics (SPEC §19)', () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const scrape = async (): Promise<Families> => {
    const reply = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect([reply.status, reply.headers['content-type']]).toEqual([200, 'text/plain; version=0.0.4; charset=utf-8']);
    return parsePrometheusText(reply.text);
  };
  const family = (families: Families, name: string) => {
    const found = families.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no metric family ${name}`);
    return found;
  };
  const sample = (families: Families, name: string, labels: Record<string, string>) =>
    family(families, name).series.find((series) => Object.entries(labels).every(([key, value]) => series.labels[key] === value));

  it('asks for METRICS_TOKEN when it is set, whatever other credentials are sent', async () => {
    const unauthorized = {
      code: 'rest_forbidden',
      message: 'The metrics need Authorization: Bearer <METRICS_TOKEN>.',
      data: { status: 401 },
    };
    const editor = await t.user('editor');
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789abcd' }, { authorization: `Bearer ${editor.token}` }, { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }];
    for (const headers of attempts) {
      const reply = await t.request('GET', '/metrics', { headers });
      expect([reply.status, reply.body, reply.headers['www-authenticate']]).toEqual([401, unauthorized, 'Bearer realm="metrics"']);
    }
  });

  it('counts requests by route, method and status with their durations, and answers from each cache', async () => {
    await t.reset();
    const before = await scrape();
    const countOf = (families: Families, labels: Record<string, string>) => Number(sample(families, 'calendar_http_request_duration_seconds', labels)?.count ?? 0);
    const events = { route: `${API_ROUTE}/events`, method: 'GET', status: '200' };
    const missing = { route: `${API_ROUTE}/categories/:id`, method: 'GET', status: '404' };
    const unmatched = { route: 'unmatched', method: 'GET', status: '404' };
    const hits = (families: Families) => Number(sample(families, 'calendar_cache_hits_total', { cache: 'responses' })?.value ?? 0);
    const misses = (families: Families) => Number(sample(families, 'calendar_cache_misses_total', { cache: 'responses' })?.value ?? 0);
    // The same anonymous list three times: computed without asking the cache (a URL's first request), a miss
    // computed and kept, then served from the response cache.
    for (let i = 0; i < 3; i += 1) expect((await t.request('GET', `${NS}/events?start_date=2030-01-01`)).status).toBe(200);
    expect((await t.request('GET', `${NS}/categories/123456`)).status).toBe(404);
    expect((await t.request('GET', `${NS}/no-such-route`)).status).toBe(404);
    const after = await scrape();
    expect(family(after, 'calendar_http_request_duration_seconds').type).toBe('histogram');
    expect([countOf(after, events) - countOf(before, events), countOf(after, missing) - countOf(before, missing), countOf(after, unmatched) - countOf(before, unmatched)]).toEqual([3, 1, 1]);
    expect([hits(after) - hits(before), misses(after) - misses(before)]).toEqual([1, 1]);
    // What each cache holds and may hold, in its unit: the embedded records and the answers by bytes, totals by entries.
    const held = (cache: string, unit: string, of: string) => sample(after, 'calendar_cache_used', { cache, unit, of })?.value;
    expect([held('embedded records', 'bytes', 'capacity'), held('kept totals', 'entries', 'capacity')]).toEqual([64 * 1024 * 1024, 10_000]);
    expect(held('responses', 'bytes', 'used')).toBeGreaterThan(0);
    // Every bucket of a histogram counts what is at most its bound: the last one (+Inf) is the count.
    const histogram = sample(after, 'calendar_http_request_duration_seconds', events);
    expect(histogram?.buckets?.get(Infinity)).toBe(histogram?.count);
    expect(histogram?.sum).toBeGreaterThan(0);
  });

  it('reports the database: query durations, the pool, and retried writes', async () => {
    const families = await scrape();
    const queries = family(families, 'calendar_db_query_duration_seconds');
    expect(queries.type).toBe('histogram');
    expect(sample(families, 'calendar_db_query_duration_seconds', { outcome: 'ok' })?.count).toBeGreaterThan(0);
    const pool: Record<string, number> = Object.fromEntries(family(families, 'calendar_db_pool_connections').series.map((series) => [series.labels['state'], series.value as number]));
    expect(Object.keys(pool).sort()).toEqual(['idle', 'in_use', 'limit']);
    expect(pool['limit']).toBe(ENGINE === 'mysql' ? 20 : 1);
    expect(pool['in_use'] + pool['idle']).toBeLessThanOrEqual(pool['limit']);
    expect(family(families, 'calendar_db_pool_waiting').series).toEqual([{ labels: {}, value: 0 }]);
    expect(family(families, 'calendar_db_write_retries_total').type).toBe('counter');
    // The process itself (prom-client's default metrics, under the same prefix).
    expect(family(families, 'calendar_process_resident_memory_bytes').series[0].value).toBeGreaterThan(0);
  });

  it('counts sync pages by kind and mode', async () => {
    const syncs = (families: Families, labels: Record<string, string>) => Number(sample(families, 'calendar_sync_requests_total', labels)?.value ?? 0);
    const before = await scrape();
    const full = await t.request('GET', `${NS}/venues/sync`);
    expect(full.status).toBe(200);
    expect((await t.request('GET', `${NS}/venues/sync?sync_token=${encodeURIComponent(full.body.sync_token)}`)).status).toBe(200);
    expect((await t.request('GET', `${NS}/tags/sync`)).status).toBe(200);
    const after = await scrape();
    expect([
      syncs(after, { kind: 'venue', mode: 'full' }) - syncs(before, { kind: 'venue', mode: 'full' }),
      syncs(after, { kind: 'venue', mode: 'changes' }) - syncs(before, { kind: 'venue', mode: 'changes' }),
      syncs(after, { kind: 'tag', mode: 'full' }) - syncs(before, { kind: 'tag', mode: 'full' }),
    ]).toEqual([1, 1, 1]);
  });

  it('reports the webhook queue and the deliveries by outcome', async () => {
    await t.reset();
    const admin = await t.user('administrator');
    const deliveries = (families: Families, outcome: string) => Number(sample(families, 'calendar_webhook_deliveries_total', { outcome })?.value ?? 0);
    const depth = (families: Families) => family(families, 'calendar_webhook_queue_depth').series.map((series) => [series.labels['endpoint'], series.value]);
    const before = await scrape();
    expect(depth(before)).toEqual([
      ['enabled', 0],
      ['disabled', 0],
    ]);
    // The receiver fails the first attempt, then accepts the retry.
    receiver.answer(500);
    const hook = await t.request('POST', `${NS}/webhooks`, { token: admin.token, json: { url: receiver.url, types: ['tag.created'] } });
    expect(hook.status).toBe(201);
    expect((await t.request('POST', `${NS}/tags`, { token: admin.token, json: { name: 'measured' } })).status).toBe(201);
    await receiver.waitFor(1);
    let after = await scrape();
    for (let waited = 0; deliveries(after, 'failed') === deliveries(before, 'failed') && waited < 5000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await scrape();
    }
    expect([deliveries(after, 'failed') - deliveries(before, 'failed'), deliveries(after, 'delivered') - deliveries(before, 'delivered')]).toEqual([1, 0]);
    // Waiting for its retry (five seconds on), to an enabled endpoint.
    expect(depth(after)).toEqual([
      ['enabled', 1],
      ['disabled', 0],
    ]);
  });
});

describe('the reader of the Prometheus text format these tests use', () => {
  it('reads families, labels with escapes, and histograms by their labels', () => {
    const families = parsePrometheusText(
      [
        '# HELP a_total Things, with a \\\\ backslash',
        '# TYPE a_total counter',
        'a_total{path="/x\\"y\\n",code="200"} 3',
        '# TYPE h histogram',
        'h_bucket{le="0.1",route="/a"} 1',
        'h_bucket{le="+Inf",route="/a"} 2',
        'h_sum{route="/a"} 0.5',
        'h_count{route="/a"} 2',
        'h_bucket{route="/b",le="+Inf"} 0',
        'h_sum{route="/b"} 0',
        'h_count{route="/b"} 0',
        '',
      ].join('\n'),
    );
    expect(families.map((family) => [family.name, family.type, family.help])).toEqual([
      ['a_total', 'counter', 'Things, with a \\ backslash'],
      ['h', 'histogram', ''],
    ]);
    expect(families[0].series).toEqual([{ labels: { path: '/x"y\n', code: '200' }, value: 3 }]);
    expect(families[1].series.map((series) => [series.labels, series.count, series.sum, [...(series.buckets ?? new Map()).entries()]])).toEqual([
      [{ route: '/a' }, 2, 0.5, [[0.1, 1], [Infinity, 2]]],
      [{ route: '/b' }, 0, 0, [[Infinity, 0]]],
    ]);
  });

  it.each([
    ['a sample of no typed family', 'x 1\n', 'a sample before any family'],
    ['a bad value', '# TYPE x gauge\nx one\n', 'not a number'],
    ['an unterminated label', '# TYPE x gauge\nx{a="1} 1\n', 'unterminated label value'],
    ['a series twice', '# TYPE x gauge\nx 1\nx 2\n', 'series twice'],
    ['buckets that go down', '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n', 'not cumulative'],
    ['a histogram without +Inf', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n', 'lacks its +Inf bucket'],
    ['a count other than +Inf', '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 1\n', 'differs from _count'],
    ['no final line feed', '# TYPE x gauge\nx 1', 'does not end with a line feed'],
  ])('refuses %s', (_name, text, problem) => {
    expect(() => parsePrometheusText(text)).toThrow(problem);
  });
});
