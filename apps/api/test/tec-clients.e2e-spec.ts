import { API, startTestApp, TestApp } from './support/test-app';

const EVENTS = '/wp-json/calendar/events/v1/events';
const VENUES = '/wp-json/calendar/events/v1/venues';
const ORGANIZERS = '/wp-json/calendar/events/v1/organizers';
const CATEGORIES = '/wp-json/calendar/events/v1/categories';
const DATES = { start_date: '2030-06-01 19:00', end_date: '2030-06-01 22:00' };

/*
 * What clients written for TEC send and read on the wire (SPEC §3.1, §3.4, §4.2): arrays serialised as PHP
 * serialises them, the author as a string of digits, and TEC's code for a missing login. The flow is the one of a
 * CSV-to-calendar sync tool: it creates a venue once, finds it again by comparing its own user id as a string, and
 * creates, updates and clears events with terms sent as objects and as PHP form keys.
 */
describe('clients written for TEC (SPEC §3.1, §3.4, §4.2)', () => {
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

  const names = (terms: { name: string }[]) => terms.map((term) => term.name);
  const created = async (path: string, json: Record<string, unknown>) => {
    const reply = await t.request('POST', path, { token: editor.token, json });
    expect(reply.status).toBe(201);
    return reply.body;
  };
  const form = (fields: [string, string][]) => ({ type: 'application/x-www-form-urlencoded', body: new URLSearchParams(fields).toString() });

  it('takes categories and tags sent as JSON objects on create and update; {} is none', async () => {
    const music = await created(CATEGORIES, { name: 'Music' });
    const event = await created(EVENTS, { title: 'Object terms', ...DATES, categories: { '0': music.id, '1': 'jazz' }, tags: { id: 'late' } });
    expect(names(event.categories)).toEqual(['Music', 'jazz']);
    expect(names(event.tags)).toEqual(['late']);

    const byId = await t.request('PATCH', `${EVENTS}/${event.id}`, { token: editor.token, json: { categories: { id: music.id } } });
    expect(byId.status).toBe(200);
    expect(names(byId.body.categories)).toEqual(['Music']);
    expect(names(byId.body.tags)).toEqual(['late']);

    const cleared = await t.request('PUT', `${EVENTS}/${event.id}`, { token: editor.token, json: { categories: {}, tags: {} } });
    expect(cleared.status).toBe(200);
    expect([cleared.body.categories, cleared.body.tags]).toEqual([[], []]);

    const unknown = await t.request('POST', EVENTS, { token: editor.token, json: { title: 'Unknown term', ...DATES, categories: { '0': 999 } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): categories',
      data: { status: 400, params: { categories: 'must name existing categories; unknown ids: 999' } },
    });
    const nested = await t.request('POST', EVENTS, { token: editor.token, json: { title: 'Nested', ...DATES, tags: { '0': { id: 1 } } } });
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): tags',
      data: { status: 400, params: { tags: 'must be a list of term ids, slugs or names' } },
    });
    // Neither refused write left anything behind.
    const listed = await t.request('GET', `${EVENTS}?start_date=2030-01-01&end_date=2030-12-31`);
    expect(listed.body.events.map((item: { title: string }) => item.title)).toEqual(['Object terms']);
  });

  it('takes PHP form keys (categories[0]=5) in form bodies and in the query string', async () => {
    const music = await created(CATEGORIES, { name: 'Music' });
    const fromForm = await t.request('POST', EVENTS, {
      token: editor.token,
      raw: form([['title', 'Form terms'], ['start_date', DATES.start_date], ['end_date', DATES.end_date], ['categories[0]', String(music.id)], ['categories[1]', 'jazz'], ['tags[0]', 'late']]),
    });
    expect(fromForm.status).toBe(201);
    expect(names(fromForm.body.categories)).toEqual(['Music', 'jazz']);
    expect(names(fromForm.body.tags)).toEqual(['late']);

    const updated = await t.request('POST', `${EVENTS}/${fromForm.body.id}`, { token: editor.token, raw: form([['categories[id]', String(music.id)]]) });
    expect(updated.status).toBe(200);
    expect(names(updated.body.categories)).toEqual(['Music']);

    const query = new URLSearchParams([['title', 'Query terms'], ['start_date', DATES.start_date], ['end_date', DATES.end_date], ['tags[0]', 'late'], ['tags[1]', 'early']]);
    const fromQuery = await t.request('POST', `${EVENTS}?${query}`, { token: editor.token });
    expect(fromQuery.status).toBe(201);
    expect(names(fromQuery.body.tags)).toEqual(['late', 'early']);

    // A list filter sent the same way filters as its comma-separated form does.
    const filtered = await t.request('GET', `${EVENTS}?start_date=2030-01-01&end_date=2030-12-31&categories%5B0%5D=music`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.events.map((item: { title: string }) => item.title)).toEqual(['Form terms']);
    expect(filtered.body.rest_url).toBe(`${API}/events?per_page=10&strict_dates=false&start_date=2030-01-01%2000%3A00%3A00&end_date=2030-12-31%2023%3A59%3A59&categories=music&page=1`);
  });

  it('answers author as a string of digits everywhere, and takes it as one on writes', async () => {
    const mine = String(editor.id);
    const venue = await created(VENUES, { venue: 'Hall', author: mine });
    const organizer = await created(ORGANIZERS, { organizer: 'Acme', author: mine });
    const event = await created(EVENTS, { title: 'Synced', ...DATES, author: mine, venue: venue.id, organizer: [organizer.id] });
    expect([venue.author, organizer.author, event.author, event.venue.author, event.organizer[0].author]).toEqual([mine, mine, mine, mine, mine]);

    // The sync tool looks its venue up again and recognises it by comparing the author with its own id as text.
    const venues = await t.request('GET', `${VENUES}?search=Hall`, { token: editor.token });
    expect(venues.status).toBe(200);
    expect(venues.body.venues.filter((item: { venue: string; author: string }) => item.venue === 'Hall' && item.author === mine).map((item: { id: number }) => item.id)).toEqual([venue.id]);
    const listed = await t.request('GET', `${EVENTS}?start_date=2030-01-01&end_date=2030-12-31`);
    expect(listed.body.events.map((item: { author: string }) => item.author)).toEqual([mine]);
    const read = await t.request('GET', `${ORGANIZERS}/${organizer.id}`);
    expect(read.body.author).toBe(mine);
  });

  it('answers a write without credentials 401 rest_forbidden, with WWW-Authenticate', async () => {
    for (const [method, path] of [['POST', EVENTS], ['POST', VENUES], ['DELETE', `${EVENTS}/1`]]) {
      const reply = await t.request(method, path, method === 'DELETE' ? {} : { json: { title: 'X' } });
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toBe('Bearer realm="calendar"');
      expect(reply.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    }
  });
});
