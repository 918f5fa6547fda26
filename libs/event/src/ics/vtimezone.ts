import moment from 'moment-timezone';
import { contentLine } from './content-lines';

/*
 * VTIMEZONE components (RFC 5545 §3.6.5) from the tz database as moment-timezone packs it: for a zone and the span
 * of the events that name it, the offset in force at the span's start and then one observance per transition inside
 * the span, each with its exact onset, offsets and abbreviation. A program that has no zone data of its own places
 * every time of the span right, including dates whose rules differ from today's.
 */

const DAY = 86_400_000;

/** `+HHMM` / `-HHMM` of an offset in minutes east of UTC. */
function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}${String(absolute % 60).padStart(2, '0')}`;
}

/** A UTC instant as the local DATE-TIME of the offset in force before it (an observance's onset). */
function localOnset(instant: number, offsetMinutes: number): string {
  return moment.utc(instant + offsetMinutes * 60_000).format('YYYYMMDD[T]HHmmss');
}

interface Observance {
  onset: number;
  from: number;
  to: number;
  name: string;
  daylight: boolean;
}

/** Whether a zone can be named by TZID with a VTIMEZONE (an IANA zone other than UTC itself). */
export function describableZone(zone: string): boolean {
  return zone !== 'UTC' && moment.tz.zone(zone) !== null;
}

/** The observances of `zone` over [from, to] (UTC milliseconds); a day of margin on either side. */
function observances(zone: string, from: number, to: number): Observance[] {
  const packed = moment.tz.zone(zone);
  if (!packed) return [];
  const start = from - DAY;
  const end = to + DAY;
  // moment-timezone keeps offsets in minutes west of UTC; untils[i] ends the period of offsets[i].
  const east = (index: number) => -packed.offsets[index];
  let index = packed.untils.findIndex((until) => until > start);
  if (index < 0) index = packed.untils.length - 1;
  const first: Observance = { onset: start, from: east(index), to: east(index), name: packed.abbrs[index], daylight: moment.tz(start, zone).isDST() };
  const found = [first];
  for (; index < packed.untils.length - 1 && packed.untils[index] <= end; index++) {
    const onset = packed.untils[index];
    found.push({ onset, from: east(index), to: east(index + 1), name: packed.abbrs[index + 1], daylight: moment.tz(onset, zone).isDST() });
  }
  return found;
}

/** The content lines of one VTIMEZONE for `zone` over the span [from, to] of UTC milliseconds. */
export function vtimezoneLines(zone: string, from: number, to: number): string[] {
  const lines = ['BEGIN:VTIMEZONE', contentLine('TZID', zone)];
  for (const observance of observances(zone, from, to)) {
    const kind = observance.daylight ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      contentLine('DTSTART', localOnset(observance.onset, observance.from)),
      contentLine('TZOFFSETFROM', utcOffset(observance.from)),
      contentLine('TZOFFSETTO', utcOffset(observance.to)),
      // Abbreviations the tz database has none for are numbers (`+05`); they are names all the same.
      contentLine('TZNAME', observance.name),
      `END:${kind}`,
    );
  }
  lines.push('END:VTIMEZONE');
  return lines;
}
