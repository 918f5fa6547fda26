import { DateTime } from 'luxon';
import type { EventResponse } from '../dto/event.mapper';
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

export interface FeedEvent {
  event: EventResponse;
  /** Protected by a password the caller has not given: only UID, SUMMARY, dates and URL are shown. */
  locked: boolean;
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

function venuesOf(event: EventResponse) {
  return Array.isArray(event.venue) ? event.venue : [event.venue];
}

/** The content lines of one VEVENT. */
export function veventLines({ event, locked }: FeedEvent): string[] {
  const stamp = dateTimeValue(event.modified_utc, true);
  const lines = ['BEGIN:VEVENT', contentLine('UID', eventUid(event)), contentLine('DTSTAMP', stamp), ...timeLines(event), contentLine('SUMMARY', escapeText(event.title))];
  if (event.url) lines.push(contentLine('URL', event.url));
  if (locked) {
    lines.push('END:VEVENT');
    return lines;
  }
  lines.push(contentLine('CREATED', dateTimeValue(event.date_utc, true)), contentLine('LAST-MODIFIED', stamp));
  const text = htmlToPlainText(event.description);
  if (text !== '') lines.push(contentLine('DESCRIPTION', escapeText(text)));
  if (event.description !== '') lines.push(contentLine('X-ALT-DESC', escapeText(event.description), { FMTTYPE: 'text/html' }));
  const venue = venuesOf(event)[0];
  if (venue) {
    const place = [venue.venue, venue.address, venue.city, venue.zip, venue.country].map((part) => part.trim()).filter((part) => part !== '');
    if (place.length > 0) lines.push(contentLine('LOCATION', escapeText(place.join(', '))));
    if (venue.geo_lat !== null && venue.geo_lng !== null) lines.push(contentLine('GEO', `${venue.geo_lat};${venue.geo_lng}`));
  }
  for (const organizer of event.organizer) {
    if (organizer.email) lines.push(contentLine('ORGANIZER', `mailto:${organizer.email}`, { CN: organizer.organizer }));
    else lines.push(contentLine('CONTACT', escapeText(organizer.organizer)));
  }
  const categories = [...event.categories, ...event.tags].map((term) => escapeText(term.name));
  if (categories.length > 0) lines.push(contentLine('CATEGORIES', categories.join(',')));
  lines.push(contentLine('STATUS', event.status === 'trash' ? 'CANCELLED' : 'CONFIRMED'));
  lines.push(contentLine('CLASS', event.status === 'private' ? 'PRIVATE' : 'PUBLIC'));
  if (event.image) lines.push(contentLine('IMAGE', event.image.url, { VALUE: 'URI' }));
  lines.push(contentLine('TRANSP', 'OPAQUE'), 'END:VEVENT');
  return lines;
}

/** The VTIMEZONE lines for every IANA zone the events' times name, each over the span of its events. */
function timezoneLines(events: readonly FeedEvent[]): string[] {
  const spans = new Map<string, { from: number; to: number }>();
  for (const { event } of events) {
    if (event.all_day || !zoned(event)) continue;
    const from = Date.parse(`${event.utc_start_date.replace(' ', 'T')}Z`);
    const to = Date.parse(`${event.utc_end_date.replace(' ', 'T')}Z`);
    const span = spans.get(event.timezone);
    spans.set(event.timezone, span ? { from: Math.min(span.from, from), to: Math.max(span.to, to) } : { from, to });
  }
  return [...spans].flatMap(([zone, { from, to }]) => vtimezoneLines(zone, from, to));
}

/** A whole calendar (RFC 5545 with the RFC 7986 properties of SPEC §12), as the text of a `text/calendar` answer. */
export function calendarText(events: readonly FeedEvent[], options: CalendarOptions): string {
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
    ...timezoneLines(events),
    ...events.flatMap((item) => veventLines(item)),
    'END:VCALENDAR',
  ];
  return joinLines(lines);
}
