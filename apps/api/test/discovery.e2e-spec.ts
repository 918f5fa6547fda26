import SwaggerParser from '@apidevtools/swagger-parser';
import { checkSync } from 'recheck';
import { OpenApiCheck } from './support/openapi-check';
import { API, FR_API, ORIGIN, startTestApp, TestApp } from './support/test-app';

const NS_PATH = '/wp-json/calendar/events/v1';

describe('discovery: API root, namespace index, OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const ROUTE_KEYS = [
    '/calendar/events/v1',
    '/calendar/events/v1/doc',
    '/calendar/events/v1/doc/ui',
    '/calendar/events/v1/events',
    '/calendar/events/v1/events/sync',
    '/calendar/events/v1/events/(?P<id>\\d+)',
    '/calendar/events/v1/events/by-slug/(?P<slug>[^/]+)',
    '/calendar/events/v1/events/ics',
    '/calendar/events/v1/events/(?P<id>\\d+)/ics',
    '/calendar/events/v1/events/by-slug/(?P<slug>[^/]+)/ics',
    '/calendar/events/v1/venues',
    '/calendar/events/v1/venues/sync',
    '/calendar/events/v1/venues/(?P<id>\\d+)',
    '/calendar/events/v1/venues/by-slug/(?P<slug>[^/]+)',
    '/calendar/events/v1/organizers',
    '/calendar/events/v1/organizers/sync',
    '/calendar/events/v1/organizers/(?P<id>\\d+)',
    '/calendar/events/v1/organizers/by-slug/(?P<slug>[^/]+)',
    '/calendar/events/v1/categories',
    '/calendar/events/v1/categories/sync',
    '/calendar/events/v1/categories/(?P<id>\\d+)',
    '/calendar/events/v1/tags',
    '/calendar/events/v1/tags/sync',
    '/calendar/events/v1/tags/(?P<id>\\d+)',
    '/calendar/events/v1/webhooks',
    '/calendar/events/v1/webhooks/(?P<id>\\d+)',
    '/calendar/events/v1/webhooks/(?P<id>\\d+)/deliveries',
    '/calendar/events/v1/webhooks/(?P<id>\\d+)/deliveries/(?P<delivery_id>\\d+)/redeliver',
    '/calendar/events/v1/webhooks/(?P<id>\\d+)/ping',
  ];

  it('serves the REST root with the namespace and its routes', async () => {
    for (const path of ['/wp-json', '/wp-json/']) {
      const reply = await t.request('GET', path);
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body)).toEqual(['name', 'description', 'url', 'home', 'namespaces', 'routes']);
      expect(reply.body.name).toBe('Event Calendar Service');
      expect(reply.body.url).toBe(ORIGIN);
      expect(reply.body.home).toBe(ORIGIN);
      expect(reply.body.namespaces).toEqual(['calendar/events/v1']);
      expect(Object.keys(reply.body.routes)).toEqual(ROUTE_KEYS);
    }
  });

  it('lists every route in the namespace index, generated from the validating metadata', async () => {
    const reply = await t.request('GET', '/wp-json/calendar/events/v1');
    expect(reply.status).toBe(200);
    expect(reply.body.namespace).toBe('calendar/events/v1');
    expect(Object.keys(reply.body.routes)).toEqual(ROUTE_KEYS);
    expect(reply.body.routes['/calendar/events/v1/categories/(?P<id>\\d+)']).toEqual({
      namespace: 'calendar/events/v1',
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      endpoints: [
        {
          methods: ['GET', 'DELETE'],
          args: {
            id: { required: true, type: 'integer', description: 'Term id' },
            translation_language: { required: false, type: 'string', description: 'Language to read and write texts in; one of the configured languages, in any case' },
          },
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          args: {
            id: { required: true, type: 'integer', description: 'Term id' },
            translation_language: { required: false, type: 'string', description: 'Language to read and write texts in; one of the configured languages, in any case' },
            name: { required: false, type: 'string', description: 'The term name' },
            description: { required: false, type: 'string', description: 'The term description (HTML)' },
            slug: { required: false, type: 'string', description: 'The term slug; empty to make it again from the name' },
            parent: { required: false, type: 'integer', description: 'Id of the parent category; 0 for the top level' },
          },
        },
      ],
    });
    const list = reply.body.routes['/calendar/events/v1/tags'];
    expect(list._links).toEqual({ self: [{ href: `${API}/tags` }] });
    expect(list.endpoints[0].args.per_page).toEqual({ required: false, default: 10, type: 'integer', description: 'Terms per page' });
    expect(list.endpoints[0].args.parent).toBeUndefined();
    expect(list.endpoints[1]).toEqual({
      methods: ['POST'],
      args: {
        translation_language: { required: false, type: 'string', description: 'Language to read and write texts in; one of the configured languages, in any case' },
        name: { required: true, type: 'string', description: 'The term name' },
        description: { required: false, type: 'string', description: 'The term description (HTML)' },
        slug: { required: false, type: 'string', description: 'The term slug; made from the name when absent' },
      },
    });
    expect(reply.body.routes['/calendar/events/v1']._links).toEqual({ self: [{ href: API }] });
  });

  it('answers the index with or without a trailing slash and in a language base', async () => {
    const slash = await t.request('GET', '/wp-json/calendar/events/v1/');
    expect(slash.status).toBe(200);
    const french = await t.request('GET', '/fr/wp-json/calendar/events/v1');
    expect(french.status).toBe(200);
    expect(french.body.routes['/calendar/events/v1/tags']._links).toEqual({ self: [{ href: `${FR_API}/tags` }] });
  });

  it('rejects a bad index context and an unknown namespace', async () => {
    const context = await t.request('GET', '/wp-json/calendar/events/v1?context=nope');
    expect(context.status).toBe(400);
    expect(context.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): context',
      data: { status: 400, params: { context: 'must be one of: view, embed, edit' } },
    });
    const namespace = await t.request('GET', '/wp-json/calendar/events/v1?namespace=other/v2');
    expect(namespace.status).toBe(404);
    expect(namespace.body.code).toBe('rest_no_route');
  });

  it('declares no pattern a validator could take exponential or polynomial time on (a gateway runs them on every request)', async () => {
    const patterns = new Set<string>();
    JSON.stringify((await t.request('GET', '/wp-json/calendar/events/v1/doc')).body, (key, value) => {
      if (key === 'pattern') patterns.add(value);
      return value;
    });
    expect(patterns.size).toBeGreaterThanOrEqual(8);
    // recheck decides by analysis (automata, then fuzzing), not by the clock; ECMAScript patterns with the u flag, as Ajv runs them.
    const verdicts = [...patterns].map((pattern) => [pattern, checkSync(pattern, 'u').status]);
    expect(verdicts).toEqual([...patterns].map((pattern) => [pattern, 'safe']));
  });

  it('serves an OpenAPI 3.1 document that a validator accepts', async () => {
    const reply = await t.request('GET', '/wp-json/calendar/events/v1/doc');
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe('3.1.0');
    const languageBase = {
      url: `${ORIGIN}/{language}/wp-json/calendar/events/v1`,
      description: 'The same API under a language base: texts and addresses in that language (SPEC §7)',
      variables: { language: { default: 'fr', enum: ['en', 'fr', 'zh-hans'] } },
    };
    expect(reply.body.servers).toEqual([{ url: API }, languageBase]);
    expect(Object.keys(reply.body.paths)).toEqual([
      '/',
      '/doc',
      '/doc/ui',
      '/events',
      '/events/sync',
      '/events/{id}',
      '/events/by-slug/{slug}',
      '/events/ics',
      '/events/{id}/ics',
      '/events/by-slug/{slug}/ics',
      '/venues',
      '/venues/sync',
      '/venues/{id}',
      '/venues/by-slug/{slug}',
      '/organizers',
      '/organizers/sync',
      '/organizers/{id}',
      '/organizers/by-slug/{slug}',
      '/categories',
      '/categories/sync',
      '/categories/{id}',
      '/tags',
      '/tags/sync',
      '/tags/{id}',
      '/webhooks',
      '/webhooks/{id}',
      '/webhooks/{id}/deliveries',
      '/webhooks/{id}/deliveries/{delivery_id}/redeliver',
      '/webhooks/{id}/ping',
    ]);
    expect(Object.keys(reply.body.paths['/categories/{id}'])).toEqual(['get', 'post', 'put', 'patch', 'delete']);
    await expect(SwaggerParser.validate(structuredClone(reply.body))).resolves.toBeDefined();

    const french = await t.request('GET', '/fr/wp-json/calendar/events/v1/doc');
    expect(french.body.servers).toEqual([{ url: FR_API }, languageBase]);
  });

  it('declares the body of every answer, from the classes the answers are built as, and every error status', async () => {
    const doc = (await t.request('GET', '/wp-json/calendar/events/v1/doc')).body;
    const schemas = doc.components.schemas;
    for (const model of ['EventResponse', 'VenueResponse', 'OrganizerResponse', 'TermResponse', 'ImageResponse', 'DateDetails', 'CostDetails', 'ErrorEnvelope']) expect(schemas[model]).toBeDefined();
    expect(schemas.EventResponse.required).toEqual(expect.arrayContaining(['id', 'title', 'start_date', 'start_date_details', 'venue', 'organizer', 'translations']));
    expect(schemas.EventResponse.required).not.toContain('json_ld');
    expect(schemas.VenueResponse.properties.geo_lat).toEqual({ oneOf: [{ type: 'number' }, { type: 'null' }] });
    for (const [path, item] of Object.entries<Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const statuses = Object.keys(operation.responses);
        const success = statuses.filter((status) => status.startsWith('2'));
        expect([path, method, success.length]).toEqual([path, method, 1]);
        expect(operation.responses[success[0]].content).toBeDefined();
        expect(statuses).toEqual(expect.arrayContaining(['400', '401', '500', '503']));
      }
    }
    expect(Object.keys(doc.paths['/events'].get.responses)).toEqual(['200', '304', '400', '401', '404', '414', '429', '500', '503']);
    expect(Object.keys(doc.paths['/events/{id}'].delete.responses)).toEqual(['200', '400', '401', '403', '404', '410', '412', '414', '429', '500', '503']);
    // Conditional writes (SPEC §18): the request headers, and the ETag of the record written.
    expect(doc.paths['/events/{id}'].patch.parameters.filter((parameter: { in: string }) => parameter.in === 'header').map((parameter: { name: string }) => parameter.name)).toEqual(['If-Match', 'If-Unmodified-Since']);
    expect(Object.keys(doc.paths['/events/{id}'].patch.responses['200'].headers)).toEqual(['ETag']);
    expect(Object.keys(doc.paths['/categories/{id}'].delete.responses['200'].headers ?? {})).toEqual([]);
    expect(doc.paths['/events'].get.responses['200'].headers['X-WP-Total']).toEqual({ description: 'Number of matching records', schema: { type: 'integer' } });

    // The suite's check of every answer finds answers that are off the document.
    const check = new OpenApiCheck(doc, '/wp-json', ['fr', 'zh-hans']);
    const list = (await t.request('GET', `${NS_PATH}/tags?hide_empty=0`)).body;
    expect(check.problems({ method: 'GET', url: `${NS_PATH}/tags` }, 200, 'application/json', list)).toEqual([]);
    const { total: _total, ...withoutTotal } = list;
    expect(check.problems({ method: 'GET', url: `${NS_PATH}/tags` }, 200, 'application/json', withoutTotal)).toEqual([
      `GET ${NS_PATH}/tags → 200: (body) must have required property 'total' {"missingProperty":"total"}`,
    ]);
    expect(check.problems({ method: 'GET', url: `/fr${NS_PATH}/events/7` }, 409, 'application/json', {})).toEqual([`GET /fr${NS_PATH}/events/7 → 409: status not declared for GET /events/{id}`]);
    expect(check.problems({ method: 'GET', url: `${NS_PATH}/events/7` }, 404, 'application/json', { code: 'rest-event-not-found', message: '', data: { status: 404 } })).toEqual([]);
    expect(check.problems({ method: 'GET', url: `${NS_PATH}/events/7` }, 404, 'application/json', { code: 'event-is-in-trash', message: '', data: { status: 404 } })).not.toEqual([]);
    // ... and accepted requests the document would call invalid.
    const json = (body: unknown) => ({ contentType: 'application/json', payload: JSON.stringify(body) });
    const created = (url: string, body?: ReturnType<typeof json>) => check.problems({ method: 'POST', url, ...body }, 201, 'text/plain', undefined);
    expect(created(`${NS_PATH}/tags?name=A&translation_language=FR`)).toEqual([]);
    expect(created(`${NS_PATH}/events?title=A`, json({ start_date: 'tomorrow 9am', end_date: 1767225600, featured: 'Yes', venue: '3, 4', categories: ['1,2', 'jazz'], website: '' }))).toEqual([]);
    expect(created(`${NS_PATH}/events?featured=maybe`)).toEqual([
      `POST ${NS_PATH}/events?featured=maybe → 201 (query): /featured must be boolean {"type":"boolean"}`,
      `POST ${NS_PATH}/events?featured=maybe → 201 (query): /featured must be equal to one of the allowed values {"allowedValues":[0,1]}`,
      `POST ${NS_PATH}/events?featured=maybe → 201 (query): /featured must match pattern "^\\s*(?:0|1|[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|[yY][eE][sS]|[nN][oO]|[oO][nN]|[oO][fF][fF])\\s*$" {"pattern":"^\\\\s*(?:0|1|[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|[yY][eE][sS]|[nN][oO]|[oO][nN]|[oO][fF][fF])\\\\s*$"}`,
      `POST ${NS_PATH}/events?featured=maybe → 201 (query): /featured must match a schema in anyOf {}`,
    ]);
    expect(created(`${NS_PATH}/events`, { contentType: 'text/csv', payload: 'a,b' })).toEqual([`POST ${NS_PATH}/events → 201: a text/csv body the document does not declare`]);
    expect(check.problems({ method: 'GET', url: `${NS_PATH}/events?per_page=1,2` }, 200, 'text/plain', undefined)).not.toEqual([]);
  });

  it('serves a browsable page of the document and its assets', async () => {
    const page = await t.request('GET', '/wp-json/calendar/events/v1/doc/ui');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain(`SwaggerUIBundle({ url: "${API}/doc", dom_id: '#ui' })`);
    const script = await t.request('GET', '/wp-json/calendar/events/v1/doc/ui/assets/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    const missing = await t.request('GET', '/wp-json/calendar/events/v1/doc/ui/assets/passwd');
    expect(missing.status).toBe(404);
  });

  it('sends the discovery Link header on every response, errors included', async () => {
    for (const path of ['/wp-json/calendar/events/v1', '/wp-json/nothing', '/healthz']) {
      const reply = await t.request('GET', path);
      expect(reply.headers['link']).toBe(`<${ORIGIN}/wp-json/>; rel="https://api.w.org/"`);
    }
  });

  it('answers unknown routes, non-digit ids and unknown language bases with 404 rest_no_route', async () => {
    for (const path of ['/wp-json/nothing', '/wp-json/calendar/events/v1/categories/abc', '/de/wp-json/calendar/events/v1/tags', '/fr/nothing']) {
      const reply = await t.request('GET', path);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    }
  });

  it('answers a known route with another method with 405 and Allow', async () => {
    const reply = await t.request('PUT', '/wp-json/calendar/events/v1/tags');
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('GET, POST');
    expect(reply.body).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 405 } });
  });

  it('serves liveness and readiness outside the API root', async () => {
    expect((await t.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', database: t.config.database.type });
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const given = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'req-42' } });
    expect(given.headers['x-request-id']).toBe('req-42');
    const made = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('cross-origin access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers preflights and exposes the paging headers to browsers', async () => {
    const preflight = await t.request('OPTIONS', '/wp-json/calendar/events/v1/tags', {
      headers: { origin: 'https://site.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, If-None-Match, If-Match, If-Unmodified-Since, Idempotency-Key, X-Request-Id');
    const list = await t.request('GET', '/wp-json/calendar/events/v1/tags', { headers: { origin: 'https://site.example' } });
    expect(list.headers['access-control-allow-origin']).toBe('*');
    expect(list.headers['access-control-expose-headers']).toBe('X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, Link, ETag, Location, X-Request-Id, Allow');
    expect((await t.request('GET', '/wp-json/nothing')).status).toBe(404);
  });
});
