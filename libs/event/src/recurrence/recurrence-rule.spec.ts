import { parseTimeZone, TimeZone } from '@calendar/shared/time';
import { DateTime } from 'luxon';
import { normalizeRecurrence, occurrenceStarts, RecurrenceError } from './recurrence-rule';

const zone = (name: string) => parseTimeZone(name) as TimeZone;

/** The wall-clock starts of a series beginning at `local` in `zoneName`, up to `until` (UTC ISO). */
function starts(lines: string[], local: string, zoneName: string, until = '2030-01-01T00:00:00Z'): string[] {
  const tz = zone(zoneName);
  const start = DateTime.fromISO(local, { zone: tz.zone }).toJSDate();
  return occurrenceStarts(normalizeRecurrence(lines), { start, zone: tz }, new Date(until), start).starts.map((date) => DateTime.fromJSDate(date, { zone: tz.zone }).toFormat("yyyy-MM-dd'T'HH:mm ZZ"));
}

function problem(lines: string[], local = '2027-03-02T19:00', zoneName = 'Europe/Paris'): string {
  try {
    starts(lines, local, zoneName);
  } catch (error) {
    if (error instanceof RecurrenceError) return error.message;
    throw error;
  }
  return 'accepted';
}

describe('normalizeRecurrence', () => {
  it('writes names, parts and values in upper case, keeping the order of the parts and zone names as given', () => {
    expect(normalizeRecurrence(['rrule:freq=weekly;byday=tu,th;count=10', ' exdate;tzid=Europe/Paris:20270309t190000 ', '', 'rdate;value=date:20270320'])).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10',
      'EXDATE;TZID=Europe/Paris:20270309T190000',
      'RDATE;VALUE=DATE:20270320',
    ]);
    expect(normalizeRecurrence([])).toEqual([]);
  });

  it.each([
    [['RRULE:FREQ=HOURLY'], 'FREQ must be one of DAILY, WEEKLY, MONTHLY, YEARLY'],
    [['RRULE:BYDAY=TU'], 'RRULE must have FREQ'],
    [['RRULE:FREQ=WEEKLY;BYHOUR=9'], 'RRULE part BYHOUR is not supported; supported: FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, WKST'],
    [['RRULE:FREQ=WEEKLY;FREQ=DAILY'], 'RRULE part FREQ is given twice'],
    [['RRULE:FREQ=WEEKLY;COUNT=0'], 'COUNT must be a positive integer'],
    [['RRULE:FREQ=WEEKLY;INTERVAL=two'], 'INTERVAL must be a positive integer'],
    [['RRULE:FREQ=WEEKLY;COUNT=3;UNTIL=20270401T000000Z'], 'RRULE takes COUNT or UNTIL, not both'],
    [['RRULE:FREQ=WEEKLY;UNTIL=2027-04-01'], 'UNTIL must be a UTC date-time (YYYYMMDDTHHMMSSZ) or a date (YYYYMMDD)'],
    [['RRULE:FREQ=WEEKLY;BYDAY=2TU'], 'BYDAY ordinals (2TU) are allowed with FREQ=MONTHLY (±1..5) and FREQ=YEARLY (±1..53) only'],
    [['RRULE:FREQ=MONTHLY;BYDAY=XX'], 'BYDAY must list weekdays (MO..SU), with an ordinal such as 2TU or -1FR for monthly and yearly rules; got XX'],
    [['RRULE:FREQ=MONTHLY;BYMONTHDAY=32'], 'BYMONTHDAY must be a comma-separated list of ±1..31; got 32'],
    [['RRULE:FREQ=YEARLY;BYMONTH=-1'], 'BYMONTH must be a comma-separated list of 1..12; got -1'],
    [['RRULE:FREQ=WEEKLY;WKST=XY'], 'WKST must be a weekday (MO..SU)'],
    [['RRULE:FREQ=WEEKLY', 'RRULE:FREQ=DAILY'], 'at most one RRULE line'],
    [['EXDATE:20270309T190000Z'], 'a series needs an RRULE or RDATE line'],
    [['DTSTART:20270309T190000Z'], 'each line must be RRULE:..., RDATE...:... or EXDATE...:... (RFC 5545); got "DTSTART:20270309T190000Z"'],
    [['RDATE;TZID=Mars/Olympus:20270309T190000'], 'RDATE TZID must be an IANA time zone name; got Mars/Olympus'],
    [['RDATE:2027-03-09'], 'RDATE values must be date-times YYYYMMDDTHHMMSS (with Z for UTC, or in the TZID zone); got 2027-03-09'],
    [['RDATE;VALUE=DATE:20270230'], 'RDATE values must be dates YYYYMMDD; got 20270230'],
    [['RDATE:20270301T996099Z'], 'RDATE values must be date-times YYYYMMDDTHHMMSS (with Z for UTC, or in the TZID zone); got 20270301T996099Z'],
    [['RRULE:FREQ=WEEKLY;BYDAY=WE'], 'the event start must be the first occurrence of the RRULE (move start_date onto the rule, or add it as an RDATE)'],
    [['RDATE:20270301T190000Z'], 'RDATE values must not be before the event start'],
  ])('refuses %j', (lines, message) => {
    expect(problem(lines)).toBe(message);
  });

  it('refuses more than 1,000 occurrences within the horizon', () => {
    const values = Array.from({ length: 1000 }, (_, index) => DateTime.fromISO('2027-03-03T00:00:00Z').plus({ hours: index }).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'"));
    expect(problem([`RDATE:${values.join(',')}`])).toBe('the series has 1001 occurrences within the horizon; at most 1000 are allowed');
  });
});

describe('occurrenceStarts', () => {
  it('keeps wall-clock time across the DST changes of Paris, New York and Sydney', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3'], '2027-03-23T19:00', 'Europe/Paris')).toEqual(['2027-03-23T19:00 +01:00', '2027-03-30T19:00 +02:00', '2027-04-06T19:00 +02:00']);
    expect(starts(['RRULE:FREQ=WEEKLY;COUNT=3'], '2027-10-19T19:00', 'Europe/Paris')).toEqual(['2027-10-19T19:00 +02:00', '2027-10-26T19:00 +02:00', '2027-11-02T19:00 +01:00']);
    expect(starts(['RRULE:FREQ=WEEKLY;COUNT=2'], '2027-03-09T19:00', 'America/New_York')).toEqual(['2027-03-09T19:00 -05:00', '2027-03-16T19:00 -04:00']);
    expect(starts(['RRULE:FREQ=WEEKLY;COUNT=2'], '2027-03-30T19:00', 'Australia/Sydney')).toEqual(['2027-03-30T19:00 +11:00', '2027-04-06T19:00 +10:00']);
  });

  it('expands ordinal weekdays, set positions and month days that short months skip', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=3'], '2027-01-12T18:00', 'UTC')).toEqual(['2027-01-12T18:00 +00:00', '2027-02-09T18:00 +00:00', '2027-03-09T18:00 +00:00']);
    expect(starts(['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3'], '2027-01-29T18:00', 'UTC')).toEqual(['2027-01-29T18:00 +00:00', '2027-02-26T18:00 +00:00', '2027-03-26T18:00 +00:00']);
    expect(starts(['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3'], '2027-04-30T18:00', 'UTC')).toEqual(['2027-04-30T18:00 +00:00', '2027-05-31T18:00 +00:00', '2027-06-30T18:00 +00:00']);
    expect(starts(['RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4'], '2027-01-31T18:00', 'UTC')).toEqual(['2027-01-31T18:00 +00:00', '2027-03-31T18:00 +00:00', '2027-05-31T18:00 +00:00', '2027-07-31T18:00 +00:00']);
    expect(starts(['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=2'], '2028-02-29T10:00', 'UTC', '2033-01-01T00:00:00Z')).toEqual(['2028-02-29T10:00 +00:00', '2032-02-29T10:00 +00:00']);
  });

  it('stops at UNTIL (UTC, inclusive) and counts COUNT from the event itself, with INTERVAL', () => {
    expect(starts(['RRULE:FREQ=DAILY;INTERVAL=2;UNTIL=20270306T180000Z'], '2027-03-02T19:00', 'Europe/Paris')).toEqual(['2027-03-02T19:00 +01:00', '2027-03-04T19:00 +01:00', '2027-03-06T19:00 +01:00']);
    expect(starts(['RRULE:FREQ=DAILY;INTERVAL=2;UNTIL=20270306T175959Z'], '2027-03-02T19:00', 'Europe/Paris')).toEqual(['2027-03-02T19:00 +01:00', '2027-03-04T19:00 +01:00']);
    expect(starts(['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=4'], '2027-03-02T19:00', 'UTC')).toEqual(['2027-03-02T19:00 +00:00', '2027-03-04T19:00 +00:00', '2027-03-16T19:00 +00:00', '2027-03-18T19:00 +00:00']);
  });

  it('adds RDATEs and removes EXDATEs (a DATE removes that day), in fixed offsets too', () => {
    expect(starts(['RRULE:FREQ=DAILY;COUNT=4', 'EXDATE;VALUE=DATE:20270303', 'EXDATE:20270304T140000Z', 'RDATE;TZID=Asia/Shanghai:20270310T220000'], '2027-03-02T19:00', 'UTC+5')).toEqual([
      '2027-03-02T19:00 +05:00',
      '2027-03-05T19:00 +05:00',
      '2027-03-10T19:00 +05:00',
    ]);
  });

  it('expands an endless rule up to the horizon and says whether the series goes on', () => {
    const tz = zone('UTC');
    const series = { start: new Date('2027-01-01T10:00:00Z'), zone: tz };
    expect(occurrenceStarts(['RRULE:FREQ=DAILY'], series, new Date('2028-12-31T10:00:00Z'))).toMatchObject({ complete: false });
    expect(occurrenceStarts(['RRULE:FREQ=DAILY'], series, new Date('2028-12-31T10:00:00Z')).starts).toHaveLength(731);
    expect(occurrenceStarts(['RRULE:FREQ=DAILY;COUNT=5'], series, new Date('2028-12-31T10:00:00Z'))).toMatchObject({ complete: true });
    expect(occurrenceStarts(['RRULE:FREQ=DAILY;COUNT=5'], series, new Date('2027-01-03T10:00:00Z'))).toEqual({
      complete: false,
      starts: [new Date('2027-01-01T10:00:00Z'), new Date('2027-01-02T10:00:00Z'), new Date('2027-01-03T10:00:00Z')],
      next: new Date('2027-01-04T10:00:00Z'),
    });
  });

  it('names the first occurrence after the horizon: what the horizon waits for before writing again', () => {
    const series = { start: new Date('2027-01-01T10:00:00Z'), zone: zone('UTC') };
    const until = new Date('2028-12-31T12:00:00Z');
    expect(occurrenceStarts(['RRULE:FREQ=DAILY'], series, until).next).toEqual(new Date('2029-01-01T10:00:00Z'));
    expect(occurrenceStarts(['RRULE:FREQ=WEEKLY'], series, until).next).toEqual(new Date('2029-01-05T10:00:00Z'));
    // An RDATE before the rule's next occurrence comes first; one after it does not.
    expect(occurrenceStarts(['RRULE:FREQ=WEEKLY', 'RDATE:20290102T080000Z'], series, until).next).toEqual(new Date('2029-01-02T08:00:00Z'));
    expect(occurrenceStarts(['RRULE:FREQ=WEEKLY', 'RDATE:20290302T080000Z'], series, until).next).toEqual(new Date('2029-01-05T10:00:00Z'));
    expect(occurrenceStarts(['RRULE:FREQ=DAILY;COUNT=5', 'RDATE:20290302T080000Z'], series, until)).toMatchObject({ complete: false, next: new Date('2029-03-02T08:00:00Z') });
    expect(occurrenceStarts(['RRULE:FREQ=DAILY;COUNT=5'], series, until)).toMatchObject({ complete: true, next: null });
  });
});
