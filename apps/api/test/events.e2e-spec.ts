import { CacheRegistry } from '@calendar/shared/cache';
import { queryCounter } from '@calendar/shared/database';
import { EventPresenter, EventRepository } from '@calendar/event';
import { DateTime } from 'luxon';
import { API, ENGINE, ORIGIN, startTestApp, TestApp } from './support/test-app';

const EVENTS = '/wp-json/calendar/events/v1/events';
const VENUES = '/wp-json/calendar/events/v1/venues';
const ORGANIZERS = '/wp-json/calendar/events/v1/organizers';
const CATEGORIES = '/wp-json/calendar/events/v1/categories';
const TAGS = '/wp-json/calendar/events/v1/tags';
const WINDOW = 'start_date=2030-01-01&end_date=2031-12-31';

describe('events (SPEC §4)', () => {
  let t: TestApp;
  let editor: { id: number; token: string };
  let author: { id: number; token: string };
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = await t.user('editor');
    author = await t.user('author');
  });

  const post = async (path: string, body: Record<string, unknown>, token = editor.token) => {
    const reply = await t.request('POST', path, { token, json: body });
    expect(reply.status).toBe(201);
    return reply.body;
  };
  const event = (body: Record<string, unknown>, token?: string) =>
    post(EVENTS, { start_date: '2030-06-01 19:00', end_date: '2030-06-01 22:00', ...body }, token);
  const titles = async (query: string, token?: string) =>
    (await t.request('GET', `${EVENTS}?${query}`, { token })).body.events?.map((item: { title: string }) => item.title);

  describe('the event object and dates', () => {
    it('creates an event with the keys of §4.1, its links and JSON-LD', async () => {
      const venue = await post(VENUES, { venue: 'Main Hall', city: 'Paris', country: 'France', geo_lat: 48.86, geo_lng: 2.35 });
      const reply = await t.request('POST', EVENTS, {
        token: editor.token,
        json: {
          title: 'Jazz Night',
          description: '<p>Live <b>jazz</b></p>',
          excerpt: 'Jazz all night',
          start_date: '2030-12-05 19:00',
          end_date: '2030-12-05 22:30',
          timezone: 'Europe/Paris',
          cost: '10 – 20 €',
          website: 'https://jazz.example',
          categories: ['Music'],
          tags: 'outdoor',
          venue: venue.id,
          organizer: [{ organizer: 'Acme' }, { organizer: 'Blue Note' }],
          featured: 'yes',
          date_utc: '2030-01-01 08:00:00',
          image: 'https://img.example/jazz.png',
        },
      });
      expect(reply.status).toBe(201);
      const self = `${API}/events/1`;
      expect(reply.headers['location']).toBe(self);
      const body = reply.body;
      expect(Object.keys(body)).toEqual([
        'id', 'global_id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'rest_url', 'title', 'description', 'excerpt', 'slug', 'image',
        'all_day', 'start_date', 'start_date_details', 'end_date', 'end_date_details', 'utc_start_date', 'utc_start_date_details', 'utc_end_date', 'utc_end_date_details',
        'timezone', 'timezone_abbr', 'cost', 'cost_details', 'website', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'categories', 'tags',
        'venue', 'organizer', 'post_parent', 'recurrence', 'lang', 'translations', 'json_ld',
      ]);
      expect(body).toMatchObject({
        id: 1,
        global_id: 'calendar.test?id=1',
        author: String(editor.id),
        status: 'publish',
        date: '2030-01-01 08:00:00',
        date_utc: '2030-01-01 08:00:00',
        url: `${ORIGIN}/event/jazz-night/`,
        rest_url: self,
        title: 'Jazz Night',
        description: '<p>Live <b>jazz</b></p>',
        excerpt: 'Jazz all night',
        slug: 'jazz-night',
        image: { id: 1, url: 'https://img.example/jazz.png', extension: 'png', sizes: {} },
        all_day: false,
        start_date: '2030-12-05 19:00:00',
        start_date_details: { year: '2030', month: '12', day: '05', hour: '19', minutes: '00', seconds: '00' },
        end_date: '2030-12-05 22:30:00',
        end_date_details: { year: '2030', month: '12', day: '05', hour: '22', minutes: '30', seconds: '00' },
        utc_start_date: '2030-12-05 18:00:00',
        utc_start_date_details: { year: '2030', month: '12', day: '05', hour: '18', minutes: '00', seconds: '00' },
        utc_end_date: '2030-12-05 21:30:00',
        utc_end_date_details: { year: '2030', month: '12', day: '05', hour: '21', minutes: '30', seconds: '00' },
        timezone: 'Europe/Paris',
        timezone_abbr: 'CET',
        cost: '10 – 20 €',
        cost_details: { currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: [10, 20] },
        website: 'https://jazz.example',
        show_map: true,
        show_map_link: true,
        hide_from_listings: false,
        sticky: false,
        featured: true,
        post_parent: 0,
        recurrence: [],
        lang: 'en',
        translations: { en: { slug: 'jazz-night', title: 'Jazz Night', rest_url: self } },
      });
      expect(body.categories.map((term: { name: string; count: number }) => [term.name, term.count])).toEqual([['Music', 1]]);
      expect(body.tags.map((term: { slug: string; taxonomy: string }) => [term.slug, term.taxonomy])).toEqual([['outdoor', 'post_tag']]);
      expect(body.venue).toMatchObject({ id: venue.id, venue: 'Main Hall', city: 'Paris' });
      expect(body.venue.json_ld).toBeUndefined();
      expect(body.organizer.map((organizer: { organizer: string }) => organizer.organizer)).toEqual(['Acme', 'Blue Note']);
      expect(body.json_ld).toEqual({
        '@context': 'https://schema.org',
        '@type': 'Event',
        name: 'Jazz Night',
        description: 'Jazz all night',
        url: `${ORIGIN}/event/jazz-night/`,
        startDate: '2030-12-05T19:00:00+01:00',
        endDate: '2030-12-05T22:30:00+01:00',
        eventStatus: 'https://schema.org/EventScheduled',
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        location: {
          '@type': 'Place',
          name: 'Main Hall',
          url: `${ORIGIN}/venue/main-hall/`,
          address: { '@type': 'PostalAddress', streetAddress: '', addressLocality: 'Paris', addressRegion: '', postalCode: '', addressCountry: 'France' },
          geo: { '@type': 'GeoCoordinates', latitude: 48.86, longitude: 2.35 },
        },
        organizer: [
          { '@type': 'Organization', name: 'Acme', url: `${ORIGIN}/organizer/acme/` },
          { '@type': 'Organization', name: 'Blue Note', url: `${ORIGIN}/organizer/blue-note/` },
        ],
        offers: { '@type': 'Offer', price: 10, url: `${ORIGIN}/event/jazz-night/` },
        image: 'https://img.example/jazz.png',
      });
      const read = await t.request('GET', `${EVENTS}/1`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ ...body, modified: read.body.modified, modified_utc: read.body.modified_utc });
      const list = await t.request('GET', `${EVENTS}?${WINDOW}`);
      expect(list.body.events[0].json_ld).toBeUndefined();
    });

    it('reads dates in the event zone, the service zone, with offsets, all day and in English', async () => {
      const summer = await event({ title: 'Summer', start_date: '2030-07-01 19:30', end_date: '2030-07-01 21:00', timezone: 'America/New_York' });
      expect([summer.utc_start_date, summer.timezone_abbr]).toEqual(['2030-07-01 23:30:00', 'EDT']);
      const utc = await event({ title: 'Service zone' });
      expect([utc.timezone, utc.utc_start_date, utc.timezone_abbr]).toEqual(['UTC', '2030-06-01 19:00:00', 'UTC']);
      const offset = await event({ title: 'Offset', start_date: '2030-05-01T19:30:00+02:00', end_date: '2030-05-01T23:00:00+02:00', timezone: 'Asia/Hong_Kong' });
      expect([offset.start_date, offset.utc_start_date, offset.timezone_abbr]).toEqual(['2030-05-02 01:30:00', '2030-05-01 17:30:00', 'HKT']);
      const fixed = await event({ title: 'Fixed', timezone: 'UTC+5:30' });
      expect([fixed.utc_start_date, fixed.timezone_abbr]).toEqual(['2030-06-01 13:30:00', 'UTC+5:30']);
      const allDay = await event({ title: 'Fair', start_date: '2030-03-30 15:00', end_date: '2030-03-31 10:00', all_day: true, timezone: 'Europe/Paris' });
      expect([allDay.start_date, allDay.end_date, allDay.utc_start_date, allDay.utc_end_date]).toEqual([
        '2030-03-30 00:00:00',
        '2030-03-31 23:59:59',
        '2030-03-29 23:00:00',
        '2030-03-31 21:59:59',
      ]);
      const tomorrow = await event({ title: 'Tomorrow', start_date: 'tomorrow 9am', end_date: 'tomorrow 11am', timezone: 'Europe/Paris' });
      const expected = DateTime.now().setZone('Europe/Paris').plus({ days: 1 }).set({ hour: 9, minute: 0, second: 0 }).toFormat('yyyy-MM-dd HH:mm:ss');
      expect(tomorrow.start_date).toBe(expected);
    });

    it('refuses missing, invalid and reversed dates and writes nothing', async () => {
      const missing = await t.request('POST', EVENTS, { token: editor.token, json: { description: 'x' } });
      expect(missing.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): end_date, start_date, title', data: { status: 400, params: ['end_date', 'start_date', 'title'] } });
      const invalid = await t.request('POST', EVENTS, { token: editor.token, json: { title: 'X', start_date: 'someday', end_date: '2030-01-01', timezone: 'Mars/Base' } });
      expect(invalid.status).toBe(400);
      expect(Object.keys(invalid.body.data.params)).toEqual(['start_date', 'timezone']);
      const reversed = await t.request('POST', EVENTS, { token: editor.token, json: { title: 'X', start_date: '2030-01-02', end_date: '2030-01-01', venue: [{ venue: 'Created then rolled back' }] } });
      expect(reversed.status).toBe(400);
      expect(reversed.body).toEqual({ code: 'rest_invalid_param', message: 'Invalid parameter(s): end_date', data: { status: 400, params: { end_date: 'must not be before start_date' } } });
      expect((await t.request('GET', `${EVENTS}?${WINDOW}`, { token: editor.token })).body.total).toBe(0);
      expect((await t.request('GET', VENUES, { token: editor.token })).body.total).toBe(0);
    });
  });

  describe('writes', () => {
    it('updates partially; empty values clear; the date rules apply to the result', async () => {
      const created = await event({ title: 'Concert', cost: '$15', website: 'https://c.example', featured: true });
      for (const [method, title] of [['POST', 'A'], ['PUT', 'B'], ['PATCH', 'C']]) {
        const reply = await t.request(method, `${EVENTS}/${created.id}`, { token: editor.token, json: { title } });
        expect(reply.status).toBe(200);
        expect(reply.body).toMatchObject({ title, cost: '$15', website: 'https://c.example', featured: true, start_date: '2030-06-01 19:00:00', status: 'publish' });
      }
      const computed = await t.request('PATCH', `${EVENTS}/${created.id}`, {
        token: editor.token,
        json: { utc_start_date: '2001-01-01 00:00:00', timezone_abbr: 'XYZ', cost_details: { values: [1] }, url: 'https://elsewhere.example', rest_url: 'x' },
      });
      expect(computed.body).toMatchObject({ utc_start_date: '2030-06-01 19:00:00', timezone_abbr: 'UTC', cost_details: { values: [15] }, url: `${ORIGIN}/event/concert/` });
      const cleared = await t.request('PATCH', `${EVENTS}/${created.id}`, { token: editor.token, json: { cost: '', website: '' } });
      expect(cleared.body).toMatchObject({ cost: '', website: '', cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] } });
      const moved = await t.request('PATCH', `${EVENTS}/${created.id}`, { token: editor.token, json: { timezone: 'Europe/Paris' } });
      expect(moved.body).toMatchObject({ start_date: '2030-06-01 19:00:00', utc_start_date: '2030-06-01 17:00:00' });
      const reversed = await t.request('PATCH', `${EVENTS}/${created.id}`, { token: editor.token, json: { end_date: '2030-05-01' } });
      expect(reversed.body.data.params).toEqual({ end_date: 'must not be before start_date' });
    });

    it('links terms by id, slug or name, and creates names only for those who manage terms', async () => {
      const music = await post(CATEGORIES, { name: 'Music' });
      const created = await event({ title: 'Gig', categories: [music.id, 'Theatre'], tags: 'open-air,Night' });
      expect(created.categories.map((term: { name: string }) => term.name)).toEqual(['Music', 'Theatre']);
      expect(created.tags.map((term: { slug: string }) => term.slug)).toEqual(['open-air', 'night']);
      const refused = await t.request('POST', EVENTS, { token: author.token, json: { title: 'X', start_date: '2030-01-01', end_date: '2030-01-01', tags: 'Brand new' } });
      expect(refused.status).toBe(400);
      expect(refused.body.data.params).toEqual({ tags: 'must name existing tags; unknown: Brand new' });
      const unknownId = await t.request('POST', EVENTS, { token: editor.token, json: { title: 'X', start_date: '2030-01-01', end_date: '2030-01-01', categories: [999] } });
      expect(unknownId.body.data.params).toEqual({ categories: 'must name existing categories; unknown ids: 999' });
      const byAuthor = await event({ title: 'Known', categories: 'music' }, author.token);
      expect(byAuthor.categories.map((term: { id: number }) => term.id)).toEqual([music.id]);
      const none = await t.request('PATCH', `${EVENTS}/${created.id}`, { token: editor.token, json: { categories: '' } });
      expect(none.body.categories).toEqual([]);
      expect(none.body.tags.length).toBe(2);
    });

    it('links venues and organizers by id, {id} or new records; empty unlinks; unknown ids are 400', async () => {
      const hall = await post(VENUES, { venue: 'Hall' });
      const club = await post(VENUES, { venue: 'Club' });
      const acme = await post(ORGANIZERS, { organizer: 'Acme' });
      const two = await event({ title: 'Two venues', venue: [hall.id, { id: club.id }], organizer: [{ organizer: 'Zed' }, acme.id] });
      expect(two.venue.map((venue: { venue: string }) => venue.venue)).toEqual(['Hall', 'Club']);
      expect(two.organizer.map((organizer: { organizer: string }) => organizer.organizer)).toEqual(['Zed', 'Acme']);
      const unlinked = await t.request('PATCH', `${EVENTS}/${two.id}`, { token: editor.token, json: { venue: [], organizer: 0 } });
      expect([unlinked.body.venue, unlinked.body.organizer]).toEqual([[], []]);
      const unknown = await t.request('PATCH', `${EVENTS}/${two.id}`, { token: editor.token, json: { venue: [hall.id, 404] } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.data.params).toEqual({ venue: 'must list existing venue ids; unknown: 404' });
      const badNested = await t.request('PATCH', `${EVENTS}/${two.id}`, { token: editor.token, json: { organizer: [{ email: 'x' }] } });
      expect(badNested.status).toBe(400);
      expect(badNested.body.data.params).toEqual({ organizer: 'item 1: email must be a valid e-mail address, or empty to clear; organizer required' });
    });

    it('gives contributors drafts and pending events, and slugs per language', async () => {
      const contributor = await t.user('contributor');
      expect((await event({ title: 'Draft' }, contributor.token)).status).toBe('draft');
      expect((await event({ title: 'Asked', status: 'publish' }, contributor.token)).status).toBe('pending');
      const first = await event({ title: 'Same' });
      const second = await event({ title: 'Same' });
      expect([first.slug, second.slug]).toEqual(['same', 'same-2']);
      const taken = await t.request('POST', EVENTS, { token: editor.token, json: { title: 'Other', slug: 'same', start_date: '2030-01-01', end_date: '2030-01-01' } });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('slug-exists');
      const french = await t.request('PATCH', `/fr${EVENTS}/${first.id}`, { token: editor.token, json: { title: 'Pareil', excerpt: 'Résumé' } });
      expect(french.body).toMatchObject({ title: 'Pareil', slug: 'pareil', excerpt: 'Résumé', lang: 'fr' });
      expect((await t.request('GET', `${EVENTS}/by-slug/pareil`)).body).toMatchObject({ id: first.id, title: 'Same', excerpt: '' });
    });
  });

  describe('protection and trash', () => {
    it('protects events with a password on reads and blanks them in lists', async () => {
      const venue = await post(VENUES, { venue: 'Hall' });
      const created = await event({ title: 'Private party', description: 'Secret', cost: '5', venue: venue.id, categories: 'Fun' });
      const set = await t.request('PATCH', `${EVENTS}/${created.id}`, { token: editor.token, json: { password: 'open sesame' } });
      expect(set.status).toBe(200);
      expect(JSON.stringify(set.body)).not.toContain('sesame');
      const locked = await t.request('GET', `${EVENTS}/${created.id}`);
      expect(locked.status).toBe(403);
      expect(locked.body).toEqual({ code: 'event-password-protected', message: 'The event is protected by a password.', data: { status: 403 } });
      expect((await t.request('GET', `${EVENTS}/${created.id}?password=wrong`)).status).toBe(403);
      const unlocked = await t.request('GET', `${EVENTS}/${created.id}?password=${encodeURIComponent('open sesame')}`);
      expect(unlocked.status).toBe(200);
      expect(unlocked.body).toMatchObject({ description: 'Secret', cost: '5' });
      const bySlugLocked = await t.request('GET', `${EVENTS}/by-slug/private-party?password=wrong`);
      expect(bySlugLocked.status).toBe(403);
      expect(bySlugLocked.body).toEqual({ code: 'event-password-protected', message: 'The event is protected by a password.', data: { status: 403 } });
      const bySlug = await t.request('GET', `${EVENTS}/by-slug/private-party?password=${encodeURIComponent('open sesame')}`);
      expect(bySlug.status).toBe(200);
      expect(bySlug.body).toMatchObject({ id: created.id, description: 'Secret', cost: '5' });
      const listed = (await t.request('GET', `${EVENTS}?${WINDOW}`)).body.events[0];
      expect(listed).toMatchObject({ title: 'Private party', description: '', excerpt: '', cost: '', website: '', image: false, categories: [], tags: [], venue: [], organizer: [] });
      expect(listed.cost_details.values).toEqual([]);
      expect((await t.request('GET', `${EVENTS}?${WINDOW}`, { token: editor.token })).body.events[0].description).toBe('Secret');
      await t.request('PATCH', `${EVENTS}/${created.id}`, { token: editor.token, json: { password: '' } });
      expect((await t.request('GET', `${EVENTS}/${created.id}`)).status).toBe(200);
    });

    it('trashes, answers 410 again, hides from others, and restores losslessly', async () => {
      const created = await event({ title: 'Old', categories: 'Music' });
      const trashed = await t.request('DELETE', `${EVENTS}/${created.id}`, { token: editor.token });
      expect(trashed.body).toMatchObject({ status: 'trash', categories: [expect.objectContaining({ name: 'Music' })] });
      expect((await t.request('DELETE', `${EVENTS}/by-slug/old`, { token: editor.token })).body).toEqual({
        code: 'event-is-in-trash',
        message: 'The event is already in the trash.',
        data: { status: 410 },
      });
      const hidden = await t.request('GET', `${EVENTS}/${created.id}`);
      expect(hidden.body).toEqual({ code: 'event-no-longer-available', message: 'The event is in the trash.', data: { status: 403 } });
      expect((await t.request('GET', `${CATEGORIES}`)).body.total).toBe(0);
      const restored = await t.request('PATCH', `${EVENTS}/${created.id}`, { token: editor.token, json: { status: 'publish' } });
      expect(restored.body).toMatchObject({ status: 'publish', categories: [expect.objectContaining({ name: 'Music', count: 1 })] });
      const draft = await event({ title: 'Draft', status: 'draft' });
      expect((await t.request('GET', `${EVENTS}/${draft.id}`)).body.code).toBe('event-not-accessible');
    });

    it('counts a category\'s published events through publication, unpublication and moves, not other edits', async () => {
      const draft = await event({ title: 'Counted', status: 'draft', categories: 'Music' });
      const counts = async () => ((await t.request('GET', `${CATEGORIES}?hide_empty=false&orderby=name`)).body.categories as { name: string; count: number }[]).map((term) => `${term.name} ${term.count}`);
      expect(await counts()).toEqual(['Music 0']);
      const write = async (json: Record<string, unknown>) => expect((await t.request('PATCH', `${EVENTS}/${draft.id}`, { token: editor.token, json })).status).toBe(200);
      await write({ title: 'Counted again' });
      expect(await counts()).toEqual(['Music 0']);
      await write({ status: 'publish' });
      expect(await counts()).toEqual(['Music 1']);
      await write({ title: 'Counted once more' });
      expect(await counts()).toEqual(['Music 1']);
      await write({ categories: ['Theatre'] });
      expect(await counts()).toEqual(['Music 0', 'Theatre 1']);
      await write({ status: 'draft' });
      expect(await counts()).toEqual(['Music 0', 'Theatre 0']);
    });

    it('leaves trashed venues out for readers who may not see the trash', async () => {
      const venue = await post(VENUES, { venue: 'Hall' });
      const created = await event({ title: 'At the hall', venue: venue.id });
      await t.request('DELETE', `${VENUES}/${venue.id}`, { token: editor.token });
      expect((await t.request('GET', `${EVENTS}/${created.id}`)).body.venue).toEqual([]);
      expect((await t.request('GET', `${EVENTS}/${created.id}`, { token: editor.token })).body.venue).toMatchObject({ id: venue.id, status: 'trash' });
      await t.request('PATCH', `${VENUES}/${venue.id}`, { token: editor.token, json: { status: 'publish' } });
      expect((await t.request('GET', `${EVENTS}/${created.id}`)).body.venue).toMatchObject({ id: venue.id });
    });
  });

  describe('lists', () => {
    it('defaults to events from today to two years ahead, ordered by start', async () => {
      const at = (days: number) => DateTime.now().toUTC().plus({ days }).toFormat('yyyy-MM-dd HH:mm:ss');
      await event({ title: 'Later', start_date: at(30), end_date: at(30) });
      await event({ title: 'Sooner', start_date: at(3), end_date: at(3) });
      await event({ title: 'Past', start_date: at(-3), end_date: at(-3) });
      await event({ title: 'Far', start_date: at(800), end_date: at(800) });
      const reply = await t.request('GET', EVENTS);
      expect(reply.body.events.map((item: { title: string }) => item.title)).toEqual(['Sooner', 'Later']);
      const today = DateTime.now().toUTC().toFormat('yyyy-MM-dd');
      expect(reply.body.rest_url).toMatch(new RegExp(`^${API}/events\\?per_page=10&strict_dates=false&start_date=${today}%2000%3A00%3A00&end_date=\\d{4}-\\d{2}-\\d{2}%2023%3A59%3A59&page=1$`));
    });

    it('keeps events inside the window (containment), whole days unless strict', async () => {
      await event({ title: 'Inside', start_date: '2030-06-10 10:00', end_date: '2030-06-10 12:00' });
      await event({ title: 'Overlapping', start_date: '2030-06-09 22:00', end_date: '2030-06-10 02:00' });
      await event({ title: 'Evening', start_date: '2030-06-10 20:00', end_date: '2030-06-10 23:00' });
      expect(await titles('start_date=2030-06-10&end_date=2030-06-10')).toEqual(['Inside', 'Evening']);
      expect(await titles('start_date=2030-06-10 09:00&end_date=2030-06-10 13:00&strict_dates=true')).toEqual(['Inside']);
      expect(await titles('ends_after=2030-06-10 01:00&starts_before=2030-06-10 11:00&strict_dates=1')).toEqual(['Overlapping', 'Inside']);
      expect(await titles('starts_after=2030-06-09')).toEqual(['Inside', 'Evening']);
      const evening = (await t.request('GET', `${EVENTS}?start_date=2030-06-10&end_date=2030-06-10`)).body.events[1].id;
      expect(await titles(`include=${evening}&start_date=2031-01-01`)).toEqual(['Evening']);
    });

    it('searches words and word starts with accents folded, Chinese runs, HTML texts, and counts exactly (SPEC §10.1)', async () => {
      await event({ title: 'Café des Arts' });
      await event({ title: 'Workshop', description: '<p>Learn <b>pottery</b> &amp; glazing</p>' });
      const chinese = await t.request('POST', `/zh-hans${EVENTS}`, { token: editor.token, json: { title: '古典音乐会', start_date: '2030-06-02 19:00', end_date: '2030-06-02 21:00' } });
      expect(chinese.status).toBe(201);
      const search = async (words: string) => {
        const reply = await t.request('GET', `${EVENTS}?${WINDOW}&search=${encodeURIComponent(words)}`);
        expect(reply.status).toBe(200);
        expect([words, reply.headers['x-wp-total'], reply.body.total]).toEqual([words, String(reply.body.events.length), reply.body.events.length]);
        return reply.body.events.map((item: { title: string }) => item.title);
      };
      expect(await search('cafe')).toEqual(['Café des Arts']);
      expect(await search('CAFÉ arts')).toEqual(['Café des Arts']);
      expect(await search('caf')).toEqual(['Café des Arts']);
      expect(await search('afe')).toEqual([]);
      expect(await search('cafe pottery')).toEqual([]);
      expect(await search('pott glaz')).toEqual(['Workshop']);
      expect(await search('amp')).toEqual([]);
      expect(await search('音乐')).toEqual(['古典音乐会']);
      expect(await search('乐会')).toEqual(['古典音乐会']);
      expect(await search('古')).toEqual(['古典音乐会']);
      expect(await search('典乐')).toEqual([]);
      expect(await search('!!!')).toEqual([]);
    });

    it('searches the text presented in the request language, with the original as fallback, and sees writes at once', async () => {
      const night = await event({ title: 'Summer night', description: '<p>Open air</p>' });
      expect((await t.request('PATCH', `/fr${EVENTS}/${night.id}`, { token: editor.token, json: { title: 'Nuit d’été' } })).status).toBe(200);
      const found = async (language: string, words: string) =>
        (await t.request('GET', `${language}${EVENTS}?${WINDOW}&search=${encodeURIComponent(words)}`)).body.events.map((item: { id: number }) => item.id);
      expect(await found('/fr', 'nuit ete')).toEqual([night.id]);
      expect(await found('/fr', 'summer')).toEqual([]);
      expect(await found('/fr', 'open')).toEqual([night.id]);
      expect(await found('', 'nuit')).toEqual([]);
      expect(await found('', 'summer')).toEqual([night.id]);
      expect(await found('/zh-hans', 'summer air')).toEqual([night.id]);
      expect((await t.request('GET', `${EVENTS}?${WINDOW}&search=nuit&translation_language=fr`)).body.events.map((item: { id: number }) => item.id)).toEqual([night.id]);

      expect((await t.request('PATCH', `${EVENTS}/${night.id}`, { token: editor.token, json: { title: 'Winter night', description: '' } })).status).toBe(200);
      expect(await found('', 'winter')).toEqual([night.id]);
      expect(await found('', 'summer')).toEqual([]);
      expect(await found('', 'open')).toEqual([]);
      expect(await found('/zh-hans', 'winter')).toEqual([night.id]);
      expect(await found('/fr', 'winter')).toEqual([]);
      expect(await found('/fr', 'nuit')).toEqual([night.id]);
    });

    it('filters by search, terms with descendants, venue, organizer, featured, parent and geography', async () => {
      const music = await post(CATEGORIES, { name: 'Music' });
      const jazz = await post(CATEGORIES, { name: 'Jazz', parent: music.id });
      const paris = await post(VENUES, { venue: 'Paris hall', geo_lat: 48.8566, geo_lng: 2.3522 });
      const lyon = await post(VENUES, { venue: 'Lyon hall', geo_lat: 45.764, geo_lng: 4.8357 });
      const nowhere = await post(VENUES, { venue: 'No coordinates' });
      const acme = await post(ORGANIZERS, { organizer: 'Acme' });
      const parent = await event({ title: 'Festival', start_date: '2030-06-01 09:00', categories: [music.id], venue: paris.id, featured: true, description: 'Big summer festival' });
      await event({ title: 'Jazz set', start_date: '2030-06-01 10:00', categories: [jazz.id], tags: 'late', venue: lyon.id, organizer: acme.id, post_parent: parent.id });
      await event({ title: 'Lecture', start_date: '2030-06-01 11:00', venue: nowhere.id });
      await event({ title: 'Hidden', start_date: '2030-06-01 12:00', hide_from_listings: true });
      expect(await titles(`${WINDOW}`)).toEqual(['Festival', 'Jazz set', 'Lecture']);
      expect(await titles(`${WINDOW}&search=summer%20big`)).toEqual(['Festival']);
      expect(await titles(`${WINDOW}&categories=music`)).toEqual(['Festival', 'Jazz set']);
      expect(await titles(`${WINDOW}&categories=${jazz.id}`)).toEqual(['Jazz set']);
      expect(await titles(`${WINDOW}&tags=late`)).toEqual(['Jazz set']);
      expect(await titles(`${WINDOW}&venue=${lyon.id},${nowhere.id}`)).toEqual(['Jazz set', 'Lecture']);
      expect(await titles(`${WINDOW}&organizer=${acme.id}`)).toEqual(['Jazz set']);
      expect(await titles(`${WINDOW}&featured=false`)).toEqual(['Jazz set', 'Lecture']);
      expect(await titles(`${WINDOW}&post_parent=${parent.id}`)).toEqual(['Jazz set']);
      expect(await titles(`${WINDOW}&geoloc=true`)).toEqual(['Festival', 'Jazz set']);
      expect(await titles(`${WINDOW}&geoloc=false`)).toEqual(['Lecture']);
      expect(await titles(`${WINDOW}&geoloc_lat=48.85&geoloc_lng=2.35`)).toEqual(['Festival']);
      expect(await titles(`${WINDOW}&geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=500`)).toEqual(['Festival', 'Jazz set']);
      expect(await titles(`${WINDOW}&ticketed=false`)).toEqual(['Festival', 'Jazz set', 'Lecture']);
      const hidden = (await t.request('GET', `${EVENTS}?${WINDOW}&status=publish`)).body.total;
      expect(hidden).toBe(3);
    });

    it('rejects what it cannot match with 400s that name the parameter', async () => {
      const reply = await t.request('GET', `${EVENTS}?categories=nope&venue=77&organizer=78&post_parent=79&geoloc_lat=10`);
      expect(reply.status).toBe(400);
      expect(reply.body.data.params).toEqual({
        categories: 'must name existing categories by id or slug; unknown: nope',
        geoloc_lng: 'must be given together with the other coordinate',
        organizer: 'must list existing organizer ids; unknown: 78',
        post_parent: 'must be the id of an existing event',
        venue: 'must list existing venue ids; unknown: 77',
      });
      const ticketed = await t.request('GET', `${EVENTS}?ticketed=true`);
      expect(ticketed.body).toEqual({ code: 'tickets-not-supported', message: 'This service sells no tickets; ticketed=true matches nothing.', data: { status: 400 } });
      expect((await t.request('GET', `${EVENTS}?status=draft`)).body.data.params).toEqual({ status: 'must be publish for callers who are not logged in' });
      expect((await t.request('GET', `${EVENTS}?geoloc_radius=0&geoloc_lat=1&geoloc_lng=1`)).body.data.params).toEqual({ geoloc_radius: 'must be a number greater than 0' });
    });

    it('shows each role what it may see and pages with links that keep the filters', async () => {
      await event({ title: 'Mine', status: 'draft' }, author.token);
      await event({ title: 'Theirs', status: 'draft' });
      for (const title of ['A', 'B', 'C']) await event({ title });
      expect((await titles(WINDOW)).sort()).toEqual(['A', 'B', 'C']);
      expect((await titles(WINDOW, author.token)).sort()).toEqual(['A', 'B', 'C', 'Mine']);
      expect((await titles(`${WINDOW}&status=draft`, editor.token)).sort()).toEqual(['Mine', 'Theirs']);
      const page = await t.request('GET', `${EVENTS}?${WINDOW}&per_page=2&page=2`);
      const link = (n: number) => `${API}/events?per_page=2&strict_dates=false&start_date=2030-01-01%2000%3A00%3A00&end_date=2031-12-31%2023%3A59%3A59&page=${n}`;
      expect(page.body).toMatchObject({ rest_url: link(2), previous_rest_url: link(1), total: 3, total_pages: 2 });
      expect((await t.request('GET', `${EVENTS}?${WINDOW}&per_page=2&page=3`)).body.code).toBe('event-archive-page-not-found');
    });

    it('writes a new event without removing or reading rows it cannot have yet; an update removes and reads them', async () => {
      const kinds = (statements: string[]) => ({
        searchRowsRemoved: statements.some((sql) => sql.startsWith('DELETE FROM search_tokens')),
        talliesRead: statements.some((sql) => sql.startsWith('SELECT event_id, audiences, day, length, filter_keys FROM event_tallies')),
        termLinksRemoved: statements.some((sql) => /^DELETE FROM [`"]event_terms[`"]/.test(sql)),
        // The start and listing state the venue links carry (`listingStateUpdate`: MySQL joins the events, SQLite reads them per row).
        venueStartsWritten: statements.some((sql) => /^UPDATE event_venues (l INNER JOIN events e|AS l SET \(start_utc)/.test(sql)),
        venueCellsWritten: statements.some((sql) => sql.startsWith('UPDATE event_venues SET geo_cell')),
        // Search rows written again carry their event's listing state from their insert: none is updated.
        searchStatesWritten: statements.some((sql) => sql.startsWith('UPDATE search_tokens')),
        isolationSet: statements.some((sql) => sql.startsWith('SET TRANSACTION')),
        slotCountRead: statements.some((sql) => sql.startsWith('SELECT writes FROM version_slots')),
        // Rows inserted are not read back (TypeORM's reload of columns with defaults), and a term row is locked once.
        rowsReadBack: statements.some((sql, at) => /^INSERT INTO [`"]event/.test(sql) && /^SELECT .* AS [`"]Event\w*Entity_/.test(statements[at + 1] ?? '')),
        linkListsWritten: statements.some((sql) => sql.startsWith('UPDATE events SET venue_ids')),
        termLocks: statements.filter((sql) => sql.startsWith('SELECT id FROM terms WHERE id IN') && sql.endsWith('FOR UPDATE')).length,
        // What the writer of a created event knows (its links, its texts, its row for the totals per day) is not read back.
        linksReadBack: statements.some((sql) => sql.startsWith("SELECT 'v' AS kind")),
        textsReadBack: statements.some((sql) => sql.startsWith('SELECT e.id, e.original_lang, e.start_utc, ')),
        rowReadForTotals: statements.some((sql) => sql.startsWith('SELECT r.id, r.status, r.hide_from_listings')),
        countedTermsReadBack: statements.some((sql) => sql.startsWith('SELECT id, status, term_ids, counted_term_ids FROM events')),
        // The change rows of the write and of the terms whose counts it moved: one statement.
        changeRowStatements: statements.filter((sql) => sql.startsWith('INSERT INTO changes')).length,
      });
      const venue = await post(VENUES, { venue: 'Hall' });
      let id = 0;
      const created = await queryCounter.record(async () => {
        id = (await event({ title: 'Alpha' })).id;
      });
      // On MySQL the sessions run their transactions at READ COMMITTED already, and moving the version gives its count.
      const plainCreate = {
        searchRowsRemoved: false,
        talliesRead: false,
        termLinksRemoved: false,
        venueStartsWritten: false,
        venueCellsWritten: false,
        searchStatesWritten: false,
        isolationSet: false,
        slotCountRead: ENGINE === 'sqlite',
        rowsReadBack: false,
        linkListsWritten: false,
        termLocks: 0,
        linksReadBack: false,
        textsReadBack: false,
        rowReadForTotals: false,
        countedTermsReadBack: false,
        changeRowStatements: 1,
      };
      expect(kinds(created)).toEqual(plainCreate);
      // Created with a venue and a category: the link lists are written from what the write gave, its links carry
      // its start from their insert, and what it counted for is known.
      const linked = await queryCounter.record(async () => {
        await event({ title: 'Gamma', categories: 'Music', venue: venue.id });
      });
      const withLinks = { venueCellsWritten: true, linkListsWritten: true, termLocks: ENGINE === 'mysql' ? 1 : 0 };
      expect(kinds(linked)).toEqual({ ...plainCreate, ...withLinks });
      const updated = await queryCounter.record(async () => {
        expect((await t.request('POST', `${EVENTS}/${id}`, { token: editor.token, json: { title: 'Beta', categories: 'Music', venue: venue.id } })).status).toBe(200);
      });
      expect(kinds(updated)).toEqual({
        ...plainCreate,
        ...withLinks,
        venueStartsWritten: true,
        searchRowsRemoved: true,
        talliesRead: true,
        termLinksRemoved: true,
        linksReadBack: true,
        textsReadBack: true,
        rowReadForTotals: true,
        countedTermsReadBack: true,
      });
      // What the writes left is what lists find: the new title only, each event counted once, in its category and at its venue.
      const list = async (query: string) => {
        // A window of its own: totals kept by this test are not the ones later tests count statements of.
        const reply = await t.request('GET', `${EVENTS}?start_date=2030-06-01&end_date=2030-06-30&${query}`);
        return [reply.status, reply.body.total, reply.body.events?.map((item: { title: string }) => item.title)];
      };
      expect([await list('search=alpha'), await list('search=beta'), await list('search=gamma'), await list('x=1'), await list('categories=music'), await list(`venue=${venue.id}`)]).toEqual([
        [200, 0, []],
        [200, 1, ['Beta']],
        [200, 1, ['Gamma']],
        [200, 2, ['Beta', 'Gamma']],
        [200, 2, ['Beta', 'Gamma']],
        [200, 2, ['Beta', 'Gamma']],
      ]);
    });

    it('runs the same number of queries whatever per_page is', async () => {
      const venue = await post(VENUES, { venue: 'Hall' });
      const organizer = await post(ORGANIZERS, { organizer: 'Acme' });
      for (let i = 0; i < 12; i++) await event({ title: `E${i}`, venue: venue.id, organizer: organizer.id, categories: 'Music', tags: `t${i}`, image: `https://img.example/${i}.png` });
      // Each request a URL of its own (an ignored parameter), so that no answer comes from the response cache.
      const queriesFor = async (perPage: number, tag: string) => {
        const before = queryCounter.count;
        const reply = await t.request('GET', `${EVENTS}?${WINDOW}&per_page=${perPage}&tag=${tag}`);
        expect(reply.body.events).toHaveLength(perPage);
        return queryCounter.count - before;
      };
      // A cold list counts its rows and renders the venues, organizers and terms it embeds; the total and those
      // renderings are then kept for this data version (COUNT_MEMO_ENTRIES, FRAGMENT_CACHE_MB). The events'
      // own renderings are kept when made a second time (RENDER_CACHE_MB, admission on second sight).
      const cold = await queriesFor(12, 'cold');
      expect(cold).toBeLessThanOrEqual(12);
      await queriesFor(12, 'warm');
      const one = await queriesFor(1, 'a');
      expect(await queriesFor(12, 'b')).toBe(one);
      expect(one).toBeLessThan(cold);
      expect(one).toBeLessThanOrEqual(12);
    });

    it('counts a category list and its window (which decides how the page is read) in one statement of the totals per day', async () => {
      for (const [title, categories] of [['Gig', 'Music'], ['Talk', 'Words'], ['Show', 'Music']]) await event({ title, categories });
      const music = (await t.request('GET', `${CATEGORIES}?slug=music`)).body.categories[0].id;
      const repository = t.get(EventRepository);
      const counts = jest.spyOn(repository, 'countAtVersion');
      const perDay = jest.spyOn(repository, 'perDayTotals');
      // The page's rows, then the record of its event (not kept): how earlier lists fared does not decide it here.
      const apart = jest.spyOn(t.get(EventPresenter), 'listsRenderMost').mockReturnValue(false);
      try {
        const before = queryCounter.count;
        const reply = await t.request('GET', `${EVENTS}?${WINDOW}&categories=${music}&per_page=1&page=2`);
        expect([reply.status, reply.body.total, reply.body.events.map((shown: { title: string }) => shown.title)]).toEqual([200, 2, ['Show']]);
        // One statement of the totals per day on both engines: on MySQL it also gives the window's total, which
        // decides whether the page is read by walking the index (a statement of its own before).
        expect([counts.mock.calls.length, perDay.mock.calls.length, queryCounter.count - before]).toEqual([1, 0, 6]);
      } finally {
        counts.mockRestore();
        perDay.mockRestore();
        apart.mockRestore();
      }
    });

    it('reads a single event in one statement once it and what it embeds are kept, and sees a renamed venue at once', async () => {
      const venue = await post(VENUES, { venue: 'Hall' });
      const { id } = await event({ title: 'Single', venue: venue.id, categories: 'Music' });
      const read = async (tag: string) => {
        const before = queryCounter.count;
        const reply = await t.request('GET', `${EVENTS}/${id}?tag=${tag}`);
        expect(reply.status).toBe(200);
        return { statements: queryCounter.count - before, venue: reply.body.venue.venue };
      };
      await read('cold');
      // The head, its links and the data versions in one statement; the rest is kept under those versions.
      expect(await read('warm')).toEqual({ statements: 1, venue: 'Hall' });
      expect((await t.request('POST', `${VENUES}/${venue.id}`, { token: editor.token, json: { venue: 'Great Hall' } })).status).toBe(200);
      expect((await read('after')).venue).toBe('Great Hall');
    });

    it('reads an event it keeps no rendering of with its record in one statement, and answers as when kept', async () => {
      const { id } = await event({ title: 'Solo' });
      // Ids start again after each test's reset: renderings kept of an earlier test's event are let go.
      t.get(CacheRegistry).empty('event renderings');
      const read = async (path: string) => {
        const before = queryCounter.count;
        const reply = await t.request('GET', path);
        return { status: reply.status, statements: queryCounter.count - before, title: reply.body.title, body: reply.body };
      };
      // Nothing is kept of it in French: read with its record; rendered a second time, it is kept.
      const fresh = await read(`/fr${EVENTS}/${id}?tag=fresh`);
      const again = await read(`/fr${EVENTS}/${id}?tag=again`);
      const kept = await read(`/fr${EVENTS}/${id}?tag=kept`);
      expect(fresh).toEqual({ status: 200, statements: 1, title: 'Solo', body: kept.body });
      expect([again.statements, again.body, kept.statements]).toEqual([1, kept.body, 1]);
      expect(t.get(CacheRegistry).stats().find((stats) => stats.name === 'event renderings')?.entries).toBe(1);
      // Written since: what is kept is of an older revision, so the head is read, then the record.
      expect((await t.request('POST', `${EVENTS}/${id}`, { token: editor.token, json: { title: 'Duo' } })).status).toBe(200);
      const written = await read(`/fr${EVENTS}/${id}?tag=written`);
      expect([written.status, written.statements, written.title]).toEqual([200, 2, 'Duo']);
      expect(written.body).toEqual({
        ...kept.body,
        title: 'Duo',
        modified: written.body.modified,
        modified_utc: written.body.modified_utc,
        translations: { en: { ...kept.body.translations.en, title: 'Duo' } },
        json_ld: { ...kept.body.json_ld, name: 'Duo' },
      });
    });
  });

  describe('what venues, organizers and terms learn from events', () => {
    it('counts published events per term and answers the post/event and has_events filters', async () => {
      const hall = await post(VENUES, { venue: 'Hall' });
      const empty = await post(VENUES, { venue: 'Empty' });
      const acme = await post(ORGANIZERS, { organizer: 'Acme' });
      const gig = await event({ title: 'Gig', categories: 'Music', tags: 'loud', venue: hall.id, organizer: acme.id });
      await event({ title: 'Draft', status: 'draft', categories: 'Music' });
      const music = (await t.request('GET', CATEGORIES)).body.categories;
      expect(music.map((term: { name: string; count: number }) => [term.name, term.count])).toEqual([['Music', 1]]);
      expect((await t.request('GET', `${TAGS}?event=${gig.id}`)).body.tags.map((term: { name: string }) => term.name)).toEqual(['loud']);
      expect((await t.request('GET', `${CATEGORIES}?post=${gig.id}&hide_empty=0`)).body.total).toBe(1);
      const venueNames = async (query: string) => (await t.request('GET', `${VENUES}?${query}`)).body.venues.map((venue: { venue: string }) => venue.venue);
      expect(await venueNames(`event=${gig.id}`)).toEqual(['Hall']);
      expect(await venueNames('has_events=true')).toEqual(['Hall']);
      expect(await venueNames('has_events=false')).toEqual(['Empty', 'Hall'].filter((name) => name === 'Empty'));
      expect(await venueNames('only_with_upcoming=true')).toEqual(['Hall']);
      expect((await t.request('GET', `${ORGANIZERS}?event=${gig.id}`)).body.organizers.map((o: { organizer: string }) => o.organizer)).toEqual(['Acme']);
      await t.request('DELETE', `${EVENTS}/${gig.id}`, { token: editor.token });
      expect(await venueNames('has_events=true')).toEqual([]);
      expect((await t.request('GET', CATEGORIES)).body.total).toBe(0);
      expect(empty.venue).toBe('Empty');
      const deleted = await t.request('DELETE', `${CATEGORIES}/${music[0].id}`, { token: editor.token });
      expect(deleted.status).toBe(200);
      expect((await t.request('GET', `${EVENTS}/${gig.id}`, { token: editor.token })).body.categories).toEqual([]);
    });

    it('counts, for only_with_upcoming, the events each caller sees in event lists', async () => {
      const hall = await post(VENUES, { venue: 'Hall' });
      const cellar = await post(VENUES, { venue: 'Cellar' });
      const acme = await post(ORGANIZERS, { organizer: 'Acme' });
      const other = await t.user('author');
      await event({ title: 'Draft gig', status: 'draft', venue: hall.id, organizer: acme.id }, author.token);
      await event({ title: 'Private gig', status: 'private', venue: cellar.id });
      await event({ title: 'Past gig', start_date: '2020-06-01 19:00', end_date: '2020-06-01 22:00', venue: cellar.id });
      const names = async (path: string, token?: string) => {
        const reply = await t.request('GET', `${path}?only_with_upcoming=true`, { token });
        expect(reply.status).toBe(200);
        return reply.body[path === VENUES ? 'venues' : 'organizers'].map((record: { venue?: string; organizer?: string }) => record.venue ?? record.organizer);
      };
      expect(await names(VENUES)).toEqual([]);
      expect(await names(VENUES, other.token)).toEqual([]);
      expect(await names(VENUES, author.token)).toEqual(['Hall']);
      expect(await names(VENUES, editor.token)).toEqual(['Cellar', 'Hall']);
      expect(await names(ORGANIZERS)).toEqual([]);
      expect(await names(ORGANIZERS, author.token)).toEqual(['Acme']);
      expect(await names(ORGANIZERS, editor.token)).toEqual(['Acme']);
    });
  });
});
