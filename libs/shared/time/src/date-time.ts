import * as chrono from 'chrono-node';
import { DateTime, Info, Zone } from 'luxon';

export const DATE_TIME_RULE =
  'a date-time: YYYY-MM-DD[ HH:MM[:SS]], ISO 8601, a Unix timestamp, or English such as "tomorrow 9am" or "+2 weeks"';

/** The form every date-time takes in responses. */
export const WP_DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const TIMESTAMP = /^\d+$/;
/** Words that name a day: like PHP's strtotime, they mean midnight of that day unless a time is given. */
const DAY_WORDS = /\b(today|tomorrow|yesterday|midnight|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

export interface ParseDateTimeOptions {
  /** The reference zone: values without an offset are wall-clock times there. */
  zone: Zone;
  /** The instant natural-language values are relative to (the time of the request). */
  now?: Date;
}

/**
 * Parses every date-time form the API accepts into an instant, or returns null when the value is not one.
 * Values without an offset are read as wall-clock time in `options.zone`, with its DST rules.
 */
export function parseDateTime(input: string | number, options: ParseDateTimeOptions): DateTime | null {
  const value = String(input).trim();
  if (value === '') return null;
  const { zone } = options;

  if (TIMESTAMP.test(value) && !DATE_ONLY.test(value)) {
    const parsed = DateTime.fromSeconds(Number(value), { zone });
    return parsed.isValid ? parsed : null;
  }
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) return fromParts(zone, Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3]));
  const dateTime = DATE_TIME.exec(value);
  if (dateTime) {
    const [, y, mo, d, h, mi, s = '0'] = dateTime;
    return fromParts(zone, Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const iso = DateTime.fromISO(value, { zone, setZone: false });
    return iso.isValid ? iso.setZone(zone) : null;
  }
  return parseNaturalLanguage(value, zone, options.now ?? new Date());
}

function fromParts(zone: Zone, year: number, month: number, day: number, hour = 0, minute = 0, second = 0): DateTime | null {
  if (hour > 23 || minute > 59 || second > 59) return null;
  const parsed = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone });
  // luxon accepts 2026-02-31 by rolling over; a real calendar date keeps its day.
  if (!parsed.isValid || parsed.day !== day || parsed.month !== month) return null;
  return parsed;
}

function parseNaturalLanguage(value: string, zone: Zone, now: Date): DateTime | null {
  const reference = DateTime.fromJSDate(now, { zone });
  const results = chrono.parse(value, { instant: now, timezone: reference.offset }, { forwardDate: false });
  const [result] = results;
  // The whole value must be a date: "concert tomorrow" is not one.
  if (!result || results.length !== 1 || result.index !== 0 || result.text.length !== value.length) return null;
  const start = result.start;
  if (start.isCertain('timezoneOffset') && !/^now$/i.test(value)) {
    return DateTime.fromJSDate(start.date(), { zone });
  }
  let parsed = DateTime.fromObject(
    {
      year: start.get('year') ?? reference.year,
      month: start.get('month') ?? reference.month,
      day: start.get('day') ?? reference.day,
      hour: start.get('hour') ?? 0,
      minute: start.get('minute') ?? 0,
      second: start.get('second') ?? 0,
    },
    { zone },
  );
  const lower = value.toLowerCase();
  const weekday = WEEKDAYS.findIndex((name) => new RegExp(`\\b${name}\\b`).test(lower));
  if (weekday >= 0 && !/\b(last|previous|this)\b/.test(lower)) {
    // "wednesday" is today when today is one; "next wednesday" is the first one after today.
    const ahead = (weekday + 1 - reference.weekday + 7) % 7;
    const days = /\bnext\b/.test(lower) && ahead === 0 ? 7 : ahead;
    const target = reference.startOf('day').plus({ days });
    parsed = parsed.set({ year: target.year, month: target.month, day: target.day });
  }
  if (DAY_WORDS.test(value) && !start.isCertain('hour')) parsed = parsed.startOf('day');
  return parsed.isValid ? parsed : null;
}

const pad2 = (value: number): string => (value < 10 ? `0${value}` : String(value));

/**
 * `YYYY-MM-DD HH:MM:SS` of a DateTime in its own zone: what `toFormat(WP_DATE_TIME_FORMAT)` gives, without
 * parsing the format on every call (answers format several dates per record).
 */
export function wpDateTime(dt: DateTime): string {
  return `${String(dt.year).padStart(4, '0')}-${pad2(dt.month)}-${pad2(dt.day)} ${pad2(dt.hour)}:${pad2(dt.minute)}:${pad2(dt.second)}`;
}

/**
 * `YYYY-MM-DD HH:MM:SS` of an instant in UTC, straight from the Date (no zone rules to apply): the first 19
 * characters of its ISO form with a space for the `T`. Built from its fields, which costs a third of making and
 * cutting the ISO text (answers print several of these per event); a year outside 1000–9999 is cut from the ISO text.
 */
export function utcWallClock(value: Date): string {
  const year = value.getUTCFullYear();
  if (year < 1000 || year > 9999 || Number.isNaN(year)) return value.toISOString().slice(0, 19).replace('T', ' ');
  return `${year}-${pad2(value.getUTCMonth() + 1)}-${pad2(value.getUTCDate())} ${pad2(value.getUTCHours())}:${pad2(value.getUTCMinutes())}:${pad2(value.getUTCSeconds())}`;
}

/**
 * The instant of a `YYYY-MM-DD HH:MM:SS[.fff]` wall-clock time in UTC: the API's `utc_*` values, and DATETIME
 * columns as SQLite gives them (mysql2 gives a Date, which is returned as it is).
 */
export function parseUtcWallClock(value: unknown): Date {
  return value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T').replace(/Z?$/, 'Z')}`);
}

/**
 * `YYYY-MM-DD HH:MM:SS` of an instant in a zone: the zone's offset at that instant applied to the UTC time.
 * Answers format several dates per record; this builds no DateTime for them.
 */
export function zonedWallClock(value: Date, zone: Zone): string {
  const ms = value.getTime();
  return utcWallClock(new Date(ms + zoneOffset(zone, ms) * 60_000));
}

/**
 * Something of a zone that only changes at the zone's changes (its offset, its abbreviation), kept per zone and UTC
 * day: `at` is asked at the start and at the end of the day, and when both agree the value holds for the whole day
 * (no zone changes twice in one day). A day with a change is never kept: its instants are asked one by one.
 */
export class PerZoneDay<T> {
  private readonly days = new Map<string, Map<number, T>>();
  private kept = 0;

  /** `maxDays`: days kept over all zones before it starts again (200,000: about 55 years of days in ten zones). */
  constructor(private readonly maxDays = 200_000) {}

  /** The value at `ms` in the zone named `zone`, `at` giving it at any instant. */
  get(zone: string, ms: number, at: (ms: number) => T): T {
    const day = Math.floor(ms / DAY);
    let byDay = this.days.get(zone);
    const known = byDay?.get(day);
    if (known !== undefined) return known;
    const first = at(day * DAY);
    if (at((day + 1) * DAY - 1) !== first) return at(ms);
    if (this.kept >= this.maxDays) {
      this.days.clear();
      this.kept = 0;
    }
    if (!byDay) this.days.set(zone, (byDay = new Map()));
    byDay.set(day, first);
    this.kept += 1;
    return first;
  }
}

const DAY = 86_400_000;
const offsets = new PerZoneDay<number>();

/**
 * A zone's offset at an instant, in minutes, as `zone.offset(ms)` gives it, asked once per zone and UTC day (a
 * zone's rules are looked up through Intl, several microseconds each, and answers show several dates per record).
 */
export function zoneOffset(zone: Zone, ms: number): number {
  return zone.isUniversal ? zone.offset(ms) : offsets.get(zone.name, ms, (at) => zone.offset(at));
}

/** `YYYY-MM-DD HH:MM:SS` of the instant in the given zone. */
export function formatWpDateTime(value: DateTime | Date, zone: Zone | string = 'UTC'): string {
  if (value instanceof Date) {
    if (zone === 'UTC') return utcWallClock(value);
    const resolved = typeof zone === 'string' ? Info.normalizeZone(zone) : zone;
    if (resolved.isValid) return zonedWallClock(value, resolved);
  }
  const dt = value instanceof Date ? DateTime.fromJSDate(value) : value;
  return wpDateTime(dt.setZone(zone));
}

/** An instant as a datetime parameter in the form both engines store and compare (UTC). */
export function sqlDateTime(value: Date): string {
  return value.toISOString().replace('T', ' ').replace('Z', '');
}

/**
 * Exclusive bounds on a time shown to whole seconds (`modified_utc`, SPEC §16.1), as conditions on the stored
 * instant, whatever precision an engine keeps: shown after `after` when stored at or after the next whole second,
 * shown before `before` when stored before `before` rounded up to a whole second.
 */
export function shownSecondBounds(after?: Date, before?: Date): { atOrAfter?: Date; before?: Date } {
  return {
    atOrAfter: after ? new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000) : undefined,
    before: before ? new Date(Math.ceil(before.getTime() / 1000) * 1000) : undefined,
  };
}
