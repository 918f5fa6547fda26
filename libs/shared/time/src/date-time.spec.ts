import fc from 'fast-check';
import { DateTime } from 'luxon';
import { formatWpDateTime, parseDateTime, parseUtcWallClock, utcWallClock, WP_DATE_TIME_FORMAT, zonedWallClock } from './date-time';
import { parseTimeZone, TimeZone } from './time-zone';

const paris = parseTimeZone('Europe/Paris')!.zone;
const utc = parseTimeZone('UTC')!.zone;
// Wednesday 25 November 2026, 10:00 UTC (11:00 in Paris).
const now = new Date('2026-11-25T10:00:00Z');
const utcOf = (value: string, zone = paris) => parseDateTime(value, { zone, now })?.toUTC().toFormat('yyyy-MM-dd HH:mm:ss') ?? null;

describe('parseDateTime', () => {
  it('reads wall-clock forms in the reference zone with DST', () => {
    expect(utcOf('2026-07-01 19:30')).toBe('2026-07-01 17:30:00');
    expect(utcOf('2026-01-01 19:30:15')).toBe('2026-01-01 18:30:15');
    expect(utcOf('2026-03-29')).toBe('2026-03-28 23:00:00');
    expect(utcOf('2026-05-01T19:30:00')).toBe('2026-05-01 17:30:00');
  });

  it('keeps an explicit offset and converts it to the reference zone', () => {
    const parsed = parseDateTime('2026-05-01T19:30:00+02:00', { zone: utc, now });
    expect(parsed?.toFormat('yyyy-MM-dd HH:mm:ss ZZ')).toBe('2026-05-01 17:30:00 +00:00');
  });

  it('reads Unix timestamps', () => {
    expect(utcOf('1767225600')).toBe('2026-01-01 00:00:00');
  });

  it('reads English relative to the request time, PHP style', () => {
    expect(utcOf('now')).toBe('2026-11-25 10:00:00');
    expect(utcOf('today')).toBe('2026-11-24 23:00:00');
    expect(utcOf('tomorrow 9am')).toBe('2026-11-26 08:00:00');
    expect(utcOf('wednesday')).toBe('2026-11-24 23:00:00');
    expect(utcOf('next wednesday 4pm')).toBe('2026-12-02 15:00:00');
    expect(utcOf('friday')).toBe('2026-11-26 23:00:00');
    expect(utcOf('+2 weeks')).toBe('2026-12-09 10:00:00');
  });

  it('rejects what is not a date-time', () => {
    for (const value of ['', '   ', 'garbage', 'concert tomorrow', '2026-02-31', '2026-13-01', '2026-01-01 25:00', '2026-01-01T99']) {
      expect(utcOf(value)).toBeNull();
    }
  });
});

describe('formatWpDateTime', () => {
  it('prints YYYY-MM-DD HH:MM:SS in the requested zone', () => {
    const instant = DateTime.fromISO('2026-07-01T17:30:00Z');
    expect(formatWpDateTime(instant, 'Europe/Paris')).toBe('2026-07-01 19:30:00');
    expect(formatWpDateTime(new Date('2026-07-01T17:30:00Z'))).toBe('2026-07-01 17:30:00');
  });

  it('prints Dates by the zone offset at the instant, across DST changes, as luxon does', () => {
    const paris = (parseTimeZone('Europe/Paris') as TimeZone).zone;
    expect(zonedWallClock(new Date('2030-03-31T00:59:59Z'), paris)).toBe('2030-03-31 01:59:59');
    expect(zonedWallClock(new Date('2030-03-31T01:00:00Z'), paris)).toBe('2030-03-31 03:00:00');
    expect(zonedWallClock(new Date('2030-10-27T00:30:00Z'), paris)).toBe('2030-10-27 02:30:00');
    expect(zonedWallClock(new Date('2030-10-27T01:30:00Z'), paris)).toBe('2030-10-27 02:30:00');
    expect(formatWpDateTime(new Date('2030-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2030-01-01 05:30:00');
    expect(formatWpDateTime(new Date('2030-01-01T00:00:00Z'), (parseTimeZone('UTC-3:30') as TimeZone).zone)).toBe('2029-12-31 20:30:00');
    expect(utcWallClock(new Date('2030-01-01T23:59:59.999Z'))).toBe('2030-01-01 23:59:59');
    // Over two years in zones with DST on both hemispheres and half-hour offsets: every 75 minutes (a step that
    // passes through every quarter of the hour), and every minute for three hours on each side of each change (the
    // offsets are kept per day: the days of a change must not be).
    for (const name of ['Europe/Paris', 'America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns']) {
      const zone = (parseTimeZone(name) as TimeZone).zone;
      const check = (ms: number) => {
        const expected = DateTime.fromMillis(ms, { zone }).toFormat(WP_DATE_TIME_FORMAT);
        const actual = zonedWallClock(new Date(ms), zone);
        if (actual !== expected) expect([name, new Date(ms).toISOString(), actual]).toEqual([name, new Date(ms).toISOString(), expected]);
      };
      let changes = 0;
      let before = zone.offset(Date.UTC(2029, 0, 1));
      for (let ms = Date.UTC(2029, 0, 1); ms < Date.UTC(2031, 0, 1); ms += 75 * 60_000) {
        check(ms);
        const offset = zone.offset(ms);
        if (offset === before) continue;
        before = offset;
        changes += 1;
        for (let near = ms - 4 * 3_600_000; near <= ms + 3 * 3_600_000; near += 60_000) check(near);
      }
      // Four changes in two years where there is DST; none in Kathmandu.
      expect([name, changes]).toEqual([name, name === 'Asia/Kathmandu' ? 0 : 4]);
    }
  });
});

describe('utcWallClock', () => {
  it('is the ISO form cut to seconds with a space for the T, for any instant a Date holds', () => {
    const iso = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
    expect([utcWallClock(new Date('0999-12-31T23:59:59Z')), utcWallClock(new Date('1000-01-01T00:00:00Z')), utcWallClock(new Date('9999-12-31T23:59:59.999Z'))]).toEqual(['0999-12-31 23:59:59', '1000-01-01 00:00:00', '9999-12-31 23:59:59']);
    fc.assert(fc.property(fc.date({ noInvalidDate: true }), (date) => utcWallClock(date) === iso(date)), { numRuns: 5000 });
  });
});

describe('parseUtcWallClock', () => {
  it('reads UTC wall clocks with or without milliseconds, and gives Dates back as they are', () => {
    const date = new Date('2027-03-28T01:30:00Z');
    expect([parseUtcWallClock('2027-03-28 01:30:00'), parseUtcWallClock('2027-03-28 01:30:00.000'), parseUtcWallClock(date)]).toEqual([date, date, date]);
    expect(parseUtcWallClock(utcWallClock(date))).toEqual(date);
  });
});
