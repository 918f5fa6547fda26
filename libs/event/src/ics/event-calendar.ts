import { JsonText } from '@calendar/shared/http';
import { parseUtcWallClock } from '@calendar/shared/time';
import { DateTime } from 'luxon';
import type { OrganizerResponse } from '@calendar/organizer';
import type { TermResponse } from '@calendar/taxonomy';
import type { VenueResponse } from '@calendar/venue';
import type { EventResponse } from '../dto/event.mapper';
import { eventZone } from '../event-dates';
import { seriesDates } from '../recurrence/recurrence-rule';
import { contentLine, dateTimeValue, dateValue, escapeText, joinLines } from './content-lines';
import { htmlToPlainText } from './html-text';
import { describableZone, vtimezoneLines } from './vtimezone';

/*
 * The iCalendar form of events (SPEC §12): a VCALENDAR of one VEVENT per event, built from the same answers the
 * JSON routes give, with a VTIMEZONE for every zone its times name.
 */

export interface CalendarOptions {
  /** NAME / X-WR-CALNAME. */
  name: string;
  /** X-WR-TIMEZONE: the service time zone. */
  timezone: string;
}

/**
 * The part of a VEVENT that depends on the event alone (its revision, the language, the origin, whether it is
 * locked), kept between answers: the lines before and after those of the records it links to, and the span of
 * its times in the zone it names (for the VTIMEZONE).
 */
export interface KeptVevent {
  head: string;
  tail: string;
  locked: boolean;
  zone: string | null;
  from: number;
  to: number;
}

/** One VEVENT of a calendar: its kept part and the lines of the venue, organizers and terms it links to now. */
export interface FeedItem {
  kept: KeptVevent;
  linked: string;
}

const PRODID = '-//Event Calendar Service//Events//EN';

/** Whether the event's times are written with its IANA zone (TZID) rather than in UTC (fixed offsets, UTC). */
function zoned(event: EventResponse): boolean {
  return describableZone(event.timezone);
}

/** DTSTART / DTEND: local time with TZID for IANA zones, UTC for fixed offsets, DATE for all-day events. */
function timeLines(event: EventResponse): string[] {
  if (event.all_day) {
    // DTEND is exclusive: the day after the last day.
    const dayAfter = DateTime.fromISO(event.end_date.slice(0, 10), { zone: 'UTC' }).plus({ days: 1 }).toFormat('yyyyMMdd');
    return [contentLine('DTSTART', dateValue(event.start_date), { VALUE: 'DATE' }), contentLine('DTEND', dayAfter, { VALUE: 'DATE' })];
  }
  if (zoned(event)) {
    return [
      contentLine('DTSTART', dateTimeValue(event.start_date, false), { TZID: event.timezone }),
      contentLine('DTEND', dateTimeValue(event.end_date, false), { TZID: event.timezone }),
    ];
  }
  return [contentLine('DTSTART', dateTimeValue(event.utc_start_date, true)), contentLine('DTEND', dateTimeValue(event.utc_end_date, true))];
}

/** `<id>@<host[:port] of SITE_URL>` (SPEC §12): the host of `global_id` (`<host>?id=<id>`), stable for the event's life. */
export function eventUid(event: EventResponse): string {
  return `${event.id}@${event.global_id.slice(0, event.global_id.lastIndexOf('?id='))}`;
}

const instant = (utcWallClock: string) => parseUtcWallClock(utcWallClock).getTime();

/** An instant as a series' DTSTART is written: a DATE for all-day events, local time with TZID, or UTC. */
function seriesTime(event: EventResponse, name: string, instants: readonly number[]): string {
  const wall = (at: number) => DateTime.fromMillis(at, { zone: event.all_day || zoned(event) ? eventZone(event.timezone).zone : 'UTC' }).toFormat('yyyy-MM-dd HH:mm:ss');
  if (event.all_day) return contentLine(name, instants.map((at) => dateValue(wall(at))).join(','), { VALUE: 'DATE' });
  if (zoned(event)) return contentLine(name, instants.map((at) => dateTimeValue(wall(at), false)).join(','), { TZID: event.timezone });
  return contentLine(name, instants.map((at) => dateTimeValue(wall(at), true)).join(','));
}

/** How a VEVENT takes part in a series (SPEC §13): the master's rule lines, or an override's RECURRENCE-ID. */
export type SeriesPart = { rule: string[] } | { uid: string; recurrenceId: number };

/** The event's own lines: those before the linked records' and those after (none for a locked event). */
export function keptVevent(event: EventResponse, locked: boolean, series?: SeriesPart): KeptVevent {
  const stamp = dateTimeValue(event.modified_utc, true);
  const uid = series && 'uid' in series ? series.uid : eventUid(event);
  const head = ['BEGIN:VEVENT', contentLine('UID', uid), contentLine('DTSTAMP', stamp), ...timeLines(event)];
  if (series && 'rule' in series) head.push(...series.rule);
  if (series && 'recurrenceId' in series) head.push(seriesTime(event, 'RECURRENCE-ID', [series.recurrenceId]));
  head.push(contentLine('SUMMARY', escapeText(event.title)));
  if (event.url) head.push(contentLine('URL', event.url));
  const zone = !event.all_day && zoned(event) ? event.timezone : null;
  const span = { zone, from: instant(event.utc_start_date), to: instant(event.utc_end_date) };
  if (locked) return { head: joinLines([...head, 'END:VEVENT']), tail: '', locked, ...span };
  head.push(contentLine('CREATED', dateTimeValue(event.date_utc, true)), contentLine('LAST-MODIFIED', stamp));
  const plain = htmlToPlainText(event.description);
  if (plain !== '') head.push(contentLine('DESCRIPTION', escapeText(plain)));
  if (event.description !== '') head.push(contentLine('X-ALT-DESC', escapeText(event.description), { FMTTYPE: 'text/html' }));
  const tail = [contentLine('STATUS', event.status === 'trash' ? 'CANCELLED' : 'CONFIRMED'), contentLine('CLASS', event.status === 'private' ? 'PRIVATE' : 'PUBLIC')];
  if (event.image) tail.push(contentLine('IMAGE', event.image.url, { VALUE: 'URI' }));
  tail.push(contentLine('TRANSP', 'OPAQUE'), 'END:VEVENT');
  return { head: joinLines(head), tail: joinLines(tail), locked, ...span };
}

/** A linked record as a model, or as its kept JSON text (the renderings events embed). */
type Embedded<T> = T | JsonText<T>;

/**
 * Lines of a linked record, made once per kept rendering (a new version renders it anew): keyed by the kept text,
 * whose model is made for it alone, or by the model.
 */
function once<T extends object>(memo: WeakMap<Embedded<T>, string>, record: Embedded<T>, make: (record: T) => string): string {
  let made = memo.get(record);
  if (made === undefined) {
    made = make(record instanceof JsonText ? record.toJSON() : record);
    memo.set(record, made);
  }
  return made;
}

const venueMemo = new WeakMap<Embedded<VenueResponse>, string>();
const organizerMemo = new WeakMap<Embedded<OrganizerResponse>, string>();
const termMemo = new WeakMap<Embedded<TermResponse>, string>();

function venueLines(venue: VenueResponse): string {
  const lines: string[] = [];
  const place = [venue.venue, venue.address, venue.city, venue.zip, venue.country].map((part) => part.trim()).filter((part) => part !== '');
  if (place.length > 0) lines.push(contentLine('LOCATION', escapeText(place.join(', '))));
  if (venue.geo_lat !== null && venue.geo_lng !== null) lines.push(contentLine('GEO', `${venue.geo_lat};${venue.geo_lng}`));
  return joinLines(lines);
}

function organizerLine(organizer: OrganizerResponse): string {
  return joinLines([organizer.email ? contentLine('ORGANIZER', `mailto:${organizer.email}`, { CN: organizer.organizer }) : contentLine('CONTACT', escapeText(organizer.organizer))]);
}

/** LOCATION and GEO of the (first) venue, ORGANIZER or CONTACT of each organizer, CATEGORIES of the terms. */
export function linkedLines(venues: readonly Embedded<VenueResponse>[], organizers: readonly Embedded<OrganizerResponse>[], terms: readonly Embedded<TermResponse>[]): string {
  let lines = venues.length > 0 ? once(venueMemo, venues[0], venueLines) : '';
  for (const organizer of organizers) lines += once(organizerMemo, organizer, organizerLine);
  if (terms.length > 0) lines += joinLines([contentLine('CATEGORIES', terms.map((term) => once(termMemo, term, (named) => escapeText(named.name))).join(','))]);
  return lines;
}

/** A whole answer as one feed item (the single-event feeds, which keep nothing). */
export function feedItem(event: EventResponse, locked: boolean, series?: SeriesPart): FeedItem {
  const venues = Array.isArray(event.venue) ? event.venue : [event.venue];
  return { kept: keptVevent(event, locked, series), linked: locked ? '' : linkedLines(venues, event.organizer, [...event.categories, ...event.tags]) };
}

/** UNTIL in the form RFC 5545 asks for with the series' DTSTART: a DATE for all-day events, else a UTC date-time. */
function untilAsStart(event: EventResponse, rule: string): string {
  const zone = eventZone(event.timezone).zone;
  return rule.replace(/UNTIL=(\d{8})(T\d{6}Z)?/, (whole, day: string, time: string | undefined) => {
    if (event.all_day && time) return `UNTIL=${DateTime.fromFormat(day + time, "yyyyMMdd'T'HHmmss'Z'", { zone: 'UTC' }).setZone(zone).toFormat('yyyyMMdd')}`;
    if (!event.all_day && !time) return `UNTIL=${DateTime.fromFormat(day, 'yyyyMMdd', { zone }).endOf('day').toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`;
    return whole;
  });
}

/** A series as calendar programs take it (SPEC §13): what the feed of its head or of any occurrence holds. */
export interface SeriesFeed {
  head: EventResponse;
  /** Starts (RECURRENCE-IDs) of the occurrences the caller does not get: trashed, or not visible to them. */
  excluded: number[];
  /** Occurrences edited on their own, each with the start the rule gives it. */
  overrides: { event: EventResponse; recurrenceId: number }[];
  /** The end of the series' last written occurrence (the span of its VTIMEZONE). */
  lastEnd: number;
}

/**
 * The VEVENTs of a series: the master (the head's fields with its RRULE, its RDATEs, and as EXDATEs its own
 * exclusions and the occurrences excluded here, all in the form of its DTSTART), then an override with
 * RECURRENCE-ID for each occurrence edited on its own.
 */
export function seriesItems(series: SeriesFeed): FeedItem[] {
  const { head } = series;
  const start = { start: new Date(instant(head.utc_start_date)), zone: eventZone(head.timezone) };
  const { rdates, exdates } = seriesDates(head.recurrence, start);
  const rule = head.recurrence.filter((line) => line.startsWith('RRULE:')).map((line) => contentLine('RRULE', untilAsStart(head, line.slice('RRULE:'.length))));
  if (rdates.length > 0) rule.push(seriesTime(head, 'RDATE', rdates));
  const excluded = [...new Set([...exdates, ...series.excluded])].sort((a, b) => a - b);
  if (excluded.length > 0) rule.push(seriesTime(head, 'EXDATE', excluded));
  const master = feedItem(head, false, { rule });
  master.kept.to = Math.max(master.kept.to, series.lastEnd);
  const uid = eventUid(head);
  return [master, ...series.overrides.map(({ event, recurrenceId }) => feedItem(event, false, { uid, recurrenceId }))];
}

/** The VTIMEZONE lines for every IANA zone the events' times name, each over the span of its events. */
function timezoneLines(items: readonly FeedItem[]): string[] {
  const spans = new Map<string, { from: number; to: number }>();
  for (const { kept } of items) {
    if (kept.zone === null) continue;
    const span = spans.get(kept.zone);
    spans.set(kept.zone, span ? { from: Math.min(span.from, kept.from), to: Math.max(span.to, kept.to) } : { from: kept.from, to: kept.to });
  }
  return [...spans].flatMap(([zone, { from, to }]) => vtimezoneLines(zone, from, to));
}

/** A whole calendar (RFC 5545 with the RFC 7986 properties of SPEC §12), as the text of a `text/calendar` answer. */
export function calendarText(items: readonly FeedItem[], options: CalendarOptions): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    contentLine('PRODID', PRODID),
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    contentLine('NAME', escapeText(options.name)),
    contentLine('X-WR-CALNAME', escapeText(options.name)),
    contentLine('X-WR-TIMEZONE', options.timezone),
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
    ...timezoneLines(items),
  ];
  let body = joinLines(lines);
  for (const { kept, linked } of items) body += kept.head + (kept.locked ? '' : linked + kept.tail);
  return `${body}END:VCALENDAR\r\n`;
}
