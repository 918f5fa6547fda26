import ICAL from 'ical.js';
import { API, FR_API, ORIGIN, Reply, startTestApp, TestApp } from './support/test-app';

/*
 * iCalendar feeds (SPEC §12): every feed is parsed with ical.js (Mozilla's parser) and compared with the JSON answer
 * of the same request: UID, summary and times as instants (through the feed's VTIMEZONEs), across DST changes.
 */

const NS = '/wp-json/calendar/events/v1';
const EVENTS = `${NS}/events`;
const YEAR = 'start_date=2027-01-01&end_date=2027-12-31';

interface Parsed {
  calendar: ICAL.Component;
  events: ICAL.Event[];
}

// X- properties are TEXT unless they say otherwise (RFC 5545 §3.8.8.2): ical.js is told so for X-ALT-DESC.
ICAL.design.defaultSet.property['x-alt-desc'] = { defaultType: 'text' };

/** Parses a feed, registering its zones, as a calendar program would. */
function parse(text: string): Parsed {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent)) };
}

/** The property names of a component, in order. */
const names = (component: ICAL.Component) => component.getAllProperties().map((property) => property.name.toUpperCase());

const instant = (utcWallClock: string) => Date.parse(`${utcWallClock.replace(' ', 'T')}Z`);

describe('iCalendar feeds (SPEC §12)', () => {
  let t: TestApp;
  let editor: { id: number; token: string };
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    ICAL.TimezoneService.reset();
    editor = await t.user('editor');
  });

  const post = async (path: string, body: Record<string, unknown>) => {
    const reply = await t.request('POST', path, { token: editor.token, json: body });
    expect([reply.status, reply.body.code]).toEqual([201, undefined]);
    return reply.body;
  };
  const feed = async (path: string, token?: string): Promise<Reply> => {
    const reply = await t.request('GET', path, { token });
    expect([reply.status, reply.headers['content-type']]).toEqual([200, 'text/calendar; charset=utf-8']);
    return reply;
  };

  it('gives every event of the list, at the same instants, through the zones it declares', async () => {
    const zones: [string, string, string][] = [
      // Both sides of the spring and autumn changes in each zone that has them.
      ['Europe/Paris', '2027-03-27 19:00', '2027-03-28 19:00'],
      ['Europe/Paris', '2027-10-30 19:00', '2027-10-31 19:00'],
      ['America/New_York', '2027-03-13 09:30', '2027-03-14 09:30'],
      ['America/New_York', '2027-11-06 09:30', '2027-11-07 09:30'],
      ['Australia/Sydney', '2027-04-03 20:00', '2027-04-04 20:00'],
      ['Australia/Sydney', '2027-10-02 20:00', '2027-10-03 20:00'],
      ['Asia/Shanghai', '2027-05-01 08:00', '2027-05-02 08:00'],
      ['UTC+5', '2027-06-01 10:00', '2027-06-02 10:00'],
    ];
    for (const [timezone, before, after] of zones) {
      for (const start of [before, after]) {
        await post(EVENTS, { title: `${timezone} ${start}`, start_date: start, end_date: `${start.slice(0, 10)} 23:00`, timezone });
      }
    }
    await post(EVENTS, { title: 'Festival', start_date: '2027-07-14', end_date: '2027-07-15', all_day: true, timezone: 'Europe/Paris' });

    const json = (await t.request('GET', `${EVENTS}?${YEAR}&per_page=50`)).body;
    const reply = await feed(`${EVENTS}/ics?${YEAR}&per_page=50`);
    expect([reply.headers['x-wp-total'], reply.headers['x-wp-totalpages'], reply.headers['x-tec-total'], reply.headers['content-disposition']]).toEqual([
      '17',
      '1',
      '17',
      'inline; filename="events.ics"',
    ]);
    const { calendar, events } = parse(reply.text);
    expect(calendar.getAllSubcomponents('vtimezone').map((zone) => String(zone.getFirstPropertyValue('tzid')))).toEqual(['America/New_York', 'Europe/Paris', 'Australia/Sydney', 'Asia/Shanghai']);
    const seen = events.map((event) => [event.uid, event.summary, event.startDate.isDate ? event.startDate.toString() : event.startDate.toJSDate().getTime(), event.endDate.isDate ? event.endDate.toString() : event.endDate.toJSDate().getTime()]);
    const expected = json.events.map((event: { id: number; title: string; all_day: boolean; start_date: string; end_date: string; utc_start_date: string; utc_end_date: string }) =>
      event.all_day
        ? [`${event.id}@calendar.test`, event.title, '2027-07-14', '2027-07-16']
        : [`${event.id}@calendar.test`, event.title, instant(event.utc_start_date), instant(event.utc_end_date)],
    );
    expect(seen).toEqual(expected);
    // Wall-clock times stay as written across the changes: 19:00 in Paris on both sides of each.
    const paris = events.filter((event) => event.summary.startsWith('Europe/Paris')).map((event) => event.startDate.toString());
    expect(paris).toEqual(['2027-03-27T19:00:00', '2027-03-28T19:00:00', '2027-10-30T19:00:00', '2027-10-31T19:00:00']);
  });

  it('writes the calendar and event properties of §12, escaped, folded at 75 octets, in CRLF lines', async () => {
    const venue = await post(`${NS}/venues`, { venue: 'Salle; Pleyel', address: '252 rue du Faubourg', city: 'Paris', zip: '75008', country: 'France', geo_lat: 48.877, geo_lng: 2.3 });
    const [withMail, withoutMail] = [await post(`${NS}/organizers`, { organizer: 'Orchestre, de Paris', email: 'info@orchestre.test' }), await post(`${NS}/organizers`, { organizer: 'Les Amis' })];
    const title = '古典音乐会 🎻🎺 Concert « Été » — une soirée très longue, avec des amis; et encore 音乐会音乐会音乐会';
    const created = await post(EVENTS, {
      title,
      description: '<p>Line one, with\\backslash</p><p>Line <a href="https://example.test/x">two</a></p>',
      start_date: '2027-06-21 20:00',
      end_date: '2027-06-21 23:00',
      timezone: 'Europe/Paris',
      venue: venue.id,
      organizer: [withMail.id, withoutMail.id],
      categories: 'Classical',
      tags: 'Strings',
      image: 'https://images.test/poster.jpg',
      status: 'private',
    });
    const reply = await feed(`${EVENTS}/${created.id}/ics`, editor.token);
    expect(reply.headers['content-disposition']).toBe(`inline; filename="${created.slug}.ics"`);

    // Lines: CRLF only, at most 75 octets, and no line break inside a UTF-8 character.
    const bytes = Buffer.from(reply.text, 'utf8');
    expect(reply.text.endsWith('\r\n')).toBe(true);
    expect(reply.text.replace(/\r\n/g, '').includes('\n')).toBe(false);
    const physical = bytes.toString('latin1').split('\r\n').slice(0, -1).map((line) => Buffer.from(line, 'latin1'));
    expect(physical.filter((line) => line.length > 75).length).toBe(0);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    expect(physical.map((line) => decoder.decode(line)).join('\r\n')).toBe(reply.text.slice(0, -2));
    expect(physical.filter((line) => line[0] === 0x20).length).toBeGreaterThan(2);

    const { calendar, events } = parse(reply.text);
    expect(names(calendar)).toEqual(['VERSION', 'PRODID', 'CALSCALE', 'METHOD', 'NAME', 'X-WR-CALNAME', 'X-WR-TIMEZONE', 'REFRESH-INTERVAL', 'X-PUBLISHED-TTL']);
    expect(['version', 'calscale', 'method', 'name', 'x-wr-calname', 'x-wr-timezone', 'x-published-ttl'].map((name) => calendar.getFirstPropertyValue(name)?.toString())).toEqual([
      '2.0',
      'GREGORIAN',
      'PUBLISH',
      'calendar.test',
      'calendar.test',
      'UTC',
      'PT1H',
    ]);
    expect(calendar.getFirstPropertyValue('refresh-interval')?.toString()).toBe('PT1H');
    const vevent = events[0].component;
    expect(names(vevent)).toEqual([
      'UID',
      'DTSTAMP',
      'DTSTART',
      'DTEND',
      'SUMMARY',
      'URL',
      'CREATED',
      'LAST-MODIFIED',
      'DESCRIPTION',
      'X-ALT-DESC',
      'LOCATION',
      'GEO',
      'ORGANIZER',
      'CONTACT',
      'CATEGORIES',
      'STATUS',
      'CLASS',
      'IMAGE',
      'TRANSP',
    ]);
    const value = (name: string) => vevent.getFirstPropertyValue(name)?.toString();
    expect(['uid', 'summary', 'url', 'description', 'x-alt-desc', 'location', 'organizer', 'contact', 'status', 'class', 'image', 'transp'].map(value)).toEqual([
      `${created.id}@calendar.test`,
      title,
      created.url,
      'Line one, with\\backslash\n\nLine two [https://example.test/x]',
      created.description,
      'Salle; Pleyel, 252 rue du Faubourg, Paris, 75008, France',
      'mailto:info@orchestre.test',
      'Les Amis',
      'CONFIRMED',
      'PRIVATE',
      'https://images.test/poster.jpg',
      'OPAQUE',
    ]);
    expect(vevent.getFirstProperty('organizer')?.getParameter('cn')).toBe('Orchestre, de Paris');
    expect(vevent.getFirstProperty('x-alt-desc')?.getParameter('fmttype')).toBe('text/html');
    expect([vevent.getFirstProperty('image')?.type, reply.text.includes('\r\nIMAGE;VALUE=URI:https://images.test/poster.jpg\r\n')]).toEqual(['uri', true]);
    expect(vevent.getFirstPropertyValue('geo')).toEqual([48.877, 2.3]);
    expect(vevent.getFirstProperty('categories')?.getValues()).toEqual(['Classical', 'Strings']);
    expect([value('dtstamp'), value('last-modified'), value('created')]).toEqual([
      `${created.modified_utc.replace(' ', 'T')}Z`,
      `${created.modified_utc.replace(' ', 'T')}Z`,
      `${created.date_utc.replace(' ', 'T')}Z`,
    ]);
    expect([vevent.getFirstProperty('dtstart')?.getParameter('tzid'), value('dtstart'), value('dtend')]).toEqual(['Europe/Paris', '2027-06-21T20:00:00', '2027-06-21T23:00:00']);
    // Unfolded, the line holds the title with its comma and semicolon escaped.
    expect(reply.text.replace(/\r\n /g, '')).toContain(`\r\nSUMMARY:${title.replace(/[,;]/g, (c) => `\\${c}`)}\r\n`);
  });

  it('reduces password-protected events, refuses them alone without the password, and marks trashed ones cancelled', async () => {
    const locked = await post(EVENTS, { title: 'Secret gig', description: '<p>Hidden</p>', start_date: '2027-05-01 20:00', end_date: '2027-05-01 23:00', categories: 'Rock' });
    expect((await t.request('POST', `${EVENTS}/${locked.id}`, { token: editor.token, json: { password: 'open sesame' } })).status).toBe(200);
    const list = parse((await feed(`${EVENTS}/ics?${YEAR}`)).text);
    expect(names(list.events[0].component)).toEqual(['UID', 'DTSTAMP', 'DTSTART', 'DTEND', 'SUMMARY', 'URL']);
    expect(list.events[0].summary).toBe('Secret gig');

    const refused = await t.request('GET', `${EVENTS}/${locked.id}/ics`);
    const json = await t.request('GET', `${EVENTS}/${locked.id}`);
    expect([refused.status, refused.body]).toEqual([403, { code: 'event-password-protected', message: 'The event is protected by a password.', data: { status: 403 } }]);
    expect(refused.body).toEqual(json.body);
    const opened = parse((await feed(`${EVENTS}/by-slug/${locked.slug}/ics?password=open%20sesame`)).text);
    expect([opened.events[0].description, opened.events[0].component.getFirstPropertyValue('categories')]).toEqual(['Hidden', 'Rock']);

    await t.request('DELETE', `${EVENTS}/${locked.id}`, { token: editor.token });
    const trashed = parse((await feed(`${EVENTS}/ics?${YEAR}&status=trash`, editor.token)).text);
    expect(trashed.events.map((event) => event.component.getFirstPropertyValue('status'))).toEqual(['CANCELLED']);
  });

  it('answers bad parameters and hidden events with the JSON errors of the list and single routes', async () => {
    const draft = await post(EVENTS, { title: 'Draft', start_date: '2027-05-01 20:00', end_date: '2027-05-01 23:00', status: 'draft' });
    for (const [feedPath, jsonPath] of [
      [`${EVENTS}/ics?featured=maybe&geoloc_lat=1`, `${EVENTS}?featured=maybe&geoloc_lat=1`],
      [`${EVENTS}/ics?categories=nope&start_date=soon`, `${EVENTS}?categories=nope&start_date=soon`],
      [`${EVENTS}/ics?page=3`, `${EVENTS}?page=3`],
      [`${EVENTS}/${draft.id}/ics`, `${EVENTS}/${draft.id}`],
      [`${EVENTS}/by-slug/nothing-here/ics`, `${EVENTS}/by-slug/nothing-here`],
    ]) {
      const [fromFeed, fromJson] = [await t.request('GET', feedPath), await t.request('GET', jsonPath)];
      expect([feedPath, fromFeed.status, fromFeed.headers['content-type'], fromFeed.body]).toEqual([feedPath, fromJson.status, 'application/json; charset=utf-8', fromJson.body]);
    }
    expect((await t.request('GET', `${EVENTS}/ics?per_page=1001`)).body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: { status: 400, params: { per_page: 'must be an integer from 1 to 1000' } },
    });
    // A feed page may hold up to 1,000 events; the list's pages stay at 100.
    expect((await t.request('GET', `${EVENTS}/ics?per_page=1000`)).status).toBe(200);
  });

  it('speaks the language of the base or translation_language, with the fallback of §7, and names the filter', async () => {
    const music = await post(`${NS}/categories`, { name: 'Music' });
    await t.request('POST', `${NS}/categories/${music.id}`, { token: editor.token, json: { name: 'Musique', translation_language: 'fr' } });
    const event = await post(EVENTS, { title: 'Open air', description: '<p>In the park</p>', start_date: '2027-05-01 20:00', end_date: '2027-05-01 23:00', categories: music.id });
    await t.request('POST', `${EVENTS}/${event.id}`, { token: editor.token, json: { title: 'Plein air', translation_language: 'fr' } });
    const untranslated = await post(EVENTS, { title: 'Only English', start_date: '2027-05-02 20:00', end_date: '2027-05-02 23:00', categories: music.id });

    const french = (await feed(`/fr${EVENTS}/ics?${YEAR}&categories=${music.id}`)).text;
    const frenchJson = (await t.request('GET', `/fr${EVENTS}?${YEAR}&categories=${music.id}`)).body;
    const { calendar, events } = parse(french);
    expect(calendar.getFirstPropertyValue('name')).toBe('calendar.test – Musique');
    expect(events.map((item) => [item.summary, item.description, item.component.getFirstPropertyValue('url')])).toEqual([
      ['Plein air', 'In the park', frenchJson.events[0].url],
      ['Only English', null, frenchJson.events[1].url],
    ]);
    expect(frenchJson.events[0].url).toBe(`${ORIGIN}/fr/event/${frenchJson.events[0].slug}/`);
    expect((await feed(`${EVENTS}/ics?${YEAR}&translation_language=fr`)).text).toBe((await feed(`/fr${EVENTS}/ics?${YEAR}`)).text);
    expect(untranslated.title).toBe('Only English');
    expect(FR_API).toBe(`${ORIGIN}/fr${NS}`);
  });

  it('is validated and cached like other reads: ETag, 304, and a write visible at once', async () => {
    const created = await post(EVENTS, { title: 'Before', start_date: '2027-05-01 20:00', end_date: '2027-05-01 23:00', venue: { venue: 'Old hall' } });
    const path = `${EVENTS}/ics?${YEAR}`;
    const first = await feed(path, undefined);
    const again = await t.request('GET', path, { headers: { 'if-none-match': String(first.headers['etag']), accept: 'application/json' } });
    expect([again.status, again.text]).toEqual([304, '']);
    const repeated = await t.request('GET', path, { headers: { accept: 'application/json' } });
    expect([repeated.status, repeated.headers['content-type'], repeated.headers['etag'], repeated.text]).toEqual([200, 'text/calendar; charset=utf-8', first.headers['etag'], first.text]);

    await t.request('POST', `${EVENTS}/${created.id}`, { token: editor.token, json: { title: 'After' } });
    const after = await feed(path);
    expect(parse(after.text).events.map((event) => [event.summary, event.location])).toEqual([['After', 'Old hall']]);
    expect(after.headers['etag']).not.toBe(first.headers['etag']);
    // A write to a linked record changes no event, and shows at once all the same.
    await t.request('POST', `${NS}/venues/${created.venue.id}`, { token: editor.token, json: { venue: 'New hall' } });
    expect(parse((await feed(path)).text).events.map((event) => [event.summary, event.location])).toEqual([['After', 'New hall']]);
    expect(API).toBe(`${ORIGIN}${NS}`);
  });
});
