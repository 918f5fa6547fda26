import fc from 'fast-check';
import { startTestApp, TestApp, THROUGH_PRISM } from './support/test-app';

/*
 * Property: no input costs a 5xx. Random hostile values go to every route and method of the namespace index,
 * as query strings, JSON bodies, malformed JSON and form bodies, with and without credentials; every answer
 * is below 500, every 4xx is in the error envelope of SPEC §3.1, and the service still answers afterwards.
 * FUZZ_RUNS raises the number of requests (default 1,000 per engine).
 */

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 1000);
const ROOT = '/wp-json';

const scalar = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1.5',
    '1e309',
    '9'.repeat(400),
    '-9007199254740993',
    'NaN',
    'Infinity',
    'null',
    'undefined',
    'true',
    'yes',
    'now',
    'next wednesday 4pm',
    '2030-13-45 25:61',
    '0000-00-00 00:00:00',
    '2030-02-30',
    'Mars/Base',
    'UTC+99',
    'UTC-12:99',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '\u202e\u0007\u001b[31m',
    '\ud800',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    'javascript:alert(1)',
    'http://',
    'a@',
    '1,2,,x,-3',
    '__proto__',
    'constructor',
    'x'.repeat(70_000),
    '音'.repeat(25_000),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt().map((value) => value.toString()),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

interface RouteInfo {
  route: string;
  methods: string[];
  args: string[];
}

/** A query string or form body of any value: lists as repeated keys, objects as `name[key]=`. */
function encode(params: Record<string, unknown>): string {
  const pairs: string[] = [];
  // Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, where encodeURIComponent would throw).
  const escape = (text: string) => Buffer.from(text).toString('hex').replace(/../g, '%$&');
  const add = (key: string, item: unknown) => pairs.push(`${escape(key)}=${escape(typeof item === 'string' ? item : JSON.stringify(item) ?? '')}`);
  for (const [key, item] of Object.entries(params)) {
    if (Array.isArray(item)) item.forEach((entry) => add(`${key}[]`, entry));
    else if (item !== null && typeof item === 'object') for (const [inner, entry] of Object.entries(item)) add(`${key}[${inner}]`, entry);
    else add(key, item);
  }
  return pairs.join('&');
}

describe('hostile input (no 5xx, every error in the envelope)', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  let tokens: (string | undefined)[];
  beforeAll(async () => {
    t = await startTestApp();
    const admin = await t.user('administrator');
    const contributor = await t.user('contributor');
    tokens = [undefined, admin.token, contributor.token, 'not-a-token'];
    // One record of each kind, so that some ids and slugs name something.
    for (const [path, body] of [
      ['venues', { venue: 'Hall' }],
      ['organizers', { organizer: 'Acme' }],
      ['categories', { name: 'Music' }],
      ['tags', { name: 'Loud' }],
      ['events', { title: 'Gig', start_date: '2030-01-01 19:00', end_date: '2030-01-01 21:00', venue: 1, organizer: 1, categories: 'Music' }],
    ] as const) {
      expect((await t.request('POST', `${ROOT}/calendar/events/v1/${path}`, { token: admin.token, json: body })).status).toBe(201);
    }
    const index = await t.request('GET', `${ROOT}/calendar/events/v1`);
    routes = Object.entries(index.body.routes as Record<string, { methods: string[]; endpoints: { args: Record<string, unknown> }[] }>).map(([route, info]) => ({
      route,
      methods: info.methods,
      args: [...new Set(info.endpoints.flatMap((endpoint) => Object.keys(endpoint.args)))],
    }));
    expect(routes.length).toBeGreaterThanOrEqual(16);
  });
  afterAll(() => t.close());

  it('answers random hostile requests to every route below 500, in the envelope', async () => {
    const request = fc.record({
      route: fc.nat(),
      method: fc.nat(),
      where: fc.constantFrom('query', 'json', 'form', 'malformed-json'),
      token: fc.nat(),
      id: fc.oneof(fc.constantFrom('1', '2', '3', '0', '99999999999999999999999'), fc.nat().map(String)),
      slug: fc.oneof(fc.constantFrom('gig', 'hall', '%2F', '..', '%00', 'x'.repeat(3000)), fc.string({ maxLength: 20 }).map(encodeURIComponent)),
      picked: fc.array(fc.nat(), { maxLength: 6 }),
      values: fc.array(value, { minLength: 6, maxLength: 6 }),
      extra: fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'x[y]', ''), value, { maxKeys: 2 }),
      language: fc.constantFrom('', '/fr', '/zh-hans', '/xx'),
      rawQuery: fc.constantFrom('', '&%E0%A4%A=1', '&a=%ZZ', '&%=%', '&page[a][b][c][d]=1', '&per_page[]=1&per_page=2', '&&&=&', '&page=1&page=2'),
      malformed: fc.constantFrom('{', '{"title":', '[1,2', '{"a":1}}', '\u0000', 'null', '"text"', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"x":1}}}'),
    });
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const target = routes[input.route % routes.length];
        const method = target.methods[input.method % target.methods.length];
        const path = target.route.replace('(?P<id>\\d+)', input.id).replace('(?P<slug>[^/]+)', input.slug || 'x');
        const params: Record<string, unknown> = {};
        input.picked.forEach((pick, position) => {
          if (target.args.length > 0) params[target.args[pick % target.args.length]] = input.values[position];
        });
        for (const [key, item] of Object.entries(input.extra)) Object.defineProperty(params, key, { value: item, enumerable: true });
        const token = tokens[input.token % tokens.length];
        let url = `${input.language}${ROOT}${path}`;
        const options: Parameters<TestApp['request']>[2] = { token };
        if (input.where === 'query' || method === 'GET') url += `?${encode(params)}${input.rawQuery}`;
        else if (input.where === 'json') options.raw = { body: JSON.stringify(params) ?? '{}', type: 'application/json' };
        else if (input.where === 'form') options.raw = { body: encode(params), type: 'application/x-www-form-urlencoded' };
        else options.raw = { body: input.malformed, type: 'application/json' };

        const reply = await t.request(method, url, options);
        const shown = `${method} ${url.slice(0, 300)} ${String(options.raw?.body ?? '').slice(0, 300)}`;
        expect([shown, reply.status < 500]).toEqual([shown, true]);
        if (reply.status >= 400) {
          expect([shown, reply.body]).toEqual([shown, { code: expect.any(String), message: expect.any(String), data: expect.objectContaining({ status: reply.status }) }]);
        }
      }),
      // Through Prism the inputs are the same on every run: a random one that trips the proxy itself (it has stopped
      // answering on some bodies) must not fail a build; the injected projects keep drawing new ones every run.
      { numRuns: RUNS, ...(THROUGH_PRISM ? { seed: 20261123 } : {}) },
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const health = await t.request('GET', '/healthz');
    expect([health.status, health.body]).toEqual([200, { status: 'ok' }]);
    // The random writes may have changed or trashed anything; the service still lists what is there.
    const list = await t.request('GET', `${ROOT}/calendar/events/v1/venues?per_page=1`);
    expect([list.status, Object.keys(list.body).sort()]).toEqual([200, ['rest_url', 'total', 'total_pages', 'venues', ...(list.body.total > 1 ? ['next_rest_url'] : [])].sort()]);
  }, 240_000);
});
