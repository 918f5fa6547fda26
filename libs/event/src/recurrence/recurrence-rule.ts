import { TimeZone, parseTimeZone } from '@calendar/shared/time';
import { DateTime } from 'luxon';
import { RRuleTemporal } from 'rrule-temporal';

/** The most occurrences a series may have within the horizon (SPEC §13). */
export const MAX_OCCURRENCES = 1000;

/** The rule parts SPEC §13 supports; anything else is refused. */
const RULE_PARTS = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'BYSETPOS', 'WKST']);
const FREQUENCIES = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const WEEKDAY = '(?:MO|TU|WE|TH|FR|SA|SU)';
const LINES_MAX = 50;
const LINE_LENGTH_MAX = 20000;

/** A recurrence that cannot be accepted: the message says what is wrong (a 400 naming `recurrence`). */
export class RecurrenceError extends Error {}

const fail = (message: string): never => {
  throw new RecurrenceError(message);
};

const integerList = (name: string, value: string, min: number, max: number, signed: boolean): void => {
  for (const item of value.split(',')) {
    const match = /^([+-]?)(\d{1,3})$/.exec(item);
    const number = match ? Number(match[2]) : NaN;
    if (!match || (match[1] && !signed) || number < min || number > max) {
      fail(`${name} must be a comma-separated list of ${signed ? `±${min}..${max}` : `${min}..${max}`}; got ${value}`);
    }
  }
};

/** An RRULE value checked part by part (names, values, combinations) and written back in upper case. */
function normalizeRule(value: string): string {
  const parts = new Map<string, string>();
  for (const part of value.split(';')) {
    const match = /^([A-Za-z]+)=(.+)$/.exec(part.trim());
    if (!match) fail(`RRULE part "${part}" must be NAME=VALUE`);
    const [, rawName, rawValue] = match as RegExpExecArray;
    const name = rawName.toUpperCase();
    const partValue = rawValue.trim().toUpperCase();
    if (!RULE_PARTS.has(name)) fail(`RRULE part ${name} is not supported; supported: ${[...RULE_PARTS].join(', ')}`);
    if (parts.has(name)) fail(`RRULE part ${name} is given twice`);
    parts.set(name, partValue);
  }
  const freq = parts.get('FREQ');
  if (!freq) fail('RRULE must have FREQ');
  if (!FREQUENCIES.has(freq as string)) fail(`FREQ must be one of ${[...FREQUENCIES].join(', ')}`);
  for (const name of ['INTERVAL', 'COUNT']) {
    const number = parts.get(name);
    if (number !== undefined && !/^[1-9]\d{0,5}$/.test(number)) fail(`${name} must be a positive integer`);
  }
  const until = parts.get('UNTIL');
  if (until !== undefined && !/^\d{8}(T\d{6}Z)?$/.test(until)) fail('UNTIL must be a UTC date-time (YYYYMMDDTHHMMSSZ) or a date (YYYYMMDD)');
  if (until !== undefined && parts.has('COUNT')) fail('RRULE takes COUNT or UNTIL, not both');
  const byDay = parts.get('BYDAY');
  if (byDay !== undefined) {
    const ordinals = freq === 'MONTHLY' || freq === 'YEARLY';
    for (const item of byDay.split(',')) {
      const match = new RegExp(`^([+-]?\\d{1,2})?(${WEEKDAY})$`).exec(item);
      if (!match) fail(`BYDAY must list weekdays (MO..SU), with an ordinal such as 2TU or -1FR for monthly and yearly rules; got ${byDay}`);
      const ordinal = (match as RegExpExecArray)[1];
      if (ordinal !== undefined && (!ordinals || Number(ordinal) === 0 || Math.abs(Number(ordinal)) > (freq === 'MONTHLY' ? 5 : 53))) {
        fail(`BYDAY ordinals (${item}) are allowed with FREQ=MONTHLY (±1..5) and FREQ=YEARLY (±1..53) only`);
      }
    }
  }
  if (parts.has('BYMONTHDAY')) integerList('BYMONTHDAY', parts.get('BYMONTHDAY') as string, 1, 31, true);
  if (parts.has('BYMONTH')) integerList('BYMONTH', parts.get('BYMONTH') as string, 1, 12, false);
  if (parts.has('BYSETPOS')) integerList('BYSETPOS', parts.get('BYSETPOS') as string, 1, 366, true);
  const wkst = parts.get('WKST');
  if (wkst !== undefined && !new RegExp(`^${WEEKDAY}$`).test(wkst)) fail('WKST must be a weekday (MO..SU)');
  return [...parts].map(([name, partValue]) => `${name}=${partValue}`).join(';');
}

/** An RDATE or EXDATE line: `VALUE=DATE` or `TZID=<IANA zone>` parameters and a comma-separated list of values. */
function normalizeDates(name: string, params: string, value: string): string {
  let type = 'DATE-TIME' as 'DATE' | 'DATE-TIME';
  let zone: string | undefined;
  const written: string[] = [];
  for (const param of params.split(';').filter((item) => item !== '')) {
    const match = /^([A-Za-z-]+)=(.+)$/.exec(param);
    const key = match?.[1].toUpperCase();
    if (key === 'VALUE' && /^(DATE|DATE-TIME)$/i.test(match?.[2] ?? '')) {
      type = (match as RegExpExecArray)[2].toUpperCase() as typeof type;
      written.push(`VALUE=${type}`);
    } else if (key === 'TZID') {
      zone = (match as RegExpExecArray)[2];
      const parsed = parseTimeZone(zone);
      if (!parsed || parsed.fixed) fail(`${name} TZID must be an IANA time zone name; got ${zone}`);
      written.push(`TZID=${zone}`);
    } else {
      fail(`${name} parameter ${param} is not supported (VALUE=DATE, VALUE=DATE-TIME or TZID=<zone>)`);
    }
  }
  if (type === 'DATE' && zone !== undefined) fail(`${name} with VALUE=DATE takes no TZID`);
  const pattern = type === 'DATE' ? /^\d{8}$/ : zone !== undefined ? /^\d{8}T\d{6}$/ : /^\d{8}T\d{6}Z?$/;
  const values = value.split(',').map((item) => item.trim().toUpperCase());
  for (const item of values) {
    const valid = type === 'DATE' ? DateTime.fromFormat(item, 'yyyyMMdd').isValid : DateTime.fromFormat(item.slice(0, 15), "yyyyMMdd'T'HHmmss").isValid;
    if (!pattern.test(item) || !valid) {
      fail(`${name} values must be ${type === 'DATE' ? 'dates YYYYMMDD' : 'date-times YYYYMMDDTHHMMSS (with Z for UTC, or in the TZID zone)'}; got ${item}`);
    }
  }
  return `${name}${written.map((item) => `;${item}`).join('')}:${values.join(',')}`;
}

/**
 * Checks recurrence lines (SPEC §13) and writes them as the service keeps and answers them: names, rule parts and
 * values in upper case (zone names as given). `[]` is a single event. Throws RecurrenceError.
 */
export function normalizeRecurrence(lines: string[]): string[] {
  const kept = lines.map((line) => line.trim()).filter((line) => line !== '');
  if (kept.length > LINES_MAX) fail(`at most ${LINES_MAX} lines`);
  const normalized = kept.map((line) => {
    if (line.length > LINE_LENGTH_MAX) fail(`a line must not exceed ${LINE_LENGTH_MAX} characters`);
    const match = /^(RRULE|RDATE|EXDATE)((?:;[^:;]+)*):(.+)$/i.exec(line);
    if (!match) fail(`each line must be RRULE:..., RDATE...:... or EXDATE...:... (RFC 5545); got "${line.slice(0, 80)}"`);
    const [, rawName, params, value] = match as RegExpExecArray;
    const name = rawName.toUpperCase();
    if (name === 'RRULE') {
      if (params !== '') fail('RRULE takes no parameters');
      return `RRULE:${normalizeRule(value)}`;
    }
    return normalizeDates(name, params, value);
  });
  if (normalized.filter((line) => line.startsWith('RRULE:')).length > 1) fail('at most one RRULE line');
  if (normalized.length > 0 && !normalized.some((line) => line.startsWith('RRULE:') || line.startsWith('RDATE'))) fail('a series needs an RRULE or RDATE line');
  return normalized;
}

/** Where a series begins: its first occurrence's start and the zone its rule runs in. */
export interface SeriesStart {
  start: Date;
  zone: TimeZone;
}

/** The zone of a series as Temporal names it: the IANA name, or the fixed offset (`+05:30`). */
function temporalZone(zone: TimeZone, at: Date): string {
  return zone.fixed ? DateTime.fromJSDate(at, { zone: zone.zone }).toFormat('ZZ') : zone.name;
}

/** The instants an RDATE or EXDATE line names; a DATE names that day at the series' time of day. */
function lineInstants(line: string, series: SeriesStart): { instants: number[]; days: string[] } {
  const [head, value] = [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)];
  const zone = /TZID=([^;]+)/.exec(head)?.[1];
  const start = DateTime.fromJSDate(series.start, { zone: series.zone.zone });
  const instants: number[] = [];
  const days: string[] = [];
  for (const item of value.split(',')) {
    if (item.length === 8) {
      const day = DateTime.fromFormat(item, 'yyyyMMdd', { zone: series.zone.zone });
      days.push(day.toISODate() as string);
      instants.push(day.set({ hour: start.hour, minute: start.minute, second: start.second }).toMillis());
    } else if (item.endsWith('Z')) {
      instants.push(DateTime.fromFormat(item, "yyyyMMdd'T'HHmmss'Z'", { zone: 'utc' }).toMillis());
    } else {
      instants.push(DateTime.fromFormat(item, "yyyyMMdd'T'HHmmss", { zone: zone ?? series.zone.zone }).toMillis());
    }
  }
  return { instants, days };
}

/** The instants a series' RDATE and EXDATE lines name (a DATE EXDATE: that day at the series' time of day). */
export function seriesDates(lines: string[], series: SeriesStart): { rdates: number[]; exdates: number[] } {
  const of = (name: string) => lines.filter((line) => line.startsWith(name)).flatMap((line) => lineInstants(line, series).instants);
  return { rdates: of('RDATE'), exdates: of('EXDATE') };
}

/**
 * The starts of a series' occurrences up to `until` (its first one, the event's own start, included), in order:
 * the RRULE expanded by rrule-temporal on wall-clock time in the event's zone, plus RDATEs, minus EXDATEs (a DATE
 * EXDATE excludes that day). `complete`: the series has no occurrence after `until`; `next`: the start of the first
 * occurrence after `until` that the RRULE or an RDATE gives (an EXDATE may remove it), null when complete. Throws
 * RecurrenceError when the start is not an occurrence of the rule (the result would depend on the reader: RFC 5545
 * leaves it undefined) or, with `capFrom`, when more than MAX_OCCURRENCES start from `capFrom` on (the horizon of a
 * write).
 */
export function occurrenceStarts(lines: string[], series: SeriesStart, until: Date, capFrom?: Date): { starts: Date[]; complete: boolean; next: Date | null } {
  const startMs = series.start.getTime();
  const rruleLine = lines.find((line) => line.startsWith('RRULE:'));
  const found = new Set<number>([startMs]);
  /** The first start after `until`; Infinity while none is known (the series is then complete). */
  let next = Infinity;
  if (rruleLine) {
    // UNTIL as a date means the end of that day in the event's zone; the library is given the UTC instant.
    const rule = rruleLine.replace(/UNTIL=(\d{8})(?=;|$)/, (_all, day: string) => {
      const end = DateTime.fromFormat(day, 'yyyyMMdd', { zone: series.zone.zone }).endOf('day').toUTC();
      return `UNTIL=${end.toFormat("yyyyMMdd'T'HHmmss'Z'")}`;
    });
    const zoneId = temporalZone(series.zone, series.start);
    const local = DateTime.fromJSDate(series.start, { zone: series.zone.zone });
    const dtstart = { timeZoneId: zoneId, toString: () => `${local.toFormat("yyyy-MM-dd'T'HH:mm:ss")}${local.toFormat('ZZ')}[${zoneId}]` };
    let expanded: number[];
    let more: { epochMilliseconds: number } | null;
    try {
      const recurrence = new RRuleTemporal({ rruleString: rule, dtstart });
      // A series that starts beyond `until` has its first occurrence all the same: the event itself.
      expanded = recurrence.between(series.start, until.getTime() < startMs ? series.start : until, true).map((date) => date.epochMilliseconds);
      more = recurrence.next(until);
    } catch (error) {
      return fail(`RRULE cannot be expanded: ${(error as Error).message}`);
    }
    if (expanded[0] !== startMs) fail('the event start must be the first occurrence of the RRULE (move start_date onto the rule, or add it as an RDATE)');
    for (const instant of expanded) found.add(instant);
    if (more) next = more.epochMilliseconds;
  }
  for (const line of lines.filter((item) => item.startsWith('RDATE'))) {
    for (const instant of lineInstants(line, series).instants) {
      if (instant < startMs) fail('RDATE values must not be before the event start');
      if (instant <= until.getTime()) found.add(instant);
      else next = Math.min(next, instant);
    }
  }
  for (const line of lines.filter((item) => item.startsWith('EXDATE'))) {
    // The first occurrence is the event itself: it is never excluded.
    const { instants, days } = lineInstants(line, series);
    const dayOf = (instant: number) => DateTime.fromMillis(instant, { zone: series.zone.zone }).toISODate() as string;
    const excluded = days.length > 0 ? (instant: number) => days.includes(dayOf(instant)) : (instant: number) => instants.includes(instant);
    for (const instant of [...found]) if (instant !== startMs && excluded(instant)) found.delete(instant);
  }
  const counted = capFrom ? [...found].filter((instant) => instant >= capFrom.getTime()).length : 0;
  if (counted > MAX_OCCURRENCES) fail(`the series has ${counted} occurrences within the horizon; at most ${MAX_OCCURRENCES} are allowed`);
  return { starts: [...found].sort((a, b) => a - b).map((instant) => new Date(instant)), complete: next === Infinity, next: next === Infinity ? null : new Date(next) };
}
