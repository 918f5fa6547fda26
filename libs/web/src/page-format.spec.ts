import type { EventResponse } from '@calendar/event';
import { DateTime } from 'luxon';
import { eventTime, eventWhen, googleCalendarLink, jsonForScript, webcal } from './page-format';
import { bcp47, pageText } from './page-text';
import { PageView } from './page-view';

const event = (values: Partial<EventResponse>): EventResponse =>
  ({
    title: 'Jazz',
    description: '<p>Live <b>jazz</b></p>',
    excerpt: '',
    all_day: false,
    start_date: '2027-03-28 19:00:00',
    end_date: '2027-03-28 22:00:00',
    utc_start_date: '2027-03-28 17:00:00',
    utc_end_date: '2027-03-28 20:00:00',
    timezone: 'Europe/Paris',
    timezone_abbr: 'CEST',
    venue: [],
    ...values,
  }) as EventResponse;

describe('page formats', () => {
  it('says when an event is in its own zone and the page language, with the zone shown', () => {
    expect(eventWhen(event({}), 'en')).toBe('Sunday, March 28, 2027, 7:00 PM – 10:00 PM (CEST)');
    expect(eventWhen(event({}), 'fr')).toBe('dimanche 28 mars 2027, 19:00 – 22:00 (CEST)');
    expect(eventWhen(event({ timezone: 'UTC+5', timezone_abbr: 'UTC+5', utc_start_date: '2027-03-28 14:00:00', utc_end_date: '2027-03-29 17:00:00' }), 'en')).toBe(
      'Mar 28, 2027, 7:00 PM – Mar 29, 2027, 10:00 PM (UTC+5)',
    );
    expect(eventWhen(event({ all_day: true, start_date: '2027-03-28 00:00:00', end_date: '2027-03-29 23:59:59', utc_start_date: '2027-03-27 23:00:00', utc_end_date: '2027-03-29 21:59:59' }), 'zh-hans')).toBe(
      '2027年3月28日星期日 – 2027年3月29日星期一',
    );
  });

  it('gives the time an event starts in its zone as luxon\'s simple time would, across zones, offsets and languages', () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Asia/Shanghai', 'Australia/Sydney', 'Asia/Kolkata', 'UTC', 'UTC+5', 'UTC-3:30', 'UTC+14'];
    // Both sides of DST changes (Paris and New York in March, Sydney in April) and a night across midnight UTC.
    const instants = ['2027-03-28 00:59:00', '2027-03-28 01:00:00', '2027-03-14 06:59:00', '2027-03-14 07:00:00', '2027-04-03 15:59:00', '2027-04-03 16:00:00', '2027-12-31 23:30:00'];
    for (const timezone of zones) {
      for (const locale of ['en', 'fr', 'zh-hans']) {
        for (const utc of instants) {
          const offset = /^UTC([+-])(\d+)(?::(\d+))?$/.exec(timezone);
          const zone = offset ? `UTC${offset[1]}${offset[2]}${offset[3] ? `:${offset[3]}` : ''}` : timezone;
          // luxon joins Intl's parts for UTC and offsets of no whole hour, which keeps a narrow space before AM/PM;
          // Intl's own format (luxon's for every other zone) has a plain one.
          const expected = DateTime.fromSQL(utc, { zone: 'utc' }).setZone(zone).setLocale(locale).toLocaleString(DateTime.TIME_SIMPLE).replace(/\u202f/g, ' ');
          expect([timezone, locale, utc, eventTime(event({ timezone, utc_start_date: utc }), locale)]).toEqual([timezone, locale, utc, expected]);
        }
      }
    }
    expect(eventTime(event({ timezone: 'UTC+5', utc_start_date: '2027-03-28 14:00:00' }), 'en')).toBe('7:00 PM');
    expect(eventTime(event({ timezone: 'UTC-3:30', utc_start_date: '2027-03-28 14:00:00' }), 'en')).toBe('10:30 AM');
    expect(eventTime(event({ timezone: 'Europe/Paris', utc_start_date: '2027-03-28 17:00:00' }), 'fr')).toBe('19:00');
    expect(eventTime(event({ all_day: true }), 'en')).toBeNull();
  });

  it('fills Google Calendar\'s template with UTC times, or dates for all-day events', () => {
    expect(googleCalendarLink(event({}))).toBe(
      'https://calendar.google.com/calendar/render?action=TEMPLATE&text=Jazz&dates=20270328T170000Z%2F20270328T200000Z&details=Live+jazz&ctz=Europe%2FParis',
    );
    expect(googleCalendarLink(event({ all_day: true, start_date: '2027-03-28 00:00:00', end_date: '2027-03-29 23:59:59', description: '', timezone: 'UTC+5' }))).toBe(
      'https://calendar.google.com/calendar/render?action=TEMPLATE&text=Jazz&dates=20270328%2F20270330',
    );
  });

  it('writes JSON-LD that no text can break out of', () => {
    const json = jsonForScript({ name: '</script><script>alert(1)</script> & \u2028' });
    expect(json).toBe('{"name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e \\u0026 \\u2028"}');
    expect(JSON.parse(json)).toEqual({ name: '</script><script>alert(1)</script> & \u2028' });
  });

  it('names languages as BCP 47 writes them and falls back to English words', () => {
    expect(['en', 'fr', 'zh-hans', 'pt-br'].map(bcp47)).toEqual(['en', 'fr', 'zh-Hans', 'pt-BR']);
    expect(pageText('de').upcoming).toBe('Upcoming events');
    expect(pageText('fr').upcoming).toBe('Événements à venir');
    expect(webcal('https://example.org/wp-json/x/events/ics?tags=1')).toBe('webcal://example.org/wp-json/x/events/ics?tags=1');
  });

  it('escapes every printed text, in elements and attributes', () => {
    const html = new PageView().render('error', {
      t: pageText('en'),
      heading: '<img src=x onerror=alert(1)>',
      message: '"quoted" & <b>',
      page: { htmlLang: 'en', title: '</title><script>', site: 'S', canonical: 'http://x/"><script>', alternates: [], languages: [], home: 'http://x/', month: 'http://x/m/', section: 'list' },
    });
    expect(html).toContain('<h1>&lt;img src=x onerror=alert(1)&gt;</h1>');
    expect(html).toContain('<p>&quot;quoted&quot; &amp; &lt;b&gt;</p>');
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt; – S</title>');
    expect(html).toContain('<link rel="canonical" href="http://x/&quot;&gt;&lt;script&gt;">');
    expect(html).not.toContain('<script');
  });
});
