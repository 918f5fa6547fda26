import { DomUtils, parseDocument } from 'htmlparser2';
import type { Document, Element } from 'domhandler';
import { CacheRegistry } from '@calendar/shared/cache';
import { queryCounter } from '@calendar/shared/database';
import { ORIGIN, Reply, startTestApp, TestApp } from './support/test-app';

/*
 * Public pages (SPEC §14): every `url` the API hands out opens a page, rendered from the domain services as an
 * anonymous visitor sees them, in every language base, escaped, cached and validated like API answers.
 */

const NS = '/wp-json/calendar/events/v1';
const EVENTS = `${NS}/events`;
const CSP = "default-src 'none'; style-src 'self'; img-src 'self' https: http: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

const html = (reply: Reply): Document => parseDocument(reply.text);
const all = (doc: Document, test: (element: Element) => boolean): Element[] => DomUtils.findAll(test, doc.children);
const text = (element: Element): string => DomUtils.textContent(element).replace(/\s+/g, ' ').trim();
const tag = (name: string) => (element: Element) => element.name === name;
const cls = (name: string) => (element: Element) => (element.attribs['class'] ?? '').split(' ').includes(name);
/** The titles of the events a page lists, with their links. */
const listed = (doc: Document) => all(doc, cls('event')).map((item) => all(item as unknown as Document, tag('a')).map((link) => [text(link), link.attribs['href']])[0]);

describe('public pages (SPEC §14)', () => {
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

  const create = async (body: Record<string, unknown>) => {
    const reply = await t.request('POST', EVENTS, { token: editor.token, json: body });
    expect([reply.status, reply.body.code]).toEqual([201, undefined]);
    return reply.body;
  };
  const page = async (path: string, status = 200): Promise<Document> => {
    const reply = await t.request('GET', path);
    expect([reply.status, reply.headers['content-type'], reply.headers['content-security-policy']]).toEqual([status, 'text/html; charset=utf-8', CSP]);
    return html(reply);
  };
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

  it('opens every url the API hands out, in English and French, with its language, alternates and switcher', async () => {
    const event = await create({
      title: 'Jazz night',
      description: '<p>Live <b>jazz</b></p>',
      start_date: `${day(3)} 19:00`,
      end_date: `${day(3)} 22:00`,
      timezone: 'Europe/Paris',
      cost: '12 €',
      venue: { venue: 'Blue Hall', city: 'Paris', geo_lat: 48.86, geo_lng: 2.35 },
      organizer: { organizer: 'Acme' },
      categories: ['Music'],
      tags: ['late'],
    });
    const french = await t.request('PATCH', `/fr${EVENTS}/${event.id}`, { token: editor.token, json: { title: 'Soirée jazz' } });
    expect(french.status).toBe(200);
    const venue = event.venue;
    const [organizer] = event.organizer;
    const [category] = event.categories;
    const [lateTag] = event.tags;
    const urls = [event.url, venue.url, organizer.url, category.url, lateTag.url, `${ORIGIN}/events/`, `${ORIGIN}/events/month/`];
    expect(urls).toEqual([
      `${ORIGIN}/event/jazz-night/`,
      `${ORIGIN}/venue/blue-hall/`,
      `${ORIGIN}/organizer/acme/`,
      `${ORIGIN}/events/category/music/`,
      `${ORIGIN}/events/tag/late/`,
      `${ORIGIN}/events/`,
      `${ORIGIN}/events/month/`,
    ]);
    const headings: string[] = [];
    for (const url of urls) {
      for (const base of ['', '/fr']) {
        const doc = await page(`${base}${url.slice(ORIGIN.length)}`);
        const [root] = all(doc, tag('html'));
        expect(root.attribs['lang']).toBe(base === '' ? 'en' : 'fr');
        const alternates = all(doc, (element) => element.name === 'link' && element.attribs['hreflang'] !== undefined).map((link) => link.attribs['hreflang']);
        expect(alternates).toEqual(['en', 'fr', 'zh-Hans', 'x-default']);
        const switcher = all(doc, (element) => element.name === 'a' && element.attribs['hreflang'] !== undefined).map((link) => [text(link), link.attribs['aria-current'] ?? '']);
        expect(switcher).toEqual([
          ['English', base === '' ? 'true' : ''],
          ['Français', base === '/fr' ? 'true' : ''],
          ['简体中文', ''],
        ]);
        headings.push(text(all(doc, tag('h1'))[0]));
      }
    }
    expect(headings.slice(0, 10)).toEqual(['Jazz night', 'Soirée jazz', 'Blue Hall', 'Blue Hall', 'Acme', 'Acme', 'Music', 'Music', 'late', 'late']);
    expect(headings.slice(10, 12)).toEqual(['Upcoming events', 'Événements à venir']);
    expect(headings[12]).toBe(new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date()));
  });

  it('shows an event with its facts, links, JSON-LD equal to the API\'s, OpenGraph and calendar links', async () => {
    const event = await create({
      title: 'Jazz night',
      excerpt: 'Live jazz all night',
      description: '<p>Live <b>jazz</b></p>',
      start_date: '2030-06-01 19:00',
      end_date: '2030-06-01 22:00',
      timezone: 'Europe/Paris',
      cost: '12 €',
      image: 'https://img.example/jazz.png',
      venue: { venue: 'Blue Hall', address: '1 rue de Rivoli', city: 'Paris', country: 'France', geo_lat: 48.86, geo_lng: 2.35 },
      organizer: { organizer: 'Acme' },
      categories: ['Music'],
    });
    const api = await t.request('GET', `${EVENTS}/${event.id}`);
    const doc = await page('/event/jazz-night/');
    const facts = all(doc, tag('dt')).map((term) => [text(term), text(term.next && (term.next as Element).name === 'dd' ? (term.next as Element) : (DomUtils.nextElementSibling(term) as Element))]);
    expect(facts).toEqual([
      // Lines of the venue (name, address, map link) are separated by <br>.
      ['Venue', 'Blue Hall1 rue de Rivoli, Paris, FranceMap (OpenStreetMap)'],
      ['Organizers', 'Acme'],
      ['Cost', '12 €'],
      ['Categories', 'Music'],
    ]);
    expect(text(all(doc, cls('when'))[0])).toBe('Saturday, June 1, 2030, 7:00 PM – 10:00 PM (CEST)');
    const [script] = all(doc, (element) => element.name === 'script');
    expect([script.attribs['type'], JSON.parse(text(script))]).toEqual(['application/ld+json', api.body.json_ld]);
    const og = Object.fromEntries(all(doc, (element) => element.name === 'meta' && element.attribs['property'] !== undefined).map((meta) => [meta.attribs['property'], meta.attribs['content']]));
    expect(og).toEqual({ 'og:type': 'website', 'og:title': 'Jazz night', 'og:url': `${ORIGIN}/event/jazz-night/`, 'og:locale': 'en', 'og:description': 'Live jazz all night', 'og:image': 'https://img.example/jazz.png' });
    const links = all(doc, tag('a')).map((link) => link.attribs['href']);
    expect(links).toEqual(
      expect.arrayContaining([
        `${ORIGIN}/venue/blue-hall/`,
        `${ORIGIN}/organizer/acme/`,
        `${ORIGIN}/events/category/music/`,
        'https://www.openstreetmap.org/?mlat=48.86&mlon=2.35#map=16/48.86/2.35',
        `${ORIGIN}${EVENTS}/${event.id}/ics`,
        'https://calendar.google.com/calendar/render?action=TEMPLATE&text=Jazz+night&dates=20300601T170000Z%2F20300601T200000Z&details=Live+jazz+all+night&location=Blue+Hall%2C+1+rue+de+Rivoli%2C+Paris%2C+France&ctz=Europe%2FParis',
      ]),
    );
    expect(DomUtils.getInnerHTML(all(doc, cls('description'))[0])).toBe('<p>Live <b>jazz</b></p>');
  });

  it('never shows drafts, pending, private or trashed events, and shows a protected one by title and dates only', async () => {
    for (const status of ['draft', 'pending', 'private']) await create({ title: `Hidden ${status}`, status, start_date: `${day(2)} 10:00`, end_date: `${day(2)} 11:00` });
    const trashed = await create({ title: 'Hidden trash', start_date: `${day(2)} 10:00`, end_date: `${day(2)} 11:00` });
    expect((await t.request('DELETE', `${EVENTS}/${trashed.id}`, { token: editor.token })).status).toBe(200);
    const locked = await create({ title: 'Members only', description: '<p>Secret place</p>', cost: '99', start_date: `${day(2)} 12:00`, end_date: `${day(2)} 13:00`, venue: { venue: 'Secret cellar' } });
    expect((await t.request('PATCH', `${EVENTS}/${locked.id}`, { token: editor.token, json: { password: 'open sesame' } })).status).toBe(200);
    for (const slug of ['hidden-draft', 'hidden-pending', 'hidden-private', 'hidden-trash', 'nothing-here']) {
      const doc = await page(`/event/${slug}/`, 404);
      expect(text(all(doc, tag('h1'))[0])).toBe('Page not found');
    }
    expect(listed(await page('/events/'))).toEqual([['Members only', `${ORIGIN}/event/members-only/`]]);
    const doc = await page('/event/members-only/');
    expect([text(all(doc, tag('h1'))[0]), text(all(doc, cls('note'))[0]), all(doc, cls('facts')).length, all(doc, tag('script')).length]).toEqual([
      'Members only',
      'This event is protected by a password.',
      0,
      0,
    ]);
    expect(doc.children.some(() => /Secret|99/.test(DomUtils.textContent(doc)))).toBe(false);
  });

  it('prints hostile text as text, in elements, attributes and the JSON-LD block', async () => {
    const hostile = '</script><script>alert(1)</script>"\'><img src=x onerror=alert(2)>';
    await create({ title: hostile, slug: 'hostile', cost: hostile, start_date: `${day(2)} 10:00`, end_date: `${day(2)} 11:00`, venue: { venue: hostile, address: hostile } });
    const reply = await t.request('GET', '/event/hostile/');
    expect(reply.status).toBe(200);
    const doc = html(reply);
    expect(all(doc, tag('script')).map((script) => script.attribs['type'])).toEqual(['application/ld+json']);
    expect(all(doc, tag('img'))).toEqual([]);
    expect(text(all(doc, tag('h1'))[0])).toBe(hostile);
    expect(JSON.parse(text(all(doc, tag('script'))[0])).name).toBe(hostile);
    expect(all(doc, (element) => element.name === 'meta' && element.attribs['property'] === 'og:title')[0].attribs['content']).toBe(hostile);
    expect(reply.text).not.toContain('<script>alert');
  });

  it('filters the list by search, category and tag, pages it, and answers a bad filter with a 400 page', async () => {
    const music = (await t.request('POST', `${NS}/categories`, { token: editor.token, json: { name: 'Music' } })).body;
    for (let index = 1; index <= 22; index += 1) {
      await create({ title: `Concert ${index}`, start_date: `${day(1)} ${String(index).padStart(2, '0')}:00`, end_date: `${day(1)} ${String(index).padStart(2, '0')}:30`, categories: index % 2 === 0 ? [music.id] : [], tags: index === 7 ? ['rare'] : [] });
    }
    const first = await page('/events/');
    expect(listed(first).length).toBe(20);
    const next = all(first, (element) => element.name === 'a' && element.attribs['rel'] === 'next')[0].attribs['href'];
    expect(next).toBe(`${ORIGIN}/events/?page=2`);
    expect(listed(await page('/events/?page=2')).map(([title]) => title)).toEqual(['Concert 21', 'Concert 22']);
    expect(listed(await page('/events/?search=concert+7')).map(([title]) => title)).toEqual(['Concert 7']);
    expect(listed(await page('/events/?tag=rare')).map(([title]) => title)).toEqual(['Concert 7']);
    expect(listed(await page('/events/?category=music&page=1')).length).toBe(11);
    const bad = await page('/events/?category=nope', 400);
    expect(text(all(bad, tag('main'))[0])).toBe('This page cannot be shown categories: must name existing categories by id or slug; unknown: nope See the upcoming events');
    const feed = all(first, (element) => element.name === 'a' && (element.attribs['href'] ?? '').startsWith('webcal:'))[0].attribs['href'];
    expect(feed).toBe('webcal://calendar.test/wp-json/calendar/events/v1/events/ics');
  });

  it('draws a month with the events of each day and links to the months around it', async () => {
    await create({ title: 'Spring fair', start_date: '2030-03-14 10:00', end_date: '2030-03-15 18:00' });
    await create({ title: 'Late show', start_date: '2030-03-31 23:00', end_date: '2030-04-01 01:00' });
    const doc = await page('/events/month/2030-03/');
    const days = all(doc, (element) => element.name === 'td' && !(element.attribs['class'] ?? '').includes('empty')).map((cell) => [
      all(cell as unknown as Document, tag('time'))[0].attribs['datetime'],
      all(cell as unknown as Document, tag('li')).map(text),
    ]);
    expect(days).toEqual([
      ['2030-03-14', ['10:00 AM Spring fair']],
      ['2030-03-15', ['Spring fair']],
      // 31 March 2030 is a Sunday: the grid ends with its week.
      ['2030-03-31', ['11:00 PM Late show']],
    ]);
    expect(all(doc, (element) => element.name === 'a' && ['prev', 'next'].includes(element.attribs['rel'])).map((link) => [text(link), link.attribs['href']])).toEqual([
      ['February 2030', `${ORIGIN}/events/month/2030-02/`],
      ['April 2030', `${ORIGIN}/events/month/2030-04/`],
    ]);
    // A busy day shows its first three events and links to the list of that day.
    for (const hour of [9, 10, 11, 12]) await create({ title: `Talk ${hour}`, start_date: `2030-03-20 ${hour}:00`, end_date: `2030-03-20 ${hour}:45` });
    const busy = await page('/events/month/2030-03/');
    const cell = all(busy, (element) => element.name === 'td' && all(element as unknown as Document, tag('time'))[0]?.attribs['datetime'] === '2030-03-20')[0] as unknown as Document;
    expect([all(cell, tag('li')).map(text), all(cell, cls('more')).map((more) => [text(more), all(more as unknown as Document, tag('a'))[0].attribs['href']])]).toEqual([
      ['9:00 AM Talk 9', '10:00 AM Talk 10', '11:00 AM Talk 11'],
      [['1 more', `${ORIGIN}/events/?day=2030-03-20`]],
    ]);
    const dayList = await page('/events/?day=2030-03-20');
    expect([text(all(dayList, tag('h1'))[0]), listed(dayList).map(([title]) => title)]).toEqual(['Wednesday, March 20, 2030', ['Talk 9', 'Talk 10', 'Talk 11', 'Talk 12']]);
    expect(text(all(await page('/events/?day=2030-02-30', 400), tag('h1'))[0])).toBe('This page cannot be shown');
    const french = await page('/fr/events/month/2030-03/');
    expect(text(all(french, tag('h1'))[0])).toBe('mars 2030');
    expect(text(all(await page('/events/month/2030-13/', 404), tag('h1'))[0])).toBe('Page not found');
  });

  it('places an event that lasts months on every day it covers, in the grid and in overlap lists', async () => {
    await create({ title: 'Winter exhibition', start_date: '2030-12-01 10:00', end_date: '2031-03-31 18:00', timezone: 'UTC' });
    await create({ title: 'Short talk', start_date: '2031-02-10 10:00', end_date: '2031-02-10 11:00', timezone: 'UTC' });
    const doc = await page('/events/month/2031-02/');
    const days = all(doc, (element) => element.name === 'td' && !(element.attribs['class'] ?? '').includes('other')).map((cell) => all(cell as unknown as Document, tag('li')).map(text));
    expect(days.length).toBe(28);
    expect(days.filter((titles) => titles.join() === 'Winter exhibition').length).toBe(27);
    expect(days[9]).toEqual(['Winter exhibition', '10:00 AM Short talk']);
    // Its first day, in the previous months' grid, shows when it opens.
    const opening = all(await page('/events/month/2030-12/'), tag('td')).flatMap((cell) => all(cell as unknown as Document, tag('li')).map(text));
    expect(opening.slice(0, 2)).toEqual(['10:00 AM Winter exhibition', 'Winter exhibition']);
    const overlap = await t.request('GET', `${EVENTS}?ends_after=2031-02-09&starts_before=2031-02-10`);
    expect([overlap.status, overlap.body.events.map((event: { title: string }) => event.title)]).toEqual([200, ['Winter exhibition', 'Short talk']]);
  });

  it('is cached and validated like API answers: a write shows on the next load', async () => {
    const event = await create({ title: 'Before', start_date: `${day(2)} 10:00`, end_date: `${day(2)} 11:00` });
    const first = await t.request('GET', '/events/');
    const etag = first.headers['etag'] as string;
    expect([first.status, typeof etag]).toEqual([200, 'string']);
    const again = await t.request('GET', '/events/', { headers: { 'if-none-match': etag } });
    expect([again.status, again.text]).toEqual([304, '']);
    expect((await t.request('PATCH', `${EVENTS}/${event.id}`, { token: editor.token, json: { title: 'After' } })).status).toBe(200);
    const changed = await t.request('GET', '/events/', { headers: { 'if-none-match': etag } });
    expect([changed.status, listed(html(changed))]).toEqual([200, [['After', `${ORIGIN}/event/before/`]]]);
  });

  it('reads the event of a page it keeps no rendering of by its slug and one statement, and shows the same page', async () => {
    await create({ title: 'Solo', start_date: `${day(3)} 19:00`, end_date: `${day(3)} 22:00` });
    // Ids start again after each test's reset: renderings kept of an earlier test's event are let go.
    t.get(CacheRegistry).empty('event renderings');
    const read = async (path: string) => {
      const before = queryCounter.count;
      const reply = await t.request('GET', path);
      return { status: reply.status, statements: queryCounter.count - before, text: reply.text };
    };
    const fresh = await read('/event/solo/?visit=1');
    const kept = await read('/event/solo/?visit=2');
    // The slug's id, then the event's head with its record; then its head alone.
    expect([fresh.status, fresh.statements, kept.statements, fresh.text === kept.text]).toEqual([200, 2, 2, true]);
    expect(all(parseDocument(fresh.text), tag('h1')).map(text)).toEqual(['Solo']);
  });

  it('serves its stylesheet', async () => {
    const reply = await t.request('GET', '/assets/calendar.css');
    expect([reply.status, reply.headers['content-type'], reply.text.startsWith('/* The public pages (SPEC §14)')]).toEqual([200, 'text/css; charset=utf-8', true]);
  });
});
