import { API, ORIGIN, startTestApp, TestApp } from './support/test-app';

const TAGS = '/wp-json/calendar/events/v1/tags';

describe('REST platform: parameters, errors, caching (SPEC §2, §3)', () => {
  let t: TestApp;
  let editor: string;
  let author: string;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = (await t.user('editor')).token;
    author = (await t.user('author')).token;
  });

  describe('where parameters come from', () => {
    it('reads the same write from the query string, JSON, form and multipart bodies', async () => {
      const query = await t.request('POST', `${TAGS}?name=${encodeURIComponent(' From query ')}`, { token: editor });
      const json = await t.request('POST', TAGS, { token: editor, json: { name: 'From JSON' } });
      const form = await t.request('POST', TAGS, { token: editor, form: { name: 'From form' } });
      const boundary = 'XyZ';
      const multipart = await t.request('POST', TAGS, {
        token: editor,
        raw: { type: `multipart/form-data; boundary=${boundary}`, body: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nFrom multipart\r\n--${boundary}--\r\n` },
      });
      expect([query.status, json.status, form.status, multipart.status]).toEqual([201, 201, 201, 201]);
      expect([query.body.name, json.body.name, form.body.name, multipart.body.name]).toEqual(['From query', 'From JSON', 'From form', 'From multipart']);
      expect([query.body.slug, json.body.slug, form.body.slug, multipart.body.slug]).toEqual(['from-query', 'from-json', 'from-form', 'from-multipart']);
    });

    it('gives the path precedence over the body, and the body over the query', async () => {
      const a = await t.request('POST', TAGS, { token: editor, json: { name: 'A' } });
      const b = await t.request('POST', TAGS, { token: editor, json: { name: 'B' } });
      const reply = await t.request('PATCH', `${TAGS}/${a.body.id}?description=from-query&name=Query`, {
        token: editor,
        json: { id: b.body.id, name: 'Body', unknown: 'ignored' },
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ id: a.body.id, name: 'Body', description: 'from-query' });
      expect((await t.request('GET', `${TAGS}/${b.body.id}`)).body.name).toBe('B');
    });

    it('accepts every list form in the query: comma-separated, name[] and repeated keys', async () => {
      const ids: number[] = [];
      for (const name of ['One', 'Two', 'Three']) ids.push((await t.request('POST', TAGS, { token: editor, json: { name } })).body.id);
      const expected = [ids[2], ids[1]];
      const forms = [
        await t.request('GET', `${TAGS}?hide_empty=0&orderby=include&include=${ids[2]}, ${ids[1]}`),
        await t.request('GET', `${TAGS}?hide_empty=0&orderby=include&include[]=${ids[2]}&include[]=${ids[1]}`),
        await t.request('GET', `${TAGS}?hide_empty=0&orderby=include&include=${ids[2]}&include=${ids[1]}`),
      ];
      for (const reply of forms) {
        expect(reply.status).toBe(200);
        expect(reply.body.tags.map((tag: { id: number }) => tag.id)).toEqual(expected);
      }
      const single = await t.request('GET', `${TAGS}?hide_empty=0&include=${ids[0]}`);
      expect(single.body.tags.map((tag: { id: number }) => tag.id)).toEqual([ids[0]]);
    });

    it('reads booleans in every documented form and never "false" as true', async () => {
      await t.request('POST', TAGS, { token: editor, json: { name: 'Unused' } });
      for (const value of ['0', 'false', 'FALSE', 'no', 'Off']) {
        expect((await t.request('GET', `${TAGS}?hide_empty=${value}`)).body.total).toBe(1);
      }
      for (const value of ['1', 'true', 'Yes', 'on']) {
        expect((await t.request('GET', `${TAGS}?hide_empty=${value}`)).body.total).toBe(0);
      }
      const bad = await t.request('GET', `${TAGS}?hide_empty=maybe`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): hide_empty',
        data: { status: 400, params: { hide_empty: 'must be a boolean: true/false, 1/0, yes/no or on/off' } },
      });
    });
  });

  describe('errors', () => {
    it('names every invalid parameter in one 400, empty typed values included', async () => {
      const reply = await t.request('GET', `${TAGS}?per_page=&page=0&order=sideways&include=1,x&orderby=parent&translation_language=de`);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): include, order, orderby, page, per_page, translation_language',
        data: {
          status: 400,
          params: {
            include: 'must be a list of integers (a JSON array, comma-separated, or repeated keys)',
            order: 'must be one of: asc, desc',
            orderby: 'must be one of: name, id, slug, count, description, include',
            page: 'must be an integer of at least 1',
            per_page: 'must be an integer from 1 to 100',
            translation_language: 'must be one of: en, fr, zh-hans',
          },
        },
      });
    });

    it('bounds search to 200 characters on every list, and searches that long when a record could match', async () => {
      // A record in each list, so that the search condition is evaluated against a row (SQLite's LIKE refuses
      // patterns over 50,000 bytes only when it compares one).
      for (const [path, body] of [
        ['venues', { venue: 'xx hall' }],
        ['organizers', { organizer: 'xx org' }],
        ['tags', { name: 'xx' }],
        ['categories', { name: 'xx' }],
        ['events', { title: 'xx', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00' }],
      ] as const) {
        expect((await t.request('POST', `${API}/${path}`, { token: editor, json: body })).status).toBe(201);
      }
      for (const path of ['events', 'venues', 'organizers', 'categories', 'tags']) {
        const longest = await t.request('GET', `${API}/${path}?hide_empty=false&search=${'x'.repeat(200)}`);
        expect([path, longest.status, longest.body[path]]).toEqual([path, 200, []]);
        const cjk = await t.request('GET', `${API}/${path}?hide_empty=false&search=${encodeURIComponent('音'.repeat(200))}`);
        expect([path, cjk.status, cjk.body[path]]).toEqual([path, 200, []]);
        for (const search of ['x'.repeat(201), encodeURIComponent('音'.repeat(25_000))]) {
          const reply = await t.request('GET', `${API}/${path}?hide_empty=false&search=${search}`);
          expect([path, reply.status, reply.body]).toEqual([
            path,
            400,
            { code: 'rest_invalid_param', message: 'Invalid parameter(s): search', data: { status: 400, params: { search: 'must be a non-empty string of at most 200 characters' } } },
          ]);
        }
      }
    });

    it('tells missing required parameters from empty ones', async () => {
      const missing = await t.request('POST', TAGS, { token: editor, json: { description: 'no name' } });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } });
      const empty = await t.request('POST', TAGS, { token: editor, json: { name: '   ' } });
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): name',
        data: { status: 400, params: { name: 'must be a non-empty string of at most 200 characters' } },
      });
      expect((await t.request('GET', `${TAGS}?hide_empty=0`)).body.total).toBe(0);
    });

    it('answers malformed JSON with 400 rest_invalid_json and writes nothing', async () => {
      const reply = await t.request('POST', TAGS, { token: editor, raw: { type: 'application/json', body: '{"name": "Broken"' } });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ code: 'rest_invalid_json', message: 'Invalid JSON body passed.', data: { status: 400 } });
      const array = await t.request('POST', TAGS, { token: editor, raw: { type: 'application/json', body: '["name"]' } });
      expect(array.status).toBe(400);
      expect(array.body).toEqual({ code: 'rest_invalid_json', message: 'The request body must be a JSON object or form fields.', data: { status: 400 } });
      for (const body of ['null', '"text"', '12']) {
        const scalar = await t.request('POST', TAGS, { token: editor, raw: { type: 'application/json', body } });
        expect([body, scalar.status, scalar.body]).toEqual([body, 400, { code: 'rest_invalid_json', message: 'The request body must be a JSON object or form fields.', data: { status: 400 } }]);
      }
      expect((await t.request('GET', `${TAGS}?hide_empty=0`)).body.total).toBe(0);
    });

    it('refuses bodies over 1 MiB with 413', async () => {
      const reply = await t.request('POST', TAGS, { token: editor, json: { name: 'Big', description: 'x'.repeat(1024 * 1024) } });
      expect(reply.status).toBe(413);
      expect(reply.body).toEqual({ code: 'rest_request_too_large', message: 'The request body is larger than 1 MiB.', data: { status: 413 } });
    });

    it('answers what the router refuses in the envelope: an over-long path segment (414), an unreadable URL (400)', async () => {
      const long = await t.request('GET', `/wp-json/calendar/events/v1/events/by-slug/${'x'.repeat(501)}`);
      expect([long.status, long.body]).toEqual([414, { code: 'rest_uri_too_long', message: 'A path segment is longer than 500 characters.', data: { status: 414 } }]);
      expect((await t.request('GET', `/wp-json/calendar/events/v1/events/by-slug/${'x'.repeat(500)}`)).status).toBe(404);
      const unreadable = await t.request('GET', '/wp-json/calendar/events/v1/events/by-slug/%E0%A4%A');
      expect([unreadable.status, unreadable.body]).toEqual([400, { code: 'rest_bad_url', message: 'The request URL could not be read.', data: { status: 400 } }]);
    });

    it('refuses unknown content types with 415', async () => {
      const reply = await t.request('POST', TAGS, { token: editor, raw: { type: 'text/csv', body: 'name\nA' } });
      expect(reply.status).toBe(415);
      expect(reply.body).toEqual({ code: 'rest_unsupported_media_type', message: 'Send parameters as JSON, form fields or in the query string.', data: { status: 415 } });
    });

    it('checks in order: authentication, parameters, record, permission', async () => {
      const anonymous = await t.request('POST', TAGS, { json: { name: '' } });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="calendar"');
      expect(anonymous.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });

      const invalidOnMissing = await t.request('PATCH', `${TAGS}/999`, { token: author, json: { name: '' } });
      expect(invalidOnMissing.status).toBe(400);
      const missing = await t.request('PATCH', `${TAGS}/999`, { token: author, json: { name: 'Fine' } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: 'rest-tag-not-found', message: 'The tag does not exist.', data: { status: 404 } });
      const tag = await t.request('POST', TAGS, { token: editor, json: { name: 'Owned by editors' } });
      const forbidden = await t.request('PATCH', `${TAGS}/${tag.body.id}`, { token: author, json: { name: 'Fine' } });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
    });
  });

  describe('responses', () => {
    it('points Location at the new record and sanitises HTML fields', async () => {
      const reply = await t.request('POST', TAGS, {
        token: editor,
        json: { name: 'Safe', description: '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">link</a> <b>bold</b></p>' },
      });
      expect(reply.status).toBe(201);
      expect(reply.headers['location']).toBe(`${API}/tags/${reply.body.id}`);
      expect(reply.body.description).toBe('<p>Hi <a>link</a> <b>bold</b></p>');
    });

    it('gives GETs a strong ETag, 304 for a match, and a new ETag when the data changes', async () => {
      const tag = await t.request('POST', TAGS, { token: editor, json: { name: 'Cached' } });
      const first = await t.request('GET', `${TAGS}/${tag.body.id}`);
      const etag = first.headers['etag'] as string;
      expect(etag).toMatch(/^"[\w-]{32}"$/);
      expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      const again = await t.request('GET', `${TAGS}/${tag.body.id}`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      await t.request('PATCH', `${TAGS}/${tag.body.id}`, { token: editor, json: { description: 'changed' } });
      const changed = await t.request('GET', `${TAGS}/${tag.body.id}`, { headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(changed.headers['etag']).not.toBe(etag);
      const french = await t.request('GET', `/fr${TAGS}/${tag.body.id}`);
      expect(french.headers['etag']).not.toBe(changed.headers['etag']);
    });

    it('marks authenticated responses private', async () => {
      const reply = await t.request('GET', `${TAGS}?hide_empty=0`, { token: editor });
      expect(reply.status).toBe(200);
      expect(reply.headers['cache-control']).toBe('private, no-cache');
    });

    it('serves the language bases and translation_language, which wins over the URL', async () => {
      const tag = await t.request('POST', TAGS, { token: editor, json: { name: 'Langue' } });
      const french = await t.request('GET', `/fr${TAGS}/${tag.body.id}`);
      expect(french.body.lang).toBe('fr');
      expect(french.body.rest_url).toBe(`${ORIGIN}/fr/wp-json/calendar/events/v1/tags/${tag.body.id}`);
      const english = await t.request('GET', `/en${TAGS}/${tag.body.id}`);
      expect(english.body.lang).toBe('en');
      expect(english.body.rest_url).toBe(`${API}/tags/${tag.body.id}`);
      const parameter = await t.request('GET', `/fr${TAGS}/${tag.body.id}?translation_language=zh-hans`);
      expect(parameter.body.lang).toBe('zh-hans');
      expect(parameter.body.rest_url).toBe(`${ORIGIN}/zh-hans/wp-json/calendar/events/v1/tags/${tag.body.id}`);
    });
  });
});
