import { Clock, SeriesHorizon } from '@calendar/event';
import ICAL from 'ical.js';
import { startTestApp, startTwoInstances, TestApp } from './support/test-app';

/*
 * Recurring events (SPEC §13): a series is its head and an event per further occurrence within the horizon, each
 * an ordinary event for every route, list filter and feed.
 */

const NS = '/wp-json/calendar/events/v1';
const EVENTS = `${NS}/events`;
const ALL = 'start_date=2027-01-01&end_date=2030-12-31&per_page=100';

interface Item {
  id: number;
  title: string;
  slug: string;
  status: string;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  cost: string;
  post_parent: number;
  recurrence: string[];
  venue: { id: number } | [];
  categories: { id: number; count: number }[];
}

/** What the tests compare of an event: its place in the series and the fields a series writes. */
const brief = (event: Item) => [event.title, event.start_date, event.end_date, event.slug];

describe('recurring events (SPEC §13)', () => {
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

  const send = (method: string, path: string, json: Record<string, unknown>) => t.request(method, path, { token: editor.token, json });
  const create = async (body: Record<string, unknown>): Promise<Item> => {
    const reply = await send('POST', EVENTS, body);
    expect([reply.status, reply.body.code]).toEqual([201, undefined]);
    return reply.body;
  };
  /** The occurrences of a series, in order, as the list gives them to its editor. */
  const occurrences = async (head: number, query = ''): Promise<Item[]> => {
    const reply = await t.request('GET', `${EVENTS}?post_parent=${head}&${ALL}&status=publish,draft,private,pending${query}`, { token: editor.token });
    expect(reply.status).toBe(200);
    return reply.body.events;
  };
  const eventCount = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM events'))[0].n);

  it('writes a weekly series at the same wall-clock time on both sides of the DST changes, with the head\'s fields', async () => {
    const music = (await send('POST', `${NS}/categories`, { name: 'Music' })).body;
    const head = await create({
      title: 'Jazz club',
      start_date: '2027-03-16 19:00',
      end_date: '2027-03-16 21:30',
      timezone: 'Europe/Paris',
      cost: '10',
      categories: [music.id],
      venue: { venue: 'Cave', city: 'Paris' },
      recurrence: ['rrule:freq=weekly;count=4;byday=tu'],
    });
    expect([head.post_parent, head.recurrence, brief(head)]).toEqual([0, ['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU'], ['Jazz club', '2027-03-16 19:00:00', '2027-03-16 21:30:00', 'jazz-club']]);
    const series = await occurrences(head.id);
    expect(series.map((event) => [...brief(event), event.utc_start_date, event.post_parent, event.recurrence, event.cost, (event.venue as { id: number }).id])).toEqual([
      ['Jazz club', '2027-03-23 19:00:00', '2027-03-23 21:30:00', 'jazz-club-2027-03-23', '2027-03-23 18:00:00', head.id, ['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU'], '10', (head.venue as { id: number }).id],
      ['Jazz club', '2027-03-30 19:00:00', '2027-03-30 21:30:00', 'jazz-club-2027-03-30', '2027-03-30 17:00:00', head.id, ['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU'], '10', (head.venue as { id: number }).id],
      ['Jazz club', '2027-04-06 19:00:00', '2027-04-06 21:30:00', 'jazz-club-2027-04-06', '2027-04-06 17:00:00', head.id, ['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU'], '10', (head.venue as { id: number }).id],
    ]);
    // Occurrences are events for every filter and count.
    const byCategory = await t.request('GET', `${EVENTS}?categories=${music.id}&${ALL}`);
    expect([byCategory.status, byCategory.body.total, byCategory.body.events.map((event: Item) => event.start_date)]).toEqual([
      200,
      4,
      ['2027-03-16 19:00:00', '2027-03-23 19:00:00', '2027-03-30 19:00:00', '2027-04-06 19:00:00'],
    ]);
    const category = await t.request('GET', `${NS}/categories/${music.id}`);
    expect([category.status, category.body.count]).toEqual([200, 4]);
    const single = await t.request('GET', `${EVENTS}/by-slug/jazz-club-2027-03-30`);
    expect([single.status, single.body.id, single.body.json_ld.startDate]).toEqual([200, series[1].id, '2027-03-30T19:00:00+02:00']);
  });

  it('counts occurrences as events for venues with upcoming events and for hidden empty terms', async () => {
    // A series that began two weeks ago: its head is past, its later occurrences are not.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const tag = (await send('POST', `${NS}/tags`, { name: 'Weekly' })).body;
    const head = await create({ title: 'Running club', start_date: `${day(-14)} 07:00`, end_date: `${day(-14)} 08:00`, timezone: 'UTC', tags: [tag.id], venue: { venue: 'Park' }, recurrence: 'RRULE:FREQ=WEEKLY;COUNT=5' });
    const venueId = (head.venue as { id: number }).id;
    const upcoming = await t.request('GET', `${NS}/venues?only_with_upcoming=true`);
    expect([upcoming.status, upcoming.body.venues.map((venue: { id: number }) => venue.id)]).toEqual([200, [venueId]]);
    const tags = await t.request('GET', `${NS}/tags?hide_empty=true`);
    expect([tags.status, tags.body.tags.map((term: { id: number; count: number }) => [term.id, term.count])]).toEqual([200, [[tag.id, 5]]]);
    const listed = await t.request('GET', `${EVENTS}?tags=${tag.id}`);
    expect([listed.status, listed.body.events.map((event: Item) => event.start_date)]).toEqual([200, [`${day(0)} 07:00:00`, `${day(7)} 07:00:00`, `${day(14)} 07:00:00`]]);
  });

  it.each([
    ['America/New_York', '2027-03-09 19:00', ['2027-03-10 00:00:00', '2027-03-16 23:00:00']],
    ['Australia/Sydney', '2027-03-30 19:00', ['2027-03-30 08:00:00', '2027-04-06 09:00:00']],
  ])('keeps %s series at their local time across its DST change', async (timezone, start, utc) => {
    const head = await create({ title: 'Weekly', start_date: start, end_date: start, timezone, recurrence: 'RRULE:FREQ=WEEKLY;COUNT=2' });
    const [second] = await occurrences(head.id);
    expect([head.utc_start_date, second.utc_start_date, second.start_date.slice(11)]).toEqual([...utc, '19:00:00']);
  });

  it.each([
    [['RRULE:FREQ=HOURLY'], 'FREQ must be one of DAILY, WEEKLY, MONTHLY, YEARLY'],
    [['RRULE:FREQ=WEEKLY;BYHOUR=9'], 'RRULE part BYHOUR is not supported; supported: FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, WKST'],
    [['RRULE:FREQ=WEEKLY;BYDAY=WE'], 'the event start must be the first occurrence of the RRULE (move start_date onto the rule, or add it as an RDATE)'],
    [['DTSTART:20270316T190000Z'], 'each line must be RRULE:..., RDATE...:... or EXDATE...:... (RFC 5545); got "DTSTART:20270316T190000Z"'],
    [[7], 'must be a list of RFC 5545 lines (RRULE:..., RDATE..., EXDATE...), or one string of such lines; empty for none'],
  ])('refuses the recurrence %j with a 400 naming it, and writes nothing', async (recurrence, message) => {
    const before = await eventCount();
    const reply = await send('POST', EVENTS, { title: 'Bad', start_date: '2027-03-16 19:00', end_date: '2027-03-16 20:00', recurrence, venue: { venue: 'New hall' } });
    expect([reply.status, reply.body]).toEqual([400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): recurrence', data: { status: 400, params: { recurrence: message } } }]);
    expect(await eventCount()).toBe(before);
    expect((await t.request('GET', `${NS}/venues`)).body.total ?? 0).toBe(0);
  });

  it('writes a head update to every occurrence, except the fields an occurrence changed on its own', async () => {
    const head = await create({ title: 'Yoga', start_date: '2027-05-03 08:00', end_date: '2027-05-03 09:00', timezone: 'UTC', cost: '5', recurrence: ['RRULE:FREQ=DAILY;COUNT=4'] });
    const [first, second, third] = await occurrences(head.id);
    // The second occurrence gets a title of its own, the third its own time.
    expect((await send('PATCH', `${EVENTS}/${second.id}`, { title: 'Yoga (outdoors)' })).status).toBe(200);
    expect((await send('PATCH', `${EVENTS}/${third.id}`, { start_date: '2027-05-05 10:00', end_date: '2027-05-05 11:00' })).status).toBe(200);
    // The head changes title, cost and time: each occurrence follows in what it did not change.
    const updated = await send('PATCH', `${EVENTS}/${head.id}`, { title: 'Morning yoga', cost: '7', start_date: '2027-05-03 07:30', end_date: '2027-05-03 08:45' });
    expect([updated.status, brief(updated.body)]).toEqual([200, ['Morning yoga', '2027-05-03 07:30:00', '2027-05-03 08:45:00', 'yoga']]);
    const series = await occurrences(head.id);
    expect(series.map((event) => [event.id, ...brief(event), event.cost])).toEqual([
      [first.id, 'Morning yoga', '2027-05-04 07:30:00', '2027-05-04 08:45:00', 'yoga-2027-05-04', '7'],
      [second.id, 'Yoga (outdoors)', '2027-05-05 07:30:00', '2027-05-05 08:45:00', 'yoga-2027-05-05', '7'],
      [third.id, 'Morning yoga', '2027-05-05 10:00:00', '2027-05-05 11:00:00', 'yoga-2027-05-06', '7'],
    ]);
    // Texts detach per language: a French title of its own stays when the head is renamed in English.
    const french = await send('PATCH', `/fr${EVENTS}/${first.id}`, { title: 'Yoga du matin' });
    expect([french.status, french.body.title, french.body.slug]).toEqual([200, 'Yoga du matin', 'yoga-du-matin']);
    expect((await send('PATCH', `${EVENTS}/${head.id}`, { title: 'Sunrise yoga' })).status).toBe(200);
    const [inFrench, inEnglish] = await Promise.all([t.request('GET', `/fr${EVENTS}/${first.id}`), t.request('GET', `${EVENTS}/${first.id}`)]);
    expect([inFrench.body.title, inFrench.body.slug, inEnglish.body.title, inEnglish.body.slug]).toEqual(['Yoga du matin', 'yoga-du-matin', 'Sunrise yoga', 'yoga-2027-05-04']);
    // An occurrence belongs to its series: its rule and parent are the head's.
    const refused = await send('PATCH', `${EVENTS}/${first.id}`, { recurrence: 'RRULE:FREQ=WEEKLY', post_parent: 0 });
    expect([refused.status, refused.body.data.params]).toEqual([400, { recurrence: `is the series' own: this event is an occurrence of event ${head.id}; update that one` }]);
  });

  it('regenerates on a new rule: occurrences off it are removed for good, edited ones trashed', async () => {
    const head = await create({ title: 'Choir', start_date: '2027-06-01 18:00', end_date: '2027-06-01 19:00', timezone: 'UTC', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'] });
    const [first, second, third] = await occurrences(head.id);
    expect((await send('PATCH', `${EVENTS}/${third.id}`, { cost: '3' })).status).toBe(200);
    const updated = await send('PATCH', `${EVENTS}/${head.id}`, { recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=2'] });
    expect([updated.status, updated.body.recurrence]).toEqual([200, ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=2']]);
    expect((await occurrences(head.id)).map((event) => [event.id, event.start_date, event.status])).toEqual([[second.id, '2027-06-15 18:00:00', 'publish']]);
    expect((await t.request('GET', `${EVENTS}/${first.id}`)).status).toBe(404);
    const edited = await t.request('GET', `${EVENTS}/${third.id}`, { token: editor.token });
    expect([edited.status, edited.body.status, edited.body.cost]).toEqual([200, 'trash', '3']);
    // No rule at all: a single event again.
    const single = await send('PATCH', `${EVENTS}/${head.id}`, { recurrence: '' });
    expect([single.status, single.body.recurrence]).toEqual([200, []]);
    expect(await occurrences(head.id)).toEqual([]);
    expect((await t.request('GET', `${EVENTS}/${second.id}`)).status).toBe(404);
    // The edited occurrence left in the trash is an event of its own in its feed.
    const feed = await t.request('GET', `${EVENTS}/${third.id}/ics`, { token: editor.token });
    const vevents = new ICAL.Component(ICAL.parse(feed.text)).getAllSubcomponents('vevent');
    expect([feed.status, vevents.map((vevent) => [vevent.getFirstPropertyValue('uid'), vevent.hasProperty('rrule'), vevent.getFirstPropertyValue('status')])]).toEqual([
      200,
      [[`${third.id}@calendar.test`, false, 'CANCELLED']],
    ]);
  });

  it('excludes a deleted occurrence until it is restored, and trashes and restores a series with its head', async () => {
    const head = await create({ title: 'Market', start_date: '2027-07-03 09:00', end_date: '2027-07-03 13:00', timezone: 'UTC', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'] });
    const [first, second, third] = await occurrences(head.id);
    const deleted = await send('DELETE', `${EVENTS}/${second.id}`, {});
    expect([deleted.status, deleted.body.status]).toEqual([200, 'trash']);
    // A head update does not bring it back.
    expect((await send('PATCH', `${EVENTS}/${head.id}`, { title: 'Farmers market' })).status).toBe(200);
    expect((await occurrences(head.id)).map((event) => [event.id, event.title])).toEqual([
      [first.id, 'Farmers market'],
      [third.id, 'Farmers market'],
    ]);
    // The head takes the series to the trash and back; the occurrence deleted on its own stays out.
    expect((await send('DELETE', `${EVENTS}/${head.id}`, {})).status).toBe(200);
    const anonymous = await t.request('GET', `${EVENTS}?post_parent=${head.id}&${ALL}`);
    expect([anonymous.status, anonymous.body.total]).toEqual([200, 0]);
    expect((await t.request('GET', `${EVENTS}/${first.id}`)).body.code).toBe('event-no-longer-available');
    expect((await send('PATCH', `${EVENTS}/${head.id}`, { status: 'publish' })).status).toBe(200);
    expect((await occurrences(head.id)).map((event) => [event.id, event.title, event.status])).toEqual([
      [first.id, 'Farmers market', 'publish'],
      [third.id, 'Farmers market', 'publish'],
    ]);
    // Restoring the occurrence brings its date back, with the head's current fields.
    const restored = await send('PATCH', `${EVENTS}/${second.id}`, { status: 'publish' });
    expect([restored.status, restored.body.status, restored.body.title]).toEqual([200, 'publish', 'Farmers market']);
    expect((await send('PATCH', `${EVENTS}/${head.id}`, { title: 'Market day' })).status).toBe(200);
    expect((await occurrences(head.id)).map((event) => [event.id, event.title])).toEqual([
      [first.id, 'Market day'],
      [second.id, 'Market day'],
      [third.id, 'Market day'],
    ]);
  });

  it('gives the series as one VEVENT with its rule and exclusions, plus overrides, that ical.js expands to the list', async () => {
    const head = await create({ title: 'Salsa', start_date: '2027-03-16 19:00', end_date: '2027-03-16 21:00', timezone: 'Europe/Paris', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;VALUE=DATE:20270330'] });
    // 30 March is excluded by the rule; 6 April is deleted, 23 March moved to 20:00.
    const [first, second] = await occurrences(head.id);
    expect((await send('DELETE', `${EVENTS}/${second.id}`, {})).status).toBe(200);
    expect((await send('PATCH', `${EVENTS}/${first.id}`, { title: 'Salsa night', start_date: '2027-03-23 20:00', end_date: '2027-03-23 22:00' })).status).toBe(200);
    const listed = [head, ...(await occurrences(head.id))].filter((event) => event.status === 'publish');
    for (const id of [head.id, first.id]) {
      const reply = await t.request('GET', `${EVENTS}/${id}/ics`);
      expect([reply.status, reply.headers['content-type']]).toEqual([200, 'text/calendar; charset=utf-8']);
      ICAL.TimezoneService.reset();
      const calendar = new ICAL.Component(ICAL.parse(reply.text));
      for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
      const vevents = calendar.getAllSubcomponents('vevent');
      expect(vevents.map((vevent) => [vevent.getFirstPropertyValue('uid'), vevent.getFirstProperty('recurrence-id') ? 'override' : 'master'])).toEqual([
        [`${head.id}@calendar.test`, 'master'],
        [`${head.id}@calendar.test`, 'override'],
      ]);
      const master = new ICAL.Event(vevents[0], { strictExceptions: true, exceptions: [vevents[1]] });
      const expanded: [string, number][] = [];
      const iterator = master.iterator();
      for (let next = iterator.next(); next; next = iterator.next()) {
        const details = master.getOccurrenceDetails(next);
        expanded.push([details.item.summary, details.startDate.toJSDate().getTime()]);
      }
      expect(expanded).toEqual(listed.map((event) => [event.title, Date.parse(`${event.utc_start_date.replace(' ', 'T')}Z`)]));
    }
    expect(listed.map((event) => event.start_date)).toEqual(['2027-03-16 19:00:00', '2027-03-23 20:00:00', '2027-04-13 19:00:00']);
  });

  it('refuses more than 1,000 occurrences within the horizon', async () => {
    const values = Array.from({ length: 1000 }, (_, index) => new Date(Date.parse('2027-03-17T00:00:00Z') + index * 3_600_000).toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z');
    const reply = await send('POST', EVENTS, { title: 'Many', start_date: '2027-03-16 19:00', end_date: '2027-03-16 20:00', recurrence: [`RDATE:${values.join(',')}`] });
    expect([reply.status, reply.body.data.params]).toEqual([400, { recurrence: 'the series has 1001 occurrences within the horizon; at most 1000 are allowed' }]);
    expect(await eventCount()).toBe(0);
  });
});

describe('the horizon of endless series (SPEC §13)', () => {
  let instances: Awaited<ReturnType<typeof startTwoInstances>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    instances = await startTwoInstances();
    ({ a, b } = instances);
  });
  afterAll(() => instances.close());

  const setClock = (at: string) => {
    for (const app of [a, b]) app.get(Clock).now = () => new Date(at);
  };
  /** Every Tuesday at 19:00 UTC from the first one up to `until`. */
  const tuesdays = (until: string) => {
    const starts: string[] = [];
    for (let at = Date.parse('2027-01-05T19:00:00Z'); at <= Date.parse(until); at += 7 * 86_400_000) starts.push(new Date(at).toISOString().slice(0, 19).replace('T', ' '));
    return starts;
  };

  it('writes occurrences two years ahead, and two instances moving the horizon on at once write each once', async () => {
    setClock('2027-01-05T10:00:00Z');
    const editor = await a.user('editor', 'horizon-editor');
    const created = await a.request('POST', EVENTS, { token: editor.token, json: { title: 'Weekly', start_date: '2027-01-05 19:00', end_date: '2027-01-05 20:00', timezone: 'UTC', recurrence: ['RRULE:FREQ=WEEKLY'] } });
    expect(created.status).toBe(201);
    const series = async () => (await a.dataSource.query('SELECT start_utc FROM events ORDER BY start_utc')).map((row: { start_utc: string | Date }) => new Date(row.start_utc instanceof Date ? row.start_utc : `${row.start_utc.replace(' ', 'T')}Z`).toISOString().slice(0, 19).replace('T', ' '));
    expect(await series()).toEqual(tuesdays('2029-01-05T10:00:00Z'));
    // A day later the horizon has moved on to a Saturday, short of the next Tuesday: nothing is written, and the
    // data version (what every kept answer is checked against) stays where it was.
    const writes = async () => Number((await a.dataSource.query('SELECT SUM(writes) AS writes FROM version_slots'))[0].writes);
    const before = await writes();
    setClock('2027-01-06T10:00:00Z');
    expect([await a.get(SeriesHorizon).extend(), await writes()]).toEqual([0, before]);
    // Past that Tuesday's start (19:00 two years on), its occurrence is written.
    setClock('2027-01-12T19:00:00Z');
    expect(await a.get(SeriesHorizon).extend()).toBe(1);
    expect(await series()).toEqual(tuesdays('2029-01-12T19:00:00Z'));
    // A year later, both instances move the horizon on at the same moment.
    setClock('2028-01-05T10:00:00Z');
    const added = await Promise.all([a.get(SeriesHorizon).extend(), b.get(SeriesHorizon).extend()]);
    expect(added[0] + added[1]).toBe(tuesdays('2030-01-05T10:00:00Z').length - tuesdays('2029-01-12T19:00:00Z').length);
    expect(await series()).toEqual(tuesdays('2030-01-05T10:00:00Z'));
    // Nothing is due until time moves on again.
    expect(await a.get(SeriesHorizon).extend()).toBe(0);
    const listed = await b.request('GET', `${EVENTS}?post_parent=${created.body.id}&start_date=2029-12-01&end_date=2030-12-31`);
    expect([listed.status, listed.body.events.map((event: { start_date: string }) => event.start_date)]).toEqual([200, ['2029-12-04 19:00:00', '2029-12-11 19:00:00', '2029-12-18 19:00:00', '2029-12-25 19:00:00', '2030-01-01 19:00:00']]);
  });

  it('counts the occurrences the horizon adds later in their terms', async () => {
    setClock('2027-01-05T10:00:00Z');
    const editor = await a.user('editor', 'horizon-terms-editor');
    const created = await a.request('POST', EVENTS, {
      token: editor.token,
      json: { title: 'Weekly jazz', start_date: '2027-01-05 19:00', end_date: '2027-01-05 20:00', timezone: 'UTC', recurrence: ['RRULE:FREQ=WEEKLY'], categories: ['Jazz'], tags: ['weekly'] },
    });
    expect(created.status).toBe(201);
    const [jazz, weekly] = [created.body.categories[0].id, created.body.tags[0].id];
    const window = 'start_date=2027-01-01&end_date=2031-12-31&per_page=1';
    /** The term's count beside the number of events its filter lists. */
    const counted = async () => {
      const category = await b.request('GET', `${NS}/categories/${jazz}`);
      const tag = await b.request('GET', `${NS}/tags/${weekly}`);
      const byCategory = await b.request('GET', `${EVENTS}?${window}&categories=${jazz}`);
      const byTag = await b.request('GET', `${EVENTS}?${window}&tags=${weekly}`);
      return [category.body.count, byCategory.body.total, tag.body.count, byTag.body.total];
    };
    const before = tuesdays('2029-01-05T10:00:00Z').length;
    expect(await counted()).toEqual([before, before, before, before]);
    // Sixty days on, the horizon adds the Tuesdays of those sixty days two years ahead.
    setClock('2027-03-06T10:00:00Z');
    const added = await a.get(SeriesHorizon).extend();
    const after = tuesdays('2029-03-06T10:00:00Z').length;
    expect([added, await counted()]).toEqual([after - before, [after, after, after, after]]);
  });
});
