import { Reply, startTestApp, startTwoInstances, TestApp } from './support/test-app';

/*
 * Conditional writes (SPEC §18): updates and deletes of every kind, by id and by slug, under If-Match and
 * If-Unmodified-Since; every write answer carries the ETag a GET of the record gives.
 */

const NS = '/wp-json/calendar/events/v1';
const FAILED = {
  code: 'precondition-failed',
  message: 'The record has changed since the If-Match or If-Unmodified-Since it was sent with; read it again and send the write again.',
  data: { status: 412 },
};

interface Kind {
  path: string;
  create: Record<string, unknown>;
  /** A change of its name, and the field of the answer that shows it. */
  rename: (name: string) => Record<string, unknown>;
  shown: (body: Record<string, unknown>) => unknown;
  bySlug: boolean;
  /** A delete moves it to the trash (its answer is the record) rather than deleting it for good. */
  trashed: boolean;
}

const KINDS: Kind[] = [
  { path: 'events', create: { title: 'Concert', start_date: '2030-05-01 19:00', end_date: '2030-05-01 21:00' }, rename: (title) => ({ title }), shown: (body) => body.title, bySlug: true, trashed: true },
  { path: 'venues', create: { venue: 'Hall' }, rename: (venue) => ({ venue }), shown: (body) => body.venue, bySlug: true, trashed: true },
  { path: 'organizers', create: { organizer: 'Crew' }, rename: (organizer) => ({ organizer }), shown: (body) => body.organizer, bySlug: true, trashed: true },
  { path: 'categories', create: { name: 'Music' }, rename: (name) => ({ name }), shown: (body) => body.name, bySlug: false, trashed: false },
  { path: 'tags', create: { name: 'jazz' }, rename: (name) => ({ name }), shown: (body) => body.name, bySlug: false, trashed: false },
];

describe('Conditional writes (SPEC §18)', () => {
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

  const send = (method: string, path: string, options: { json?: Record<string, unknown>; headers?: Record<string, string>; token?: string } = {}) =>
    t.request(method, `${NS}/${path}`, { token: options.token ?? editor.token, json: options.json, headers: options.headers ?? {} });
  const etagOf = async (path: string, token = editor.token) => {
    const read = await send('GET', path, { token });
    expect(read.status).toBe(200);
    return read.headers['etag'] as string;
  };
  const create = async (kind: Kind): Promise<Reply> => {
    const made = await send('POST', kind.path, { json: kind.create });
    expect(made.status).toBe(201);
    return made;
  };

  describe.each(KINDS)('$path', (kind) => {
    it('answers every write with the ETag a GET of the record gives, so writes chain without a read', async () => {
      const made = await create(kind);
      const at = `${kind.path}/${made.body.id}`;
      expect(made.headers['etag']).toBe(await etagOf(at));
      // The ETag of one write is the If-Match of the next.
      let etag = made.headers['etag'] as string;
      for (const name of ['Second', 'Third']) {
        const written = await send('PATCH', at, { json: kind.rename(name), headers: { 'if-match': etag } });
        expect([written.status, kind.shown(written.body)]).toEqual([200, name]);
        expect(written.headers['etag']).not.toBe(etag);
        etag = written.headers['etag'] as string;
        expect(etag).toBe(await etagOf(at));
      }
    });

    it('writes under the current ETag or *, and answers 412 and writes nothing under an old one', async () => {
      const made = await create(kind);
      const at = `${kind.path}/${made.body.id}`;
      const old = made.headers['etag'] as string;
      const renamed = await send('PUT', at, { json: kind.rename('Renamed'), headers: { 'if-match': `"other", ${old}` } });
      expect(renamed.status).toBe(200);
      const before = await send('GET', at);
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const refused = await send(method, at, { json: kind.rename('Lost'), headers: { 'if-match': old } });
        expect([refused.status, refused.body, refused.headers['etag']]).toEqual([412, FAILED, undefined]);
      }
      const deleteRefused = await send('DELETE', at, { headers: { 'if-match': old } });
      expect([deleteRefused.status, deleteRefused.body]).toEqual([412, FAILED]);
      // A weak tag never matches: If-Match compares strongly.
      const weak = await send('PATCH', at, { json: kind.rename('Lost'), headers: { 'if-match': `W/${renamed.headers['etag']}` } });
      expect([weak.status, weak.body]).toEqual([412, FAILED]);
      const after = await send('GET', at);
      expect([after.body, after.headers['etag']]).toEqual([before.body, before.headers['etag']]);
      const any = await send('PATCH', at, { json: kind.rename('Any'), headers: { 'if-match': '*' } });
      expect([any.status, kind.shown(any.body)]).toEqual([200, 'Any']);
    });

    it('deletes under the current ETag', async () => {
      const made = await create(kind);
      const at = `${kind.path}/${made.body.id}`;
      const removed = await send('DELETE', at, { headers: { 'if-match': await etagOf(at) } });
      expect(removed.status).toBe(200);
      if (kind.trashed) {
        expect([removed.body.status, removed.headers['etag']]).toEqual(['trash', await etagOf(at)]);
      } else {
        // Deleted for good: there is no representation left to carry an ETag of.
        expect([removed.body.id, removed.headers['etag'], (await send('GET', at)).status]).toEqual([made.body.id, undefined, 404]);
      }
    });

    it('checks the preconditions only of a write that would otherwise be made: 404 and 410 come first', async () => {
      const missing = await send('PATCH', `${kind.path}/999999`, { json: kind.rename('None'), headers: { 'if-match': '"x"' } });
      expect([missing.status, missing.body.code]).toEqual([404, `rest-${kind.path === 'categories' ? 'category' : kind.path.replace(/s$/, '')}-not-found`]);
      if (!kind.trashed) return;
      const made = await create(kind);
      const at = `${kind.path}/${made.body.id}`;
      expect((await send('DELETE', at)).status).toBe(200);
      const again = await send('DELETE', at, { headers: { 'if-match': made.headers['etag'] as string } });
      expect([again.status, again.body.code]).toEqual([410, `${kind.path.replace(/s$/, '')}-is-in-trash`]);
    });

    if (kind.bySlug) {
      it('honours If-Match by slug, against the ETag of a GET by slug', async () => {
        const made = await create(kind);
        const at = `${kind.path}/by-slug/${made.body.slug}`;
        const stale = await send('PATCH', at, { json: kind.rename('Lost'), headers: { 'if-match': '"stale"' } });
        expect([stale.status, stale.body]).toEqual([412, FAILED]);
        const written = await send('PATCH', at, { json: { description: 'By slug' }, headers: { 'if-match': await etagOf(at) } });
        expect([written.status, written.body.description, written.headers['etag']]).toEqual([200, 'By slug', await etagOf(at)]);
        const removed = await send('DELETE', at, { headers: { 'if-match': written.headers['etag'] as string } });
        expect([removed.status, removed.body.status]).toEqual([200, 'trash']);
      });
    }
  });

  it('compares If-Unmodified-Since with modified_utc to the second, and ignores it with If-Match', async () => {
    const made = await create(KINDS[0]);
    const at = `events/${made.body.id}`;
    const modified = Date.parse(`${made.body.modified_utc.replace(' ', 'T')}Z`);
    const http = (ms: number) => new Date(ms).toUTCString();
    const early = await send('PATCH', at, { json: { title: 'Lost' }, headers: { 'if-unmodified-since': http(modified - 1000) } });
    expect([early.status, early.body]).toEqual([412, FAILED]);
    const same = await send('PATCH', at, { json: { title: 'Same second' }, headers: { 'if-unmodified-since': http(modified) } });
    expect([same.status, same.body.title]).toEqual([200, 'Same second']);
    // With If-Match, If-Unmodified-Since is not looked at (RFC 9110 §13.2.2).
    const both = await send('PATCH', at, { json: { title: 'Both' }, headers: { 'if-match': same.headers['etag'] as string, 'if-unmodified-since': http(0) } });
    expect([both.status, both.body.title]).toEqual([200, 'Both']);
    // Categories and tags have no modified_utc: the header is ignored, as RFC 9110 §13.1.4 says.
    const tag = await create(KINDS[4]);
    const tagged = await send('PATCH', `tags/${tag.body.id}`, { json: { name: 'blues' }, headers: { 'if-unmodified-since': http(0) } });
    expect([tagged.status, tagged.body.name]).toEqual([200, 'blues']);
  });

  it('answers a malformed If-Match or If-Unmodified-Since with a 400 naming it, and writes nothing', async () => {
    const made = await create(KINDS[1]);
    const at = `venues/${made.body.id}`;
    const before = await send('GET', at);
    const badMatch = await send('PATCH', at, { json: { venue: 'Lost' }, headers: { 'if-match': 'abc' } });
    expect([badMatch.status, badMatch.body]).toEqual([
      400,
      {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): If-Match',
        data: { status: 400, params: { 'If-Match': 'must be * or a comma-separated list of entity-tags, each in double quotes (an ETag this service answered)' } },
      },
    ]);
    const badDate = await send('DELETE', at, { headers: { 'if-unmodified-since': 'yesterday', 'if-match': '"a", b' } });
    expect([badDate.status, badDate.body]).toEqual([
      400,
      {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): If-Match, If-Unmodified-Since',
        data: {
          status: 400,
          params: {
            'If-Match': 'must be * or a comma-separated list of entity-tags, each in double quotes (an ETag this service answered)',
            'If-Unmodified-Since': 'must be an HTTP date, such as Tue, 15 Nov 1994 08:12:31 GMT',
          },
        },
      },
    ]);
    expect((await send('GET', at)).body).toEqual(before.body);
  });

  it('gives the write of another caller or language the ETag of their own GET', async () => {
    const made = await create(KINDS[0]);
    const fr = await t.request('PATCH', `/fr${NS}/events/${made.body.id}`, { token: editor.token, json: { title: 'Concert en plein air' }, headers: { 'if-match': made.headers['etag'] as string } });
    // The English ETag is not the French one: the French GET answers another body.
    expect(fr.status).toBe(412);
    const frEtag = (await t.request('GET', `/fr${NS}/events/${made.body.id}`, { token: editor.token })).headers['etag'] as string;
    const written = await t.request('PATCH', `/fr${NS}/events/${made.body.id}`, { token: editor.token, json: { title: 'Concert en plein air' }, headers: { 'if-match': frEtag } });
    expect([written.status, written.body.title]).toEqual([200, 'Concert en plein air']);
    expect(written.headers['etag']).toBe((await t.request('GET', `/fr${NS}/events/${made.body.id}`, { token: editor.token })).headers['etag']);
  });

  it('refuses the write of an editor whose copy another editor changed since, with or without a condition of their own', async () => {
    const made = await create(KINDS[0]);
    const at = `events/${made.body.id}`;
    const other = await t.user('editor', 'second-editor');
    const seen = await etagOf(at);
    expect((await send('PATCH', at, { json: { title: 'Theirs' }, token: other.token })).status).toBe(200);
    const mine = await send('PATCH', at, { json: { title: 'Mine' }, headers: { 'if-match': seen } });
    expect([mine.status, mine.body]).toEqual([412, FAILED]);
    expect((await send('GET', at)).body.title).toBe('Theirs');
  });
});

describe('Two editors saving one record at once, through two instances (SPEC §18)', () => {
  let instances: Awaited<ReturnType<typeof startTwoInstances>>;
  beforeAll(async () => {
    instances = await startTwoInstances();
  });
  afterAll(() => instances.close());

  it.each(KINDS)('$path: of two writes under one ETag, one is made and the other gets 412', async (kind) => {
    const { a, b } = instances;
    const first = await a.user('editor', `first-${kind.path}`);
    const second = await b.user('editor', `second-${kind.path}`);
    const made = await a.request('POST', `${NS}/${kind.path}`, { token: first.token, json: { ...kind.create, ...kind.rename(`Race ${kind.path}`) } });
    expect(made.status).toBe(201);
    let etag = made.headers['etag'] as string;
    for (let round = 0; round < 8; round += 1) {
      const path = `${NS}/${kind.path}/${made.body.id}`;
      const [one, two] = await Promise.all([
        a.request('PATCH', path, { token: first.token, json: kind.rename(`A ${round}`), headers: { 'if-match': etag } }),
        b.request('PATCH', path, { token: second.token, json: kind.rename(`B ${round}`), headers: { 'if-match': etag } }),
      ]);
      const statuses = [one.status, two.status].sort();
      expect(statuses).toEqual([200, 412]);
      const winner = one.status === 200 ? one : two;
      const loser = one.status === 200 ? two : one;
      expect(loser.body).toEqual(FAILED);
      // The record is the winner's write, and its ETag the winner's answer's.
      const read = await a.request('GET', path, { token: first.token });
      expect([kind.shown(read.body), read.headers['etag']]).toEqual([kind.shown(winner.body), winner.headers['etag']]);
      etag = winner.headers['etag'] as string;
    }
  });
});
