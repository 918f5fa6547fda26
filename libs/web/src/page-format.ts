import { eventZone, EventResponse } from '@calendar/event';
import { plainText } from '@calendar/records';
import { VenueResponse } from '@calendar/venue';
import { parseUtcWallClock } from '@calendar/shared/time';
import { DateTime } from 'luxon';

/** An instant of the API (`utc_*`: `YYYY-MM-DD HH:MM:SS` in UTC) in the event's zone and the page's language. */
function local(utc: string, event: Pick<EventResponse, 'timezone'>, locale: string): DateTime {
  return DateTime.fromSQL(utc, { zone: 'utc' }).setZone(eventZone(event.timezone).zone).setLocale(locale);
}

/** When an event takes place, for people: dates (and times, with the zone's abbreviation) in its own zone. */
export function eventWhen(event: EventResponse, locale: string): string {
  const start = local(event.utc_start_date, event, locale);
  const end = local(event.utc_end_date, event, locale);
  if (event.all_day) {
    const first = start.toLocaleString(DateTime.DATE_HUGE);
    return start.hasSame(end, 'day') ? first : `${first} – ${end.toLocaleString(DateTime.DATE_HUGE)}`;
  }
  const zone = event.timezone_abbr;
  if (start.hasSame(end, 'day')) return `${start.toLocaleString(DateTime.DATE_HUGE)}, ${start.toLocaleString(DateTime.TIME_SIMPLE)} – ${end.toLocaleString(DateTime.TIME_SIMPLE)} (${zone})`;
  return `${start.toLocaleString(DateTime.DATETIME_MED)} – ${end.toLocaleString(DateTime.DATETIME_MED)} (${zone})`;
}

/** The event's start as an ISO 8601 instant with its offset (the `datetime` of its `<time>`). */
export function eventStartIso(event: EventResponse): string {
  return local(event.utc_start_date, event, 'en').toISO({ suppressMilliseconds: true }) ?? '';
}

/** Formats of the time of day by language and zone, made once: a month grid shows hundreds of times. */
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The time of day an event starts, in its zone (month grid), or null for all-day events: what luxon's
 * `TIME_SIMPLE` gives, through one kept `Intl.DateTimeFormat` instead of a DateTime per event (with Intl's plain
 * space before AM/PM in every zone). A fixed offset (`UTC+5`) is added to the instant, which is then read in UTC
 * (Intl knows the zones of the tz database only). `startMs` is the start as an instant, where the caller has it.
 */
export function eventTime(event: Pick<EventResponse, 'all_day' | 'utc_start_date' | 'timezone'>, locale: string, startMs?: number): string | null {
  if (event.all_day) return null;
  const zone = eventZone(event.timezone);
  const key = `${locale}|${zone.fixed ? 'UTC' : zone.name}`;
  let format = timeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: 'numeric', timeZone: zone.fixed ? 'UTC' : zone.name });
    if (timeFormats.size < 1_000) timeFormats.set(key, format);
  }
  const at = startMs ?? parseUtcWallClock(event.utc_start_date).getTime();
  return format.format(zone.fixed ? at + zone.zone.offset(at) * 60_000 : at);
}

/** The venue of an event (the first), or null. */
export function firstVenue(event: EventResponse): VenueResponse | null {
  return Array.isArray(event.venue) ? (event.venue[0] ?? null) : event.venue;
}

/** A venue's address on one line. */
export function venueAddress(venue: VenueResponse): string {
  return [venue.address, [venue.zip, venue.city].filter(Boolean).join(' '), venue.country].map((part) => part.trim()).filter(Boolean).join(', ');
}

/** OpenStreetMap at the venue's coordinates, or null when it has none. */
export function mapLink(venue: VenueResponse): string | null {
  if (venue.geo_lat === null || venue.geo_lng === null) return null;
  return `https://www.openstreetmap.org/?mlat=${venue.geo_lat}&mlon=${venue.geo_lng}#map=16/${venue.geo_lat}/${venue.geo_lng}`;
}

/** Google Calendar's "create event" template, filled with the event (its times in UTC, or its dates). */
export function googleCalendarLink(event: EventResponse): string {
  const compact = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');
  let dates: string;
  if (event.all_day) {
    const dayAfter = DateTime.fromSQL(event.end_date).plus({ days: 1 }).toFormat('yyyyMMdd');
    dates = `${event.start_date.slice(0, 10).replace(/-/g, '')}/${dayAfter}`;
  } else {
    dates = `${compact(event.utc_start_date)}Z/${compact(event.utc_end_date)}Z`;
  }
  const venue = firstVenue(event);
  const params = new URLSearchParams({ action: 'TEMPLATE', text: event.title, dates });
  const details = plainText(event.excerpt || event.description);
  if (details) params.set('details', details.length > 1000 ? `${details.slice(0, 999)}…` : details);
  if (venue) params.set('location', [venue.venue, venueAddress(venue)].filter(Boolean).join(', '));
  if (!/^UTC[+-]/.test(event.timezone)) params.set('ctz', event.timezone);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/** The `webcal://` form of a feed address, which calendar programs open as a subscription. */
export function webcal(url: string): string {
  return url.replace(/^https?:/, 'webcal:');
}

/** JSON for a `<script type="application/ld+json">` block: no `<` can end the block or open a tag in it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
