import { ApiException, Caller } from '@calendar/shared/http';
import { searchTerms } from '@calendar/shared/search';
import { parseDateTime, WP_DATE_TIME_FORMAT, zonedWallClock } from '@calendar/shared/time';
import { DateTime, Zone } from 'luxon';
import { ListEventsQueryDto } from '../dto/event.dto';
import { localDay } from '../count/event-tally';
import { EventListFilter } from '../event.repository';

const TWO_YEARS = { years: 2 };

/** What a list query's ids and slugs name, looked up before the filter is made. */
export interface ListLookups {
  /** Per taxonomy given, the term ids its items name and the items that name none. */
  terms: { taxonomy: 'categories' | 'tags'; ids: number[]; named: number[]; unknown: (number | string)[] }[];
  /** Per place kind given, the ids that name no record. */
  unknownPlaces: { key: 'venue' | 'organizer'; unknown: number[] }[];
  /** Whether `post_parent` names an existing event (when given). */
  parentExists?: boolean;
}

export interface ListQueryEnv {
  caller: Caller | null;
  language: string;
  now: Date;
  /** The service's time zone: date parameters are wall-clock times in it. */
  zone: Zone;
  /** `false` for a sync (SPEC §16.2): no date window, not even the default one. */
  window?: boolean;
}

export interface EventListQuery {
  filter: EventListFilter;
  /** The window the list applies when none is given, as the links to its other pages carry it. */
  effective: Record<string, unknown>;
}

/**
 * A list query's filter (SPEC §4.4), made from its parameters and what their ids and slugs name: every problem
 * reported at once as a 400 naming each parameter; the date window bounded (whole days unless `strict_dates`,
 * today to two years on by default). No I/O: the reader looks up what the lookups hold.
 */
export function eventListQuery(query: ListEventsQueryDto, lookups: ListLookups, { caller, language, now, zone, window = true }: ListQueryEnv): EventListQuery {
  const problems: Record<string, string> = {};
  if (query.status && !caller && query.status.some((status) => status !== 'publish')) problems['status'] = 'must be publish for callers who are not logged in';
  if ((query.geoloc_lat === undefined) !== (query.geoloc_lng === undefined)) {
    problems[query.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng'] = 'must be given together with the other coordinate';
  }
  const filter: EventListFilter = { language, caller, statuses: query.status, include: query.include, featured: query.featured, geoloc: query.geoloc };
  if (query.search !== undefined) filter.search = searchTerms(query.search);
  filter.termSets = [];
  filter.termKeys = [];
  for (const { taxonomy, ids, named, unknown } of lookups.terms) {
    if (unknown.length > 0) problems[taxonomy] = `must name existing ${taxonomy} by id or slug; unknown: ${unknown.join(', ')}`;
    filter.termSets.push(ids);
    // One term named: the events counted under it (its own and its descendants', SPEC §4.4).
    filter.termKeys.push(named.length === 1 ? named[0] : null);
  }
  for (const { key, unknown } of lookups.unknownPlaces) {
    if (unknown.length > 0) problems[key] = `must list existing ${key} ids; unknown: ${unknown.join(', ')}`;
  }
  if (query.venue) filter.venues = query.venue;
  if (query.organizer) filter.organizers = query.organizer;
  if (query.post_parent !== undefined) {
    if (!lookups.parentExists) problems['post_parent'] = 'must be the id of an existing event';
    filter.postParent = query.post_parent;
  }
  if (Object.keys(problems).length > 0) throw ApiException.invalidParams(problems);
  if (query.ticketed === true) throw new ApiException(400, 'tickets-not-supported', 'This service sells no tickets; ticketed=true matches nothing.');
  if (query.geoloc_lat !== undefined && query.geoloc_lng !== undefined) {
    filter.near = { lat: query.geoloc_lat, lng: query.geoloc_lng, radiusKm: query.geoloc_radius ?? 50 };
  }

  // SPEC §16.1: exact instants (no widening to whole days), also with `include`.
  const instant = (value: string) => (parseDateTime(value, { zone, now }) as DateTime).toJSDate();
  if (query.modified_after !== undefined) filter.modifiedAfter = instant(query.modified_after);
  if (query.modified_before !== undefined) filter.modifiedBefore = instant(query.modified_before);

  const effective: Record<string, unknown> = {};
  if (query.include || !window) return { filter, effective };
  // SPEC §4.4: boundaries are wall-clock times in TIMEZONE; whole days unless strict_dates.
  const bound = (value: string, edge: 'start' | 'end'): Date => {
    const parsed = (parseDateTime(value, { zone, now }) as DateTime).setZone(zone);
    if (query.strict_dates) return parsed.toJSDate();
    return (edge === 'start' ? parsed.startOf('day') : parsed.set({ hour: 23, minute: 59, second: 59, millisecond: 0 })).toJSDate();
  };
  const relative = [query.starts_before, query.starts_after, query.ends_before, query.ends_after].some((value) => value !== undefined);
  const startDate = query.start_date ?? (relative ? undefined : DateTime.fromJSDate(now).setZone(zone).toFormat(WP_DATE_TIME_FORMAT));
  const endDate = query.end_date ?? (relative ? undefined : DateTime.fromJSDate(now).setZone(zone).plus(TWO_YEARS).toFormat(WP_DATE_TIME_FORMAT));
  if (startDate !== undefined) filter.startsAtOrAfter = bound(startDate, 'start');
  if (endDate !== undefined) filter.endsAtOrBefore = bound(endDate, 'end');
  // Whole days from the first to the last (both given and not strict): what totals per day can count.
  if (filter.startsAtOrAfter && filter.endsAtOrBefore && !query.strict_dates) filter.days = { first: localDay(filter.startsAtOrAfter.getTime(), zone), last: localDay(filter.endsAtOrBefore.getTime(), zone) };
  if (query.starts_before !== undefined) filter.startsBefore = bound(query.starts_before, 'end');
  if (query.starts_after !== undefined) filter.startsAfter = bound(query.starts_after, 'end');
  if (query.ends_before !== undefined) filter.endsBefore = bound(query.ends_before, 'end');
  if (query.ends_after !== undefined) filter.endsAfter = bound(query.ends_after, 'end');
  const shown = (date: Date | undefined) => (date ? zonedWallClock(date, zone) : undefined);
  effective['start_date'] = shown(filter.startsAtOrAfter);
  effective['end_date'] = shown(filter.endsAtOrBefore);
  return { filter, effective };
}

/**
 * An overlap window (events that end after A, with no lower bound on their start) reads the start index from the
 * longest event's length before A: the bound the reader adds once it knows that length.
 */
export function needsStartBound(filter: EventListFilter): filter is EventListFilter & { endsAfter: Date } {
  return filter.endsAfter !== undefined && !filter.startsAtOrAfter && !filter.startsAfter;
}
