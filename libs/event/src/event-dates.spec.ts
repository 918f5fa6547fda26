import moment from 'moment-timezone';
import { parseTimeZone } from '@calendar/shared/time';
import { DateTime } from 'luxon';
import { dateDetails, isDateProblem, resolveEventDates, timezoneAbbreviation, wallClock, wallDetails } from './event-dates';

const zone = (name: string) => {
  const parsed = parseTimeZone(name);
  if (!parsed) throw new Error(`not a time zone: ${name}`);
  return parsed;
};
const utc = (value: DateTime) => value.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');

describe('resolveEventDates (SPEC §4.2)', () => {
  it('reads wall-clock times in the event zone with DST', () => {
    const summer = resolveEventDates({ start: '2026-07-01 19:30', end: '2026-07-01 22:00', zone: zone('Europe/Paris'), allDay: false });
    if (isDateProblem(summer)) throw new Error('unexpected');
    expect([utc(summer.start), utc(summer.end), wallClock(summer.start)]).toEqual(['2026-07-01 17:30:00', '2026-07-01 20:00:00', '2026-07-01 19:30:00']);
    const winter = resolveEventDates({ start: '2026-01-10 19:30', end: '2026-01-10 22:00', zone: zone('Europe/Paris'), allDay: false });
    if (isDateProblem(winter)) throw new Error('unexpected');
    expect(utc(winter.start)).toBe('2026-01-10 18:30:00');
  });

  it('converts a value with an offset into the event zone', () => {
    const dates = resolveEventDates({ start: '2026-05-01T19:30:00+02:00', end: '2026-05-01T23:00:00+02:00', zone: zone('America/New_York'), allDay: false });
    if (isDateProblem(dates)) throw new Error('unexpected');
    expect(wallClock(dates.start)).toBe('2026-05-01 13:30:00');
  });

  it('stretches all-day events over whole days', () => {
    const dates = resolveEventDates({ start: '2026-03-28 15:00', end: '2026-03-29 10:00', zone: zone('Europe/Paris'), allDay: true });
    if (isDateProblem(dates)) throw new Error('unexpected');
    expect([wallClock(dates.start), wallClock(dates.end)]).toEqual(['2026-03-28 00:00:00', '2026-03-29 23:59:59']);
    expect([utc(dates.start), utc(dates.end)]).toEqual(['2026-03-27 23:00:00', '2026-03-29 21:59:59']);
  });

  it('names end_date when it is before the start', () => {
    expect(resolveEventDates({ start: '2026-05-02', end: '2026-05-01', zone: zone('UTC'), allDay: false })).toEqual({ end_date: 'must not be before start_date' });
  });
});

describe('timezone abbreviations (SPEC §11.4)', () => {
  const at = (iso: string, name: string) => timezoneAbbreviation(DateTime.fromISO(iso), zone(name));
  it('prints the tz database abbreviation in force, or the fixed offset as given', () => {
    expect(at('2026-01-15T12:00:00Z', 'Europe/Paris')).toBe('CET');
    expect(at('2026-07-15T12:00:00Z', 'Europe/Paris')).toBe('CEST');
    expect(at('2026-07-15T12:00:00Z', 'America/New_York')).toBe('EDT');
    expect(at('2026-07-15T12:00:00Z', 'Asia/Hong_Kong')).toBe('HKT');
    expect(at('2026-01-15T12:00:00Z', 'Australia/Sydney')).toBe('AEDT');
    expect(at('2026-01-15T12:00:00Z', 'Asia/Singapore')).toBe('+08');
    expect(at('2026-01-15T12:00:00Z', 'UTC+5')).toBe('UTC+5');
  });

  it('gives what the tz database gives at every instant, on the days of a change too (kept per day)', () => {
    for (const name of ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'America/Sao_Paulo']) {
      const wrong: string[] = [];
      // Every 20 minutes over two years: each day asked many times, the days of a change among them.
      for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 20 * 60_000) {
        const expected = moment.tz(ms, name).format('z');
        const actual = timezoneAbbreviation(new Date(ms), zone(name));
        if (actual !== expected) wrong.push(`${new Date(ms).toISOString()} ${actual} ${expected}`);
      }
      expect([name, wrong]).toEqual([name, []]);
    }
  });
});

describe('dateDetails', () => {
  it('gives zero-padded strings', () => {
    expect(dateDetails(DateTime.fromISO('2026-03-05T07:08:09Z', { zone: 'UTC' }))).toEqual({ year: '2026', month: '03', day: '05', hour: '07', minutes: '08', seconds: '09' });
  });
});

describe('wallDetails', () => {
  it('gives the parts of a wall-clock time, with a year of four digits or not', () => {
    expect(wallDetails('2027-03-08 09:05:01')).toEqual({ year: '2027', month: '03', day: '08', hour: '09', minutes: '05', seconds: '01' });
    expect(wallDetails('+010000-01-02 03:04:05')).toEqual({ year: '+010000', month: '01', day: '02', hour: '03', minutes: '04', seconds: '05' });
  });
});
