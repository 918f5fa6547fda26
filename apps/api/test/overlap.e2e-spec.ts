import { DomUtils, parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { startTestApp, TestApp } from './support/test-app';

/*
 * Overlap windows (`ends_after` … `starts_before`) and month grids find every event that overlaps them, whatever
 * it lasts: events of every span class the listing reads apart (at most 6 hours, at most 2 days, longer), with those
 * that end a second after the window opens or just as it opens, compared with a computation made here from what the
 * test wrote, page by page and day by day.
 */

const EVENTS = '/wp-json/calendar/events/v1/events';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Spans on both sides of each class's limit (6 hours, 2 days), and beyond: one longer than a month grid's six weeks, which the grid then reads class by class. */
const SPANS = [HOUR, 6 * HOUR, 6 * HOUR + 1000, 30 * HOUR, 2 * DAY, 2 * DAY + 1000, 20 * DAY, 60 * DAY];
/**
 * The instants events are placed around: each span ends once a second after, once just then. The first opens a
 * window the lists ask for; the second is where the month grid of March 2031 opens (Monday 24 February).
 */
const OPENS = Date.parse('2031-03-10T12:00:00Z');
const GRID_OPENS = Date.parse('2031-02-24T00:00:00Z');

interface Written {
  id: number;
  title: string;
  start: number;
  end: number;
  listed: boolean;
  published: boolean;
}

const wallClock = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describe('overlap windows and month grids, events of every length (SPEC §4.4, §14)', () => {
  let t: TestApp;
  let editor: string;
  const events: Written[] = [];
  beforeAll(async () => {
    t = await startTestApp();
    editor = (await t.user('editor')).token;
    const write = async (start: number, end: number, extra: { status?: string; hide_from_listings?: boolean } = {}) => {
      const title = `Event ${events.length + 1}`;
      const reply = await t.request('POST', EVENTS, { token: editor, json: { title, start_date: wallClock(start), end_date: wallClock(end), timezone: 'UTC', ...extra } });
      expect([reply.status, reply.body.code]).toEqual([201, undefined]);
      events.push({ id: reply.body.id, title, start, end, listed: !extra.hide_from_listings, published: (extra.status ?? 'publish') === 'publish' });
    };
    for (const opens of [OPENS, GRID_OPENS]) {
      for (const span of SPANS) {
        await write(opens + 1000 - span, opens + 1000);
        await write(opens - span, opens);
      }
    }
    // Spread over a month, every span in turn.
    for (let index = 0; index < 42; index += 1) {
      const start = Date.parse('2031-02-26T00:00:00Z') + index * 17 * HOUR;
      await write(start, start + SPANS[index % SPANS.length]);
    }
    const longStart = Date.parse('2031-01-05T09:00:00Z');
    await write(longStart, longStart + 90 * DAY);
    await write(longStart + HOUR, longStart + 100 * DAY, { status: 'draft' });
    await write(OPENS - 10 * HOUR, OPENS + 10 * HOUR, { hide_from_listings: true });
  });
  afterAll(() => t.close());

  const order = (a: Written, b: Written) => a.start - b.start || a.id - b.id;

  it('lists, page by page, the events that end after its start and start before its end, with their total', async () => {
    const windows: [number, number][] = [
      [OPENS, OPENS + HOUR],
      [OPENS, OPENS + 3 * DAY],
      [Date.parse('2031-03-20T00:00:00Z'), Date.parse('2031-03-21T00:00:00Z')],
      // Only the long events, then nothing at all.
      [Date.parse('2031-02-15T00:00:00Z'), Date.parse('2031-02-16T00:00:00Z')],
      [Date.parse('2031-06-01T00:00:00Z'), Date.parse('2031-06-02T00:00:00Z')],
    ];
    for (const [who, token] of [['anonymous', undefined], ['editor', editor]] as const) {
      for (const [from, to] of windows) {
        const expected = events
          .filter((event) => event.listed && (who === 'editor' || event.published) && event.end > from && event.start < to)
          .sort(order)
          .map((event) => event.title);
        for (const perPage of [1, 4, 7, 50]) {
          const pages = Math.ceil(expected.length / perPage);
          const found: string[] = [];
          for (let page = 1; page <= Math.max(pages, 1); page += 1) {
            const reply = await t.request('GET', `${EVENTS}?ends_after=${wallClock(from)}&starts_before=${wallClock(to)}&strict_dates=1&per_page=${perPage}&page=${page}`, { token });
            const shown = `${who}, ${wallClock(from)}..${wallClock(to)}, per_page ${perPage}, page ${page}`;
            expect([shown, reply.status, reply.body.total, reply.headers['x-wp-totalpages']]).toEqual([shown, 200, expected.length, String(pages)]);
            found.push(...reply.body.events.map((event: { title: string }) => event.title));
          }
          expect([who, wallClock(from), perPage, found]).toEqual([who, wallClock(from), perPage, expected]);
        }
      }
    }
  });

  it('places on each day of a month grid the events that cover it, in order, and counts the rest', async () => {
    const reply = await t.request('GET', '/events/month/2031-03/');
    expect(reply.status).toBe(200);
    const doc = parseDocument(reply.text);
    const cells = DomUtils.findAll((element) => element.name === 'td', doc.children);
    // 2031-03-01 is a Saturday: the grid runs from Monday 24 February to Sunday 6 April.
    expect(cells.length).toBe(42);
    const text = (element: Element) => DomUtils.textContent(element).replace(/\s+/g, ' ').trim();
    for (const cell of cells) {
      const day = DomUtils.findOne((element) => element.name === 'time', cell.children)?.attribs['datetime'] ?? '';
      const dayStart = Date.parse(`${day}T00:00:00Z`);
      const covering = events.filter((event) => event.listed && event.published && event.start < dayStart + DAY && event.end > dayStart).sort(order);
      const titles = DomUtils.findAll((element) => element.name === 'li', cell.children).map((item) => text(item).replace(/^\d{1,2}:\d{2} [AP]M /, ''));
      const more = DomUtils.findOne((element) => (element.attribs['class'] ?? '').split(' ').includes('more'), cell.children);
      expect([day, titles, more ? text(more) : null]).toEqual([day, covering.slice(0, 3).map((event) => event.title), covering.length > 3 ? `${covering.length - 3} more` : null]);
    }
  });
});
