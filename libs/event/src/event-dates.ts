import { DATE_TIME_RULE, parseDateTime, parseTimeZone, PerZoneDay, TimeZone, wpDateTime } from '@calendar/shared/time';
import { DateTime } from 'luxon';
import moment from 'moment-timezone';
import { Field } from '@calendar/shared/http';

const TWO_DIGITS = { type: 'string', pattern: '^\\d{2}$' };

/** The parts of a wall-clock time, as strings with leading zeros (SPEC §4.1 `*_details`). */
export class DateDetails {
  @Field({ type: 'string', pattern: '^\\d{4}$' })
  year: string;

  @Field(TWO_DIGITS)
  month: string;

  @Field(TWO_DIGITS)
  day: string;

  @Field(TWO_DIGITS)
  hour: string;

  @Field(TWO_DIGITS)
  minutes: string;

  @Field(TWO_DIGITS)
  seconds: string;
}

export interface EventDates {
  start: DateTime;
  end: DateTime;
  zone: TimeZone;
}

export type DateProblem = Record<string, string>;

/**
 * The instants of an event (SPEC §4.2): values without an offset are wall-clock times in the event's zone; a
 * value with an offset is the instant it names. All-day events run from 00:00:00 of the start's day to
 * 23:59:59 of the end's day, in the event's zone. An end before the start is reported on `end_date`.
 */
export function resolveEventDates(
  input: { start: string; end: string; zone: TimeZone; allDay: boolean },
  now: Date = new Date(),
): EventDates | DateProblem {
  const { zone } = input;
  let start = parseDateTime(input.start, { zone: zone.zone, now });
  let end = parseDateTime(input.end, { zone: zone.zone, now });
  if (!start) return { start_date: `must be ${DATE_TIME_RULE}` };
  if (!end) return { end_date: `must be ${DATE_TIME_RULE}` };
  start = start.setZone(zone.zone);
  end = end.setZone(zone.zone);
  if (input.allDay) {
    start = start.startOf('day');
    end = end.set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
  }
  start = start.set({ millisecond: 0 });
  end = end.set({ millisecond: 0 });
  if (end < start) return { end_date: 'must not be before start_date' };
  return { start, end, zone };
}

export function isDateProblem(value: EventDates | DateProblem): value is DateProblem {
  return !('start' in value && 'end' in value);
}

/** The stored zone name of an event as a zone, falling back to UTC for a name the tz database no longer knows. */
export function eventZone(name: string): TimeZone {
  return parseTimeZone(name) ?? (parseTimeZone('UTC') as TimeZone);
}

export function dateDetails(value: DateTime): DateDetails {
  return wallDetails(wpDateTime(value));
}

/** The parts of a `YYYY-MM-DD HH:MM:SS` wall-clock time (cut at their places when the year has four digits). */
export function wallDetails(wall: string): DateDetails {
  if (wall.length === 19 && wall[4] === '-' && wall[7] === '-' && wall[10] === ' ' && wall[13] === ':' && wall[16] === ':') {
    return { year: wall.slice(0, 4), month: wall.slice(5, 7), day: wall.slice(8, 10), hour: wall.slice(11, 13), minutes: wall.slice(14, 16), seconds: wall.slice(17, 19) };
  }
  const [date, time] = wall.split(' ');
  const [year, month, day] = date.split('-');
  const [hour, minutes, seconds] = time.split(':');
  return { year, month, day, hour, minutes, seconds };
}

export function wallClock(value: DateTime): string {
  return wpDateTime(value);
}


/** Abbreviations per zone and day (moment's formatting costs several microseconds a date). */
const abbreviations = new PerZoneDay<string>();

/**
 * The abbreviation in force at an instant, as PHP prints it from the tz database (`CET`/`CEST`, `EST`/`EDT`,
 * `HKT`, `AEDT`, or a numeric one such as `+08`); a fixed offset zone is named as given (`UTC+5`).
 */
export function timezoneAbbreviation(instant: DateTime | Date, zone: TimeZone): string {
  if (zone.fixed) return zone.name;
  return abbreviations.get(zone.name, instant instanceof Date ? instant.getTime() : instant.toMillis(), (at) => moment.tz(at, zone.name).format('z'));
}

