import { queryCounter } from '@calendar/shared/database';
import { startTestApp, startTwoInstances, TestApp } from './support/test-app';

const NS = '/wp-json/calendar/events/v1';

describe('cached anonymous reads stay correct (SPEC §10, §11.16)', () => {
  let t: TestApp;
  let editor: string;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = (await t.user('editor')).token;
  });

  it('shows every write on the next read of every list and single route, with a new ETag', async () => {
    const create = async (path: string, json: Record<string, unknown>) => (await t.request('POST', `${NS}/${path}`, { token: editor, json })).body;
    const venue = await create('venues', { venue: 'Hall' });
    const organizer = await create('organizers', { organizer: 'Acme' });
    const category = await create('categories', { name: 'Music' });
    const tag = await create('tags', { name: 'Loud' });
    const event = await create('events', { title: 'Gig', start_date: '2030-01-01 20:00', end_date: '2030-01-01 22:00', categories: category.id, tags: tag.id });
    const routes: [string, string, Record<string, unknown>, (body: any) => unknown][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
      [`events?start_date=2030-01-01&end_date=2030-12-31`, `events/${event.id}`, { title: 'Gig, renamed' }, (body) => body.events[0].title],
      [`events/${event.id}`, `events/${event.id}`, { title: 'Gig, again' }, (body) => body.title],
      ['venues', `venues/${venue.id}`, { venue: 'Hall, renamed' }, (body) => body.venues[0].venue],
      [`venues/${venue.id}`, `venues/${venue.id}`, { venue: 'Hall, again' }, (body) => body.venue],
      ['organizers', `organizers/${organizer.id}`, { organizer: 'Acme, renamed' }, (body) => body.organizers[0].organizer],
      [`organizers/${organizer.id}`, `organizers/${organizer.id}`, { organizer: 'Acme, again' }, (body) => body.organizer],
      ['categories', `categories/${category.id}`, { name: 'Music, renamed' }, (body) => body.categories[0].name],
      [`categories/${category.id}`, `categories/${category.id}`, { name: 'Music, again' }, (body) => body.name],
      ['tags', `tags/${tag.id}`, { name: 'Loud, renamed' }, (body) => body.tags[0].name],
      [`tags/${tag.id}`, `tags/${tag.id}`, { name: 'Loud, again' }, (body) => body.name],
    ];
    for (const [read, write, change, pick] of routes) {
      const before = await t.request('GET', `${NS}/${read}`);
      const cached = await t.request('GET', `${NS}/${read}`);
      expect(cached.body).toEqual(before.body);
      expect(cached.headers['etag']).toBe(before.headers['etag']);
      const written = await t.request('PATCH', `${NS}/${write}`, { token: editor, json: change });
      expect(written.status).toBe(200);
      const after = await t.request('GET', `${NS}/${read}`);
      expect(pick(after.body)).toBe(Object.values(change)[0]);
      expect(after.headers['etag']).not.toBe(before.headers['etag']);
    }
  });

  it('computes at most two answers for identical requests that arrive together', async () => {
    for (const name of ['A', 'B']) await t.request('POST', `${NS}/tags`, { token: editor, json: { name } });
    const measure = async (requests: number, query: string) => {
      const before = queryCounter.count;
      const replies = await Promise.all(Array.from({ length: requests }, () => t.request('GET', `${NS}/tags?hide_empty=0&${query}`)));
      replies.forEach((reply) => expect(reply.body).toEqual(replies[0].body));
      return queryCounter.count - before;
    };
    const one = await measure(1, 'search=a');
    const five = await measure(5, 'search=b');
    expect(one).toBeGreaterThan(2);
    // The first request for a URL computes its answer alone (nothing can be cached for it yet); the four others
    // each read the data version and share one answer, which is kept.
    expect(five).toBeLessThanOrEqual(2 * one + 4);
    const before = queryCounter.count;
    const again = await t.request('GET', `${NS}/tags?hide_empty=0&search=b`);
    expect([again.status, queryCounter.count - before]).toEqual([200, 1]);
  });

  it('answers each of identical requests that arrive together with the error their answer is, and keeps none', async () => {
    const path = `${NS}/organizers/987654?asked=together`;
    const missing = { code: 'rest-organizer-not-found', message: 'The organizer does not exist.', data: { status: 404 } };
    // Asked once before, so that the five below look the cache up and four of them wait for the one that computes.
    expect([(await t.request('GET', path)).status]).toEqual([404]);
    const replies = await Promise.all(Array.from({ length: 5 }, () => t.request('GET', path)));
    expect(replies.map((reply) => [reply.status, reply.body])).toEqual(Array.from({ length: 5 }, () => [404, missing]));
    const created = await t.request('POST', `${NS}/organizers`, { token: editor, json: { organizer: 'Acme' } });
    const found = `${NS}/organizers/${created.body.id}?asked=together`;
    expect([(await t.request('GET', found)).status]).toEqual([200]);
    const together = await Promise.all(Array.from({ length: 5 }, () => t.request('GET', found)));
    expect(together.map((reply) => [reply.status, reply.body.organizer, reply.headers['etag']])).toEqual(Array.from({ length: 5 }, () => [200, 'Acme', together[0].headers['etag']]));
    // Each failed answer is computed anew (nothing of it was kept); the found one is answered from the cache.
    const before = queryCounter.count;
    const [again, foundAgain] = [await t.request('GET', path), await t.request('GET', found)];
    expect([again.status, again.body, foundAgain.status, foundAgain.text]).toEqual([404, missing, 200, together[0].text]);
    expect(queryCounter.count - before).toBeGreaterThan(2);
  });

  it('keeps the answer of a URL asked again, and answers it from then on with the data version as its only query', async () => {
    const created = await t.request('POST', `${NS}/events`, { token: editor, json: { title: 'Cached', start_date: '2030-02-01 20:00', end_date: '2030-02-01 22:00', venue: { venue: 'Hall' }, categories: 'Music' } });
    expect(created.status).toBe(201);
    const { id, venue, categories } = created.body;
    const paths = ['events?start_date=2030-02-01&end_date=2030-02-28', `events/${id}`, `events/by-slug/cached`, 'venues', `venues/${venue.id}`, 'categories', `categories/${categories[0].id}`];
    const feeds = ['events/ics?start_date=2030-02-01&end_date=2030-02-28', `events/${id}/ics`, 'events/by-slug/cached/ics'];
    for (const route of [...paths, ...feeds]) {
      // Asked once, an answer is not kept (SPEC §10.1's never-cached reads cost no copy); asked again, it is. An
      // ignored parameter makes the URL one the instance was not asked before (its earlier tests had the same ids).
      const path = `${route}${route.includes('?') ? '&' : '?'}asked=twice`;
      const first = await t.request('GET', `${NS}/${path}`);
      expect(first.status).toBe(200);
      const computed = queryCounter.count;
      const second = await t.request('GET', `${NS}/${path}`);
      expect([second.status, second.text]).toEqual([200, first.text]);
      expect(queryCounter.count - computed).toBeGreaterThan(1);
      const before = queryCounter.count;
      const again = await t.request('GET', `${NS}/${path}`);
      expect(queryCounter.count - before).toBe(1);
      const type = feeds.includes(route) ? 'text/calendar; charset=utf-8' : 'application/json; charset=utf-8';
      expect([again.status, again.text, again.headers['etag'], again.headers['content-type'], again.headers['content-disposition'], again.headers['x-wp-total']]).toEqual([
        200,
        first.text,
        first.headers['etag'],
        type,
        first.headers['content-disposition'],
        first.headers['x-wp-total'],
      ]);
    }
  });

  it('keeps the list headers on cached answers', async () => {
    for (const name of ['A', 'B', 'C']) await t.request('POST', `${NS}/tags`, { token: editor, json: { name } });
    const first = await t.request('GET', `${NS}/tags?hide_empty=0&per_page=1&page=2`);
    const cached = await t.request('GET', `${NS}/tags?hide_empty=0&per_page=1&page=2`);
    for (const header of ['x-wp-total', 'x-wp-totalpages', 'x-tec-total', 'x-tec-totalpages', 'link']) expect(cached.headers[header]).toBe(first.headers[header]);
    expect(cached.headers['x-wp-total']).toBe('3');
  });
});

describe('several instances on one database', () => {
  let instances: Awaited<ReturnType<typeof startTwoInstances>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    instances = await startTwoInstances();
    ({ a, b } = instances);
  });
  afterAll(() => instances.close());

  it('shows a write through one instance on the next read through the other', async () => {
    const editor = await a.user('editor', 'shared-editor');
    const tag = (await a.request('POST', `${NS}/tags`, { token: editor.token, json: { name: 'First' } })).body;
    expect((await a.request('GET', `${NS}/tags/${tag.id}`)).body.name).toBe('First');
    expect((await a.request('GET', `${NS}/tags/${tag.id}`)).body.name).toBe('First');
    const renamed = await b.request('PATCH', `${NS}/tags/${tag.id}`, { token: editor.token, json: { name: 'Second' } });
    expect(renamed.status).toBe(200);
    expect((await a.request('GET', `${NS}/tags/${tag.id}`)).body.name).toBe('Second');
  });

  it('lists each event as last written through either instance, in every language and for every caller', async () => {
    const editor = await a.user('editor', 'rendering-editor');
    const created = await a.request('POST', `${NS}/events`, { token: editor.token, json: { title: 'Kept', start_date: '2030-07-01 10:00', end_date: '2030-07-01 11:00' } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    // The list item equals the single answer without its JSON-LD, whichever instance rendered it before.
    const listed = async (app: TestApp, language: string, token?: string) => {
      const prefix = language === 'en' ? '' : `/${language}`;
      const list = await app.request('GET', `${prefix}${NS}/events?start_date=2030-07-01&end_date=2030-07-01&status=publish,draft&n=${Math.random()}`, { token: token ?? editor.token });
      const single = await app.request('GET', `${prefix}${NS}/events/${id}?n=${Math.random()}`, { token: token ?? editor.token });
      expect(list.status).toBe(200);
      const { json_ld: _jsonLd, ...expected } = single.body;
      expect(list.body.events).toEqual([expected]);
      return { ...list.body.events[0], json_ld: single.body.json_ld, single: single.body };
    };
    const anonymous = async (app: TestApp) =>
      (await app.request('GET', `${NS}/events?start_date=2030-07-01&end_date=2030-07-01&n=${Math.random()}`)).body.events;
    for (const app of [a, b]) for (const language of ['en', 'fr']) expect((await listed(app, language)).title).toBe('Kept');
    const writes: [string, Record<string, unknown>, (event: any) => unknown, unknown][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
      ['', { title: 'Kept, renamed' }, (event) => event.title, 'Kept, renamed'],
      ['', { title: 'Kept, again' }, (event) => event.title, 'Kept, again'],
      ['/fr', { title: 'Gardé' }, (event) => event.translations.fr.title, 'Gardé'],
      ['', { venue: { venue: 'Side hall' }, organizer: { organizer: 'Crew' }, cost: '12' }, (event) => [event.venue.venue, event.json_ld.organizer[0].name, event.cost], ['Side hall', 'Crew', '12']],
      ['', { start_date: '2030-07-01 10:30', image: 'https://example.org/poster.jpg' }, (event) => [event.start_date, event.image.url], ['2030-07-01 10:30:00', 'https://example.org/poster.jpg']],
      ['', { status: 'draft' }, (event) => event.status, 'draft'],
    ];
    for (const [prefix, change, pick, expected] of writes) {
      const written = await b.request('PATCH', `${prefix}${NS}/events/${id}`, { token: editor.token, json: change });
      expect(written.status).toBe(200);
      for (const app of [a, b]) {
        const { single, ...event } = await listed(app, prefix === '' ? 'en' : 'fr');
        expect(pick(event)).toEqual(expected);
        // The single answer, kept in parts, equals the write's answer, rendered whole.
        expect(single).toEqual(written.body);
      }
    }
    for (const app of [a, b]) expect(await anonymous(app)).toEqual([]);
    // Published with a password: the public sees it reduced, its editor in full.
    expect((await b.request('PATCH', `${NS}/events/${id}`, { token: editor.token, json: { status: 'publish', password: 'secret' } })).status).toBe(200);
    for (const app of [a, b]) {
      const [reduced] = await anonymous(app);
      expect([reduced.title, reduced.description, reduced.cost, reduced.venue]).toEqual(['Kept, again', '', '', []]);
      expect((await listed(app, 'en')).cost).toBe('12');
    }
    expect((await a.request('DELETE', `${NS}/events/${id}`, { token: editor.token })).status).toBe(200);
    for (const app of [a, b]) expect(await anonymous(app)).toEqual([]);
  });

  it('resolves category and tag filters as the terms were last written through either instance', async () => {
    const editor = await a.user('editor', 'filter-editor');
    const listed = async (app: TestApp, query: string) => {
      const reply = await app.request('GET', `${NS}/events?start_date=2030-08-01&end_date=2030-08-31&${query}&n=${Math.random()}`);
      return reply.status === 200 ? reply.body.events.map((event: { title: string }) => event.title) : reply.body.data.params;
    };
    for (const app of [a, b]) expect(await listed(app, 'categories=stage')).toEqual({ categories: 'must name existing categories by id or slug; unknown: stage' });
    const parent = await b.request('POST', `${NS}/categories`, { token: editor.token, json: { name: 'Stage' } });
    expect(parent.status).toBe(201);
    const event = { start_date: '2030-08-01 10:00', end_date: '2030-08-01 11:00' };
    expect((await b.request('POST', `${NS}/events`, { token: editor.token, json: { ...event, title: 'On stage', categories: [parent.body.id] } })).status).toBe(201);
    for (const app of [a, b]) expect(await listed(app, 'categories=stage')).toEqual(['On stage']);
    const child = await b.request('POST', `${NS}/categories`, { token: editor.token, json: { name: 'Opera', parent: parent.body.id } });
    expect((await b.request('POST', `${NS}/events`, { token: editor.token, json: { ...event, title: 'At the opera', categories: [child.body.id], tags: 'Loud' } })).status).toBe(201);
    for (const app of [a, b]) {
      expect(await listed(app, 'categories=stage')).toEqual(['On stage', 'At the opera']);
      expect(await listed(app, 'tags=loud')).toEqual(['At the opera']);
    }
    expect((await b.request('PATCH', `${NS}/categories/${parent.body.id}`, { token: editor.token, json: { slug: 'scene' } })).status).toBe(200);
    for (const app of [a, b]) {
      expect(await listed(app, 'categories=stage')).toEqual({ categories: 'must name existing categories by id or slug; unknown: stage' });
      expect(await listed(app, 'categories=scene')).toEqual(['On stage', 'At the opera']);
    }
    // Nothing written since: the filter is resolved from what is kept at the versions last seen, and a total not
    // kept yet reads the versions with its count; no statement reads them alone.
    let titles: string[] = [];
    const statements = await queryCounter.record(async () => {
      titles = (await a.request('GET', `${NS}/events?start_date=2030-07-31&end_date=2030-08-30&categories=scene`)).body.events.map((event: { title: string }) => event.title);
    });
    expect([titles, statements.filter((sql) => sql.includes('FROM version_slots') && !sql.includes('AS slots') && !sql.includes('AS `slots`'))]).toEqual([['On stage', 'At the opera'], []]);
  });

  it('embeds venues, organizers and terms as last written through either instance, for every caller', async () => {
    const editor = await a.user('editor', 'embedding-editor');
    const json = { title: 'Embedded', start_date: '2030-05-01 10:00', end_date: '2030-05-01 11:00', venue: { venue: 'Old hall' }, organizer: { organizer: 'Old org' }, categories: 'Old category' };
    const created = await a.request('POST', `${NS}/events`, { token: editor.token, json });
    expect(created.status).toBe(201);
    const embedded = async (app: TestApp, token?: string) => {
      const reply = await app.request('GET', `${NS}/events?start_date=2030-05-01&end_date=2030-05-01&n=${Math.random()}`, { token });
      const [event] = reply.body.events;
      return [event.venue.venue, event.organizer[0].organizer, event.categories[0].name];
    };
    for (const app of [a, b]) for (const token of [undefined, editor.token]) expect(await embedded(app, token)).toEqual(['Old hall', 'Old org', 'Old category']);
    const { venue, organizer, categories } = created.body;
    expect((await b.request('PATCH', `${NS}/venues/${venue.id}`, { token: editor.token, json: { venue: 'New hall' } })).status).toBe(200);
    expect((await b.request('PATCH', `${NS}/organizers/${organizer[0].id}`, { token: editor.token, json: { organizer: 'New org' } })).status).toBe(200);
    expect((await b.request('PATCH', `${NS}/categories/${categories[0].id}`, { token: editor.token, json: { name: 'New category' } })).status).toBe(200);
    for (const app of [a, b]) for (const token of [undefined, editor.token]) expect(await embedded(app, token)).toEqual(['New hall', 'New org', 'New category']);
    // An event write changes the counts its terms carry, even embedded in other events.
    const countOf = async (app: TestApp) =>
      (await app.request('GET', `${NS}/events?start_date=2030-05-01&end_date=2030-05-01&n=${Math.random()}`)).body.events[0].categories[0].count;
    expect(await countOf(a)).toBe(1);
    const second = { title: 'Second', start_date: '2030-06-01 10:00', end_date: '2030-06-01 11:00', categories: [categories[0].id] };
    expect((await b.request('POST', `${NS}/events`, { token: editor.token, json: second })).status).toBe(201);
    // The term is not loaded and rendered again for that: its kept rendering takes the counts, read in one statement.
    let count = 0;
    const statements = await queryCounter.record(async () => {
      count = await countOf(a);
    });
    expect([count, statements.filter((sql) => sql.includes('term_translations')).length, statements.filter((sql) => sql.startsWith('SELECT id, event_count FROM terms WHERE id IN')).length]).toEqual([2, 0, 1]);
    // A draft venue is embedded for its author's editor only, whatever was rendered before.
    expect((await a.request('PATCH', `${NS}/venues/${venue.id}`, { token: editor.token, json: { status: 'draft' } })).status).toBe(200);
    const venueOf = async (app: TestApp, token?: string) =>
      (await app.request('GET', `${NS}/events?start_date=2030-05-01&end_date=2030-05-01&n=${Math.random()}`, { token })).body.events[0].venue;
    expect(await venueOf(b, editor.token)).toMatchObject({ venue: 'New hall', status: 'draft' });
    expect(await venueOf(b)).toEqual([]);
  });
});
