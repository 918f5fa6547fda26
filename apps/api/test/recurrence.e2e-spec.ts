import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock, SeriesHorizon } from '@calendar/event';
import { createTestDatabase, TestDatabase } from '@calendar/shared/testing';
import ICAL from 'ical.js';
import { API, ENGINE, ORIGIN, startTestApp, TestApp } from './support/test-app';

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

  it('refuses more than 1,000 occurrences within the horizon', async () => {
    const values = Array.from({ length: 1000 }, (_, index) => new Date(Date.parse('2027-03-17T00:00:00Z') + index * 3_600_000).toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z');
    const reply = await send('POST', EVENTS, { title: 'Many', start_date: '2027-03-16 19:00', end_date: '2027-03-16 20:00', recurrence: [`RDATE:${values.join(',')}`] });
    expect([reply.status, reply.body.data.params]).toEqual([400, { recurrence: 'the series has 1001 occurrences within the horizon; at most 1000 are allowed' }]);
    expect(await eventCount()).toBe(0);
  });
});

export { ICAL, ORIGIN, API, Clock, SeriesHorizon, createTestDatabase, mkdtempSync, rmSync, tmpdir, join, ENGINE };
export type { TestDatabase };
