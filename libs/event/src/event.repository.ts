import { Injectable } from '@nestjs/common';
import { listedColumns, ListingState, rebuildSearchRows, recordSearchEntries, SEARCH_BATCH, searchConditions, searchRuns, SearchSql, SearchTerm } from '@calendar/shared/search';
import { applyVisibility, LinkedKind, RecordStatus, SqlCondition, visibleCondition } from '@calendar/records';
import { cellsWithin, ChangeRange, DataVersions, EARTH_RADIUS_KM, geoCellSql, GeoPoints, Radius, radiusBox, insertOnly, isListed, linkCellsUpdate, listingStateUpdate, parseSlots, partsSubquery, SelectStatement, slotsSubquery, TranslatedLoader, versionsColumns, versionsFromRow } from '@calendar/shared/database';
import type { Caller } from '@calendar/shared/http';
import { DataSource, EntityManager } from 'typeorm';
import { EventEntity, EventOrganizerEntity, EventTermEntity, EventVenueEntity } from './entities/event.entity';
import { DayCountQuery, dayCountQuery, type TalliedEvent } from './count/event-tally';
import { can } from '@calendar/shared/auth';
import { parseUtcWallClock, shownSecondBounds, sqlDateTime } from '@calendar/shared/time';

/** The most writes a kept total catches up over by counting what they added; beyond, it is counted again. */
const MAX_CATCH_UP_WRITES = 200;

export interface EventListFilter {
  language: string;
  caller: Caller | null;
  statuses?: RecordStatus[];
  include?: number[];
  /** UTC bounds of the date window, already widened to whole days unless strict. */
  startsAtOrAfter?: Date;
  endsAtOrBefore?: Date;
  startsBefore?: Date;
  startsAfter?: Date;
  endsBefore?: Date;
  endsAfter?: Date;
  /** Exclusive bounds on the last modification (SPEC §16.1), exact instants. */
  modifiedAfter?: Date;
  modifiedBefore?: Date;
  /** Every term must match the event's presented text in `language` (SPEC §10.1); empty matches nothing. */
  search?: SearchTerm[];
  /** Each list: events linked to any of these term ids. */
  termSets?: number[][];
  /** Beside each of `termSets`, the one term it was asked by (with its descendants), or null. */
  termKeys?: (number | null)[];
  /** The window as whole local days (days since 1970-01-01), when it is one: the first and the last. */
  days?: { first: number; last: number };
  venues?: number[];
  organizers?: number[];
  featured?: boolean;
  postParent?: number;
  /** A lower bound on the start implied by the other bounds (see `startBound`): it only narrows the index range read. */
  startsAtOrAfterBound?: Date;
  /** The events of one span class only (`SPAN_CLASSES`): one run of a page read class by class (`spanClassFilters`). */
  spanClass?: number;
  geoloc?: boolean;
  near?: { lat: number; lng: number; radiusKm: number };
  /**
   * The venues within `near`'s radius, when resolved (`venuesNear`, as `EventReader.listQuery` does): the condition
   * is then a link condition like the venue filter's, on the links of those venues within the window's start bounds,
   * read by the cells the venues lie in (`nearCells`, `ix_event_venues_cell`), so that its cost follows the events of
   * the window held there. Without them, each event's venues are checked against the radius.
   */
  nearVenues?: number[];
  /** The cells `nearVenues` lie in (`geoCellSql`), resolved with them. */
  nearCells?: number[];
  /**
   * Of `nearCells`, those wholly within the radius (`cellsWithin`), resolved with them: on MySQL and MariaDB their
   * links are taken whole, without naming their venues (`nearLinks`).
   */
  nearInnerCells?: number[];
  /** Of `nearVenues`, those that lie in a cell not wholly within the radius, resolved with them. */
  nearEdgeVenues?: number[];
  /** Events hidden from listings too (a sync shows every event the caller may read, SPEC §16.2). */
  withHidden?: boolean;
}

/**
 * A link whose start-ordered index a page is read along (`ix_event_terms_start`, `ix_event_venues_start`,
 * `ix_event_organizers_start`): the events linked to any of `ids` — one of the filter's term sets (`termSet`, its
 * index), its venues or its organizers.
 */
export interface LinkRange {
  link: 'terms' | 'venues' | 'organizers';
  ids: number[];
  termSet?: number;
}

/** The table and target column of each link a page may be read along. */
const LINK_INDEXES: Record<LinkRange['link'], [string, string]> = {
  terms: ['event_terms', 'term_id'],
  venues: ['event_venues', 'venue_id'],
  organizers: ['event_organizers', 'organizer_id'],
};

/** What is resolved of a filter's radius (`venuesNear`), removed: it follows from the radius and the venues' version. */
export const NO_RESOLVED_RADIUS: Pick<EventListFilter, 'nearVenues' | 'nearCells' | 'nearInnerCells' | 'nearEdgeVenues'> = {
  nearVenues: undefined,
  nearCells: undefined,
  nearInnerCells: undefined,
  nearEdgeVenues: undefined,
};

/** A filter's radius and what was resolved of it, removed: a radius read as a set of its own is not checked again. */
export const NO_RADIUS: Pick<EventListFilter, 'near' | keyof typeof NO_RESOLVED_RADIUS> = { near: undefined, ...NO_RESOLVED_RADIUS };

/** The list's filter without the link a statement is driven from or read along (that link's ids are its rows). */
function withoutLink(filter: EventListFilter, range: LinkRange): EventListFilter {
  if (range.link !== 'terms') return { ...filter, [range.link]: undefined };
  return { ...filter, termSets: filter.termSets?.filter((_ids, index) => index !== range.termSet) };
}

/** How a page's rows are found: `false` from the filter's sets, `true` walking the listing index, or along a link's index. */
export type PageRead = boolean | LinkRange | 'word';

export interface EventLinks {
  venues: Map<number, number[]>;
  organizers: Map<number, number[]>;
  terms: Map<number, number[]>;
}

/** One event's venues, organizers and terms, each in its links' order. */
export interface LinkLists {
  venues: readonly number[];
  organizers: readonly number[];
  terms: readonly number[];
}

/** What the links of an event created by a write carry of its row from their insert (`setLinks`). */
export type LinkedEventRow = Pick<EventEntity, 'startUtc' | 'endUtc' | 'status' | 'hideFromListings' | 'featured'>;

/**
 * What an event's search rows are made of: its original language, its start, end and listing state (whether listed,
 * whether featured: `listing-state.ts`) and its texts in every language.
 */
export interface SearchedEvent {
  original: string;
  start: Date;
  end: Date;
  listed: boolean;
  featured: boolean;
  texts: { lang: string; name: string | null; description: string | null; excerpt: string | null }[];
}

/**
 * What the writer of an event it created knows of it at the end of the write (`WriteEffects.know`): what the
 * appliers of the write's effects would otherwise read back — its links, its search texts, its row as the totals per
 * day count it.
 */
export interface CreatedEvent {
  links: LinkLists;
  search: SearchedEvent;
  tallied: TalliedEvent;
}

/**
 * The most venues a radius's set of events is read for beside another set condition of the list (`filtered`); with
 * more, the other set's events are each checked against the radius instead.
 */
export const NEAR_SET_MAX_VENUES = 20;
/** How many filters' statements of matching events are kept built (`EventRepository.matching`). */
const MATCHING_SQL_KEPT = 1_000;


/** `alias.id` is linked to an event (alias `le`) that meets `condition`. */
function linkedTo(kind: LinkedKind, alias: string, condition: SqlCondition): SqlCondition {
  const table = kind === 'venue' ? 'event_venues' : 'event_organizers';
  const column = kind === 'venue' ? 'venue_id' : 'organizer_id';
  return { sql: `EXISTS (SELECT 1 FROM ${table} lk INNER JOIN events le ON le.id = lk.event_id WHERE lk.${column} = ${alias}.id AND ${condition.sql})`, params: condition.params };
}

/**
 * The ids an event links to, read with the event itself: the lists kept on its row (`venue_ids`, `organizer_ids`,
 * `term_ids`: ids in the order given, comma-separated, NULL for none), which the write path writes from the link
 * rows with every write's effects (`refreshLinkLists`).
 */
const LINK_LISTS = {
  venues: 'r.venue_ids',
  organizers: 'r.organizer_ids',
  terms: 'r.term_ids',
};

/** The link lists as select columns, each under its name. */
const LINK_COLUMNS = Object.entries(LINK_LISTS)
  .map(([name, expression]) => `${expression} AS ${name}`)
  .join(', ');

/**
 * A statement whose last clause is `LIMIT n` or `LIMIT n OFFSET m` (as TypeORM writes a page's size and offset into
 * its text) with those numbers as parameters, placed last; any other statement as it is.
 */
export function limitsAsParameters(sql: string, params: unknown[]): [string, unknown[]] {
  const found = / LIMIT (-?\d+)(?: OFFSET (\d+))?$/.exec(sql);
  if (!found) return [sql, params];
  const [clause, limit, offset] = found;
  const numbers = offset === undefined ? [Number(limit)] : [Number(limit), Number(offset)];
  return [`${sql.slice(0, -clause.length)} LIMIT ?${offset === undefined ? '' : ' OFFSET ?'}`, [...params, ...numbers]];
}

/**
 * A page of `limit` events from `offset` out of runs each in (start, id) order (statements selecting `id` and
 * `start_utc`): one run paged as it is; several merged, the first `offset +
 * limit` of each (the first events of the merge are among the first of each run). `disjoint` runs hold no event
 * twice; otherwise the merge drops an event met twice (UNION).
 */
function mergedRuns(runs: [string, unknown[]][], offset: number, limit: number, { disjoint = false }: { disjoint?: boolean } = {}): [string, unknown[]] {
  // Whole numbers of the request's paging (checked by its DTO), written into the SQL as they are.
  if (![offset, limit].every(Number.isSafeInteger)) throw new Error('a page read in runs needs whole-number paging');
  if (runs.length === 1) return [`${runs[0][0]} LIMIT ${limit} OFFSET ${offset}`, runs[0][1]];
  const names = ['id', 'start_utc'];
  // Each run a derived table: SQLite takes no parenthesised statement as a part of a UNION.
  const merged = runs.map(([sql], index) => `SELECT ${names.map((name) => `r${index}.${name}`).join(', ')} FROM (${sql} LIMIT ${offset + limit}) r${index}`).join(disjoint ? ' UNION ALL ' : ' UNION ');
  return [`SELECT ${names.map((name) => `u.${name} AS ${name}`).join(', ')} FROM (${merged}) u ORDER BY u.start_utc ASC, u.id ASC LIMIT ${limit} OFFSET ${offset}`, runs.flatMap(([, params]) => params)];
}

/**
 * The span classes of events (`events.span_class`, which the database makes from each event's start and end): the
 * longest each class lasts, in seconds, the last class unbounded. The migration that made the column
 * (`EventSpanClass1769904000000`) holds the same limits.
 */
export const SPAN_CLASSES = [6 * 3600, 2 * 86_400, Infinity] as const;

/**
 * A window's list read class by class: for each span class an event overlapping the window can be of, the filter of
 * that class with its own lower bound on the start (an event that lasts at most 6 hours and ends after A started
 * at most 6 hours before A); null when that would not narrow what the listing index is read over (no window bound
 * by the longest event, the longest event within the first class, or no longer than `outlasting` seconds: a
 * window that long is read as one range from the longest event's reach at less than twice its own events), or when
 * the caller sees more than the published events (a visibility of several statuses is not one range of the index).
 */
export function spanClassFilters(filter: EventListFilter, { outlasting = 0 }: { outlasting?: number } = {}): EventListFilter[] | null {
  const bound = filter.startsAtOrAfterBound;
  const endsAfter = filter.endsAfter;
  if (!bound || !endsAfter || filter.caller || filter.statuses || filter.include) return null;
  const longest = (endsAfter.getTime() - bound.getTime()) / 1000;
  if (longest <= Math.max(SPAN_CLASSES[0], outlasting)) return null;
  const classes: EventListFilter[] = [];
  let shorter = 0;
  for (const [spanClass, lasts] of SPAN_CLASSES.entries()) {
    // No event lasts long enough to be of this class, or of any after it.
    if (spanClass > 0 && longest <= shorter) break;
    // Classes are counted in whole seconds (SQLite drops a time's fraction): an event of a class lasts less than a
    // second beyond its limit.
    const reach = Math.min(lasts + 1, longest);
    classes.push({ ...filter, spanClass, startsAtOrAfterBound: new Date(endsAfter.getTime() - reach * 1000) });
    shorter = lasts;
  }
  return classes;
}

/**
 * The widest bounds on the start that every event of `filter` meets, from its own bounds and those they imply (an
 * event that ends by B starts by B): the search rows of a window are read over them (`SearchSql.starts`).
 */
function startBounds(filter: EventListFilter): { from?: string; to?: string } {
  const latest = (dates: (Date | undefined)[]) => dates.reduce<Date | undefined>((found, date) => (date && (!found || date > found) ? date : found), undefined);
  const earliest = (dates: (Date | undefined)[]) => dates.reduce<Date | undefined>((found, date) => (date && (!found || date < found) ? date : found), undefined);
  const from = latest([filter.startsAtOrAfter, filter.startsAfter, filter.startsAtOrAfterBound]);
  const to = earliest([filter.startsBefore, filter.endsAtOrBefore]);
  return { from: from && sqlDateTime(from), to: to && sqlDateTime(to) };
}

/**
 * The rows of the totals per day that count a window's events (those that start on one of its days and end by its
 * last), with `windowDays` as its parameters.
 */
const WINDOW_DAYS = 'day BETWEEN ? AND ? AND day + length <= ?';

function windowDays(query: DayCountQuery): number[] {
  return [query.first, query.last, query.last];
}

/**
 * The total the totals per day give for `query`, as a subquery with its values written in (a statement's select list
 * whose parameters would have to come before those of its FROM); for keys of the tally's alphabet and whole days.
 */
function dayTotalSubquery(query: DayCountQuery): string {
  const values = [`'${query.key}'`, ...windowDays(query)];
  return `(SELECT COALESCE(SUM(${query.column}), 0) FROM event_day_counts WHERE ${`filter_key = ? AND ${WINDOW_DAYS}`.replace(/\?/g, () => String(values.shift()))})`;
}

/**
 * Whether a list is narrowed by `featured` alone beyond its window and the caller's visibility. Its page, and a
 * walked page with `featured`, is read along the featured index, `(featured, start_utc)` and the key, which holds
 * the list's order within the window: MariaDB otherwise chose, for the order, a lookup of the listing index's
 * visibility columns alone (not its range on the start) and read the calendar's events from its first one up to the
 * window (1,922 pages, 79 ms for a page of 40 at a million events, against 0.5 ms along the featured index; walked
 * with a category's probe, 78 ms against 3 ms).
 */
function featuredOnly(filter: EventListFilter): boolean {
  const others = [filter.termSets?.length ? filter.termSets : undefined, filter.venues, filter.organizers, filter.search, filter.near, filter.nearVenues, filter.geoloc, filter.postParent, filter.include, filter.statuses];
  return filter.featured !== undefined && others.every((value) => value === undefined);
}

/**
 * A venue (alias `v`) with coordinates lies within `near`'s radius: a bounding box first (served by the venues'
 * coordinate index), then the exact great-circle distance.
 */
export function nearVenuesCondition(near: Radius): SqlCondition {
  const distance = `${EARTH_RADIUS_KM} * 2 * ASIN(SQRT(POWER(SIN(RADIANS(v.geo_lat - :nearLat) / 2), 2) + COS(RADIANS(:nearLat)) * COS(RADIANS(v.geo_lat)) * POWER(SIN(RADIANS(v.geo_lng - :nearLng) / 2), 2)))`;
  const { latMin, latMax, lngMin, lngMax, lngWraps } = radiusBox(near);
  return {
    sql: `v.geo_lat BETWEEN :latMin AND :latMax AND (v.geo_lng BETWEEN :lngMin AND :lngMax OR :lngWraps = 1) AND ${distance} <= :nearRadius`,
    params: { nearLat: near.lat, nearLng: near.lng, nearRadius: near.radiusKm, latMin, latMax, lngMin, lngMax, lngWraps: lngWraps ? 1 : 0 },
  };
}

/** What deciding how to answer with an event needs: which it is, its revision, and who may see it whole. */
export type EventHead = Pick<EventEntity, 'id' | 'revision' | 'status' | 'authorId' | 'passwordHash'>;

/** The heads and links of records read with `LINK_COLUMNS` (each with the first row it was read from), in their order. */
function headsOfRecords(found: Map<EventEntity, Record<string, unknown>>): { heads: EventHead[]; links: EventLinks } {
  const heads: EventHead[] = [];
  const rows = new Map<number, Record<string, unknown>>();
  for (const [record, row] of found) {
    heads.push({ id: record.id, revision: record.revision, status: record.status, authorId: record.authorId, passwordHash: record.passwordHash });
    rows.set(record.id, row);
  }
  return { heads, links: linksOf(rows) };
}

/** The ids of a list kept on an event's row (`venue_ids`, `term_ids`, `counted_term_ids`, ...): comma-separated, NULL for none. */
function idList(value: unknown): number[] {
  return value === null || value === undefined || String(value) === '' ? [] : String(value).split(',').map(Number);
}

/** The links of no event. */
export function noLinks(): EventLinks {
  return { venues: new Map(), organizers: new Map(), terms: new Map() };
}

function linksOf(extras: Map<number, Record<string, unknown>>): EventLinks {
  const links = noLinks();
  for (const [eventId, values] of extras) {
    for (const kind of ['venues', 'organizers', 'terms'] as const) {
      const list = idList(values[kind]);
      if (list.length > 0) links[kind].set(eventId, list);
    }
  }
  return links;
}

/** The queries of events and of the links the event side owns. */
@Injectable()
export class EventRepository {
  private readonly loader: TranslatedLoader<EventEntity>;
  /** The longest event's span last read from `event_span`, in seconds: a lower bound of what it holds now. */
  private knownSpan = 0;
  /** The statements of filters' matching events (`matching`), by filter. */
  private readonly matchingSql = new Map<string, [string, unknown[]]>();

  constructor(private readonly dataSource: DataSource) {
    this.loader = new TranslatedLoader(dataSource, EventEntity, 'translations');
  }

  /**
   * `besideSet`: another set (a search word's) drives the statement, which a wide radius is then checked against.
   * `walk`: state link and place conditions as a probe per event (a scalar subquery on the link's primary key), so
   * that a page is read by walking the start-ordered listing index until it is full. Without it they are `IN`
   * subqueries, which the optimizer runs from the link side (every matching event, then a sort): right for
   * counts and for rare matches, slow for the first pages of a common one.
   */
  private filtered(filter: EventListFilter, walk = false, { besideSet = false }: { besideSet?: boolean } = {}): SelectStatement {
    const qb = new SelectStatement(this.dataSource, 'events', 'e');
    const probe = (table: string, alias: string, where: string) => `(SELECT 1 FROM ${table} ${alias} WHERE ${alias}.event_id = e.id AND ${where} LIMIT 1) = 1`;
    // SQLite reads a probe's `IN` list as one seek of the link's key (event, target) per value; written as an
    // expression (`+`), the list is checked on the event's own links, found by the key's first column.
    const probedKey = (column: string) => (this.dataSource.options.type === 'better-sqlite3' ? `+${column}` : column);
    const linkKey = (column: string) => (walk ? probedKey(column) : column);
    const linked = (table: string, alias: string, where: string) => (walk ? probe(table, alias, where) : `e.id IN (SELECT ${alias}.event_id FROM ${table} ${alias} WHERE ${where})`);
    applyVisibility(qb, 'e', filter.caller, filter.statuses);
    if (filter.include) {
      qb.andWhere('e.id IN (:...include)', { include: filter.include });
    } else if (!filter.withHidden) {
      qb.andWhere('e.hide_from_listings = :hidden', { hidden: false });
    }
    const bounds: [keyof EventListFilter, string][] = [
      ['startsAtOrAfter', 'e.start_utc >= :startsAtOrAfter'],
      ['endsAtOrBefore', 'e.end_utc <= :endsAtOrBefore'],
      ['startsBefore', 'e.start_utc < :startsBefore'],
      ['startsAfter', 'e.start_utc > :startsAfter'],
      ['endsBefore', 'e.end_utc < :endsBefore'],
      ['endsAfter', 'e.end_utc > :endsAfter'],
    ];
    for (const [key, sql] of bounds) {
      const value = filter[key];
      if (value instanceof Date) qb.andWhere(sql, { [key]: sqlDateTime(value) });
    }
    const modified = shownSecondBounds(filter.modifiedAfter, filter.modifiedBefore);
    if (modified.atOrAfter) qb.andWhere('e.modified_at >= :modifiedFrom', { modifiedFrom: sqlDateTime(modified.atOrAfter) });
    if (modified.before) qb.andWhere('e.modified_at < :modifiedBefore', { modifiedBefore: sqlDateTime(modified.before) });
    // An event that ends by B also starts by B (the end is never before the start): stating it bounds the range
    // the start-ordered listing index is read over, instead of reading it to its end.
    if (filter.endsAtOrBefore) qb.andWhere('e.start_utc <= :startsByEnd', { startsByEnd: sqlDateTime(filter.endsAtOrBefore) });
    // Likewise an event that ends after A started no longer before A than the longest event lasts.
    if (filter.startsAtOrAfterBound) qb.andWhere('e.start_utc >= :startBound', { startBound: sqlDateTime(filter.startsAtOrAfterBound) });
    if (filter.spanClass !== undefined) qb.andWhere('e.span_class = :spanClass', { spanClass: filter.spanClass });
    if (filter.search) {
      const conditions = searchConditions(filter.search, { ...this.searchSql(filter), probe: walk });
      for (const condition of conditions) qb.andWhere(condition.sql, condition.params);
    }
    // A term's, venue's or organizer's links that start within the list's bounds (`start_utc`, indexed after the
    // target: `ix_event_terms_start`, `ix_event_venues_start`, `ix_event_organizers_start`), not every event that ever
    // carried it; a walk probes each event's own links.
    const starts = startBounds(filter);
    const linkStarts = (alias: string) => (walk ? [] : [...(starts.from === undefined ? [] : [`${alias}.start_utc >= :linksFrom`]), ...(starts.to === undefined ? [] : [`${alias}.start_utc <= :linksTo`])]);
    const linkBounds = { linksFrom: starts.from, linksTo: starts.to };
    (filter.termSets ?? []).forEach((ids, index) => {
      qb.andWhere(ids.length > 0 ? linked('event_terms', 'et', [`${linkKey('et.term_id')} IN (:...terms${index})`, ...linkStarts('et')].join(' AND ')) : '1 = 0', { [`terms${index}`]: ids, ...linkBounds });
    });
    if (filter.venues) qb.andWhere(linked('event_venues', 'ev', [`${linkKey('ev.venue_id')} IN (:...venues)`, ...linkStarts('ev')].join(' AND ')), { venues: filter.venues, ...linkBounds });
    if (filter.organizers) qb.andWhere(linked('event_organizers', 'eo', [`${linkKey('eo.organizer_id')} IN (:...organizers)`, ...linkStarts('eo')].join(' AND ')), { organizers: filter.organizers, ...linkBounds });
    if (filter.featured !== undefined) qb.andWhere('e.featured = :featured', { featured: filter.featured });
    if (filter.postParent !== undefined) qb.andWhere('e.post_parent = :postParent', { postParent: filter.postParent });
    const located = 'SELECT 1 FROM event_venues gv INNER JOIN venues v ON v.id = gv.venue_id WHERE gv.event_id = e.id AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL';
    if (filter.geoloc === true) qb.andWhere(`EXISTS (${located})`);
    if (filter.geoloc === false) qb.andWhere(`NOT EXISTS (${located})`);
    if (filter.near && filter.nearVenues) {
      // Whole numbers read from the database, written into the SQL as they are: a wide radius may hold more venues
      // than SQLite takes parameters.
      const ids = filter.nearVenues.filter((id) => Number.isSafeInteger(id));
      const within = [this.nearLinks('gv', filter, linkKey), ...(starts.from === undefined ? [] : ['gv.start_utc >= :nearFrom']), ...(starts.to === undefined ? [] : ['gv.start_utc <= :nearTo'])];
      // A wide radius beside another set (a word, a term, a venue, an organizer): each of that set's events is checked
      // against the radius's venues (a probe of its own venue links) instead of reading every event of the window at
      // those venues, which at a million events is most of the window (tens of thousands of rows for a count).
      const probed = !walk && ids.length > NEAR_SET_MAX_VENUES && (besideSet || (filter.search?.length ?? 0) > 0 || (filter.termSets?.length ?? 0) > 0 || filter.venues !== undefined || filter.organizers !== undefined);
      const condition = probed ? probe('event_venues', 'gv', this.nearLinks('gv', filter, probedKey)) : linked('event_venues', 'gv', within.join(' AND '));
      qb.andWhere(ids.length === 0 ? '1 = 0' : condition, { nearFrom: starts.from, nearTo: starts.to });
    } else if (filter.near) {
      const near = nearVenuesCondition(filter.near);
      qb.andWhere(walk ? `(${located} AND ${near.sql} LIMIT 1) = 1` : `EXISTS (${located} AND ${near.sql})`, near.params);
    }
    return qb;
  }

  /**
   * The venues with coordinates within a radius (great-circle distance, the box and the distance the list condition
   * `near` reads them by in SQL), found among `points` (`venuePoints`), and the cells they lie in (`geoCellSql`,
   * computed by the database as the links' are), in order; of those cells, the ones wholly within the radius
   * (`cellsWithin`), and the venues that lie in the others.
   */
  venuesNear(near: Radius, points: GeoPoints): { ids: number[]; cells: number[]; innerCells: number[]; edgeVenues: number[] } {
    const rows = points.within(near);
    const cells = [...new Set(rows.map((row) => row.cell))].sort((a, b) => a - b);
    const innerCells = cellsWithin(cells, near, near.radiusKm);
    const inner = new Set(innerCells);
    return { ids: rows.map((row) => row.id), cells, innerCells, edgeVenues: rows.filter((row) => !inner.has(row.cell)).map((row) => row.id) };
  }

  /**
   * Every venue with coordinates, with the cell it lies in computed by the database as the links' cells are
   * (`geoCellSql`), whatever its status (as a list's radius takes them): what `venuesNear` searches, kept per version
   * of the venues.
   */
  async venuePoints(): Promise<GeoPoints> {
    const rows: { id: unknown; lat: unknown; lng: unknown; cell: unknown }[] = await this.dataSource.query(
      `SELECT v.id AS id, v.geo_lat AS lat, v.geo_lng AS lng, ${geoCellSql('v')} AS cell FROM venues v WHERE v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL`,
    );
    return GeoPoints.of(rows.map((row) => ({ id: Number(row.id), lat: Number(row.lat), lng: Number(row.lng), cell: Number(row.cell) })));
  }

  /** What the totals per day read for a list (SPEC §10.2), or null when they do not count it. */
  perDay(filter: EventListFilter): DayCountQuery | null {
    return dayCountQuery(filter, !filter.caller ? 'public' : can.readOthersPrivate(filter.caller) ? 'editor' : null);
  }

  /** The list's events per start day of its window, from the totals per day, in the order of the days. */
  async perDayTotals(query: DayCountQuery): Promise<{ day: number; count: number }[]> {
    const rows: { day: number; n: number }[] = await this.dataSource.query(
      `SELECT day, SUM(${query.column}) AS n FROM event_day_counts WHERE filter_key = ? AND ${WINDOW_DAYS} GROUP BY day ORDER BY day`,
      [query.key, ...windowDays(query)],
    );
    return rows.map((row) => ({ day: Number(row.day), count: Number(row.n) }));
  }

  /**
   * The number of matching events and the slots' counts of writes (`DataVersions.slots`), read together in one
   * statement: from the totals per day when they count the list (a read of the window's days, SPEC §10.2), else
   * from the events. `alongside`: another filter over the same days (the list's window alone) whose total the
   * same statement also gives when the totals per day count both.
   */
  async countAtVersion(filter: EventListFilter, alongside?: EventListFilter, { versions = false }: { versions?: boolean } = {}): Promise<{ count: number; slots: number[]; alongside?: number; versions?: DataVersions }> {
    const type = this.dataSource.options.type;
    // With `versions`, the versions of the data's parts too: with the slots, every data version the statement saw.
    const parts = versions ? `, ${partsSubquery(type)} AS versions_parts` : '';
    const read = (row: Record<string, unknown>) => ({
      count: Number(row['count']),
      slots: parseSlots(row['slots']),
      versions: versions ? versionsFromRow({ versions_slots: row['slots'], versions_parts: row['versions_parts'] }) : undefined,
    });
    const byDays = this.perDay(filter);
    const other = byDays && alongside ? this.perDay(alongside) : null;
    if (byDays && other && other.key !== byDays.key && other.column === byDays.column && other.first === byDays.first && other.last === byDays.last) {
      // Both from the same days of the totals: one statement reads the two.
      const [row] = await this.dataSource.query(
        `SELECT COALESCE(SUM(CASE WHEN filter_key = ? THEN ${byDays.column} END), 0) AS count, COALESCE(SUM(CASE WHEN filter_key = ? THEN ${byDays.column} END), 0) AS alongside, ${slotsSubquery(type)} AS slots${parts} FROM event_day_counts WHERE filter_key IN (?, ?) AND ${WINDOW_DAYS}`,
        [byDays.key, other.key, byDays.key, other.key, ...windowDays(byDays)],
      );
      return { ...read(row), alongside: Number(row.alongside) };
    }
    if (byDays) {
      const [row] = await this.dataSource.query(
        `SELECT COALESCE(SUM(${byDays.column}), 0) AS count, ${slotsSubquery(type)} AS slots${parts} FROM event_day_counts WHERE filter_key = ? AND ${WINDOW_DAYS}`,
        [byDays.key, ...windowDays(byDays)],
      );
      return read(row);
    }
    // Counted from the events: the window's total, when the totals per day count it, comes with it (a subquery of
    // its own, written as numbers and a key of the tally's alphabet) instead of a statement after it.
    const beside = alongside ? this.perDay(alongside) : null;
    const besideSql = beside && Number.isSafeInteger(beside.first) && Number.isSafeInteger(beside.last) && /^[*a-z0-9&]+$/.test(beside.key) ? dayTotalSubquery(beside) : null;
    const withBeside = (row: Record<string, unknown>) => (besideSql ? { ...read(row), alongside: Number(row['alongside']) } : read(row));
    const driven = this.drivenCount(filter, versions, besideSql);
    if (driven) {
      const [row] = await this.dataSource.query(driven[0], driven[1]);
      return withBeside(row);
    }
    const classes = spanClassFilters(filter);
    if (classes) {
      // An overlap window counted class by class, each from its own bound (`spanClassFilters`), the counts added.
      const counts = classes.map((one) => {
        const [sql, params] = this.filtered(one).select('COUNT(*)', 'count').getQueryAndParameters();
        return [type === 'mysql' ? this.withIndex(sql, 'ix_events_span') : sql, params] as const;
      });
      const others = [`${slotsSubquery(type)} AS slots`, ...(versions ? [`${partsSubquery(type)} AS versions_parts`] : []), ...(besideSql ? [`${besideSql} AS alongside`] : [])];
      const [row] = await this.dataSource.query(`SELECT ${counts.map(([sql]) => `(${sql})`).join(' + ')} AS count, ${others.join(', ')}`, counts.flatMap(([, params]) => params));
      return withBeside(row);
    }
    const counting = this.filtered(filter).select('COUNT(*)', 'count').addSelect(slotsSubquery(type), 'slots');
    if (versions) counting.addSelect(partsSubquery(type), 'versions_parts');
    if (besideSql) counting.addSelect(besideSql, 'alongside');
    return withBeside((await counting.getRawOne<Record<string, unknown>>()) ?? {});
  }

  /** How a list's search words are stated on events: their index rows by start within the list's bounds. */
  private searchSql(filter: EventListFilter): SearchSql {
    return {
      kind: 'event',
      id: 'e.id',
      translationTable: 'event_translations',
      ownerColumn: 'event_id',
      language: filter.language,
      starts: startBounds(filter),
      engine: this.dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite',
    };
  }

  /**
   * The statement of a list's total driven from a set: a searched list's whose start is bounded from the first word's
   * matches (`wordDriven`), else a list's whose only set is a radius from its cells' links (`radiusDriven`); null when
   * the list is neither.
   */
  private drivenCount(filter: EventListFilter, versions: boolean, besideSql: string | null): [string, unknown[]] | null {
    const type = this.dataSource.options.type;
    const counting = (events: SelectStatement) => {
      const count = events.select('COUNT(*)', 'count').addSelect(slotsSubquery(type), 'slots');
      if (versions) count.addSelect(partsSubquery(type), 'versions_parts');
      return besideSql ? count.addSelect(besideSql, 'alongside') : count;
    };
    // Driven from a link, the rest is probed per event; driven from a word's or a radius's set, it stays a set beside.
    const countingProbed = (rest: EventListFilter) => counting(this.filtered(rest, true));
    const countingBeside = (rest: EventListFilter) => counting(this.filtered(rest, false, { besideSet: true }));
    return this.linkDriven(filter, countingProbed) ?? this.wordDriven(filter, countingBeside) ?? this.radiusDriven(filter, countingBeside);
  }

  /**
   * A statement over a list (SQLite) driven from the links of one of its sets that start within its bounds: its
   * venues', else its organizers', else, without a search word, its term set's of fewest terms (each event once,
   * then its row by key), every other condition probed per event (`statement` builds it over the events with the
   * rest of the filter, as a walk states it). Left to choose, SQLite read every event of the window from the
   * listing index and looked each up in the sets (a tag beside a radius: 0.67 ms for a total that the tag's links
   * give in 0.03). A search word's matches drive a list with terms (`wordDriven`): a category and its descendants
   * hold about as many events as a word. Null on MySQL and MariaDB, whose pages go along a link's index
   * (`alongLink`), or when the list has no such set or no start bound.
   */
  private linkDriven(filter: EventListFilter, statement: (rest: EventListFilter) => SelectStatement): [string, unknown[]] | null {
    const starts = startBounds(filter);
    if (this.dataSource.options.type !== 'better-sqlite3' || (starts.from === undefined && starts.to === undefined)) return null;
    const termSets = (filter.termSets ?? []).map((ids, termSet) => ({ ids, termSet })).filter(({ ids }) => ids.length > 0);
    const fewest = termSets.length > 0 && !filter.search?.length ? termSets.reduce((best, set) => (set.ids.length < best.ids.length ? set : best)) : null;
    const range: LinkRange | null = filter.venues?.length
      ? { link: 'venues', ids: filter.venues }
      : filter.organizers?.length
        ? { link: 'organizers', ids: filter.organizers }
        : fewest
          ? { link: 'terms', ids: fewest.ids, termSet: fewest.termSet }
          : null;
    if (!range) return null;
    const [table, column] = LINK_INDEXES[range.link];
    const rest = withoutLink(filter, range);
    const bounds = ([['ld.start_utc >= ?', starts.from], ['ld.start_utc <= ?', starts.to]] as const).filter(([, value]) => value !== undefined);
    const setSql = `SELECT DISTINCT ld.event_id AS id FROM ${table} ld WHERE ${[`ld.${column} IN (${range.ids.map(() => '?').join(', ')})`, ...bounds.map(([sql]) => sql)].join(' AND ')}`;
    return this.fromSet(setSql, [...range.ids, ...bounds.map(([, value]) => value)], statement(rest));
  }

  /**
   * A statement over a list with a radius (MySQL and MariaDB), driven from the links of the window in the cells its
   * venues lie in (`geo_cell`, `ix_event_venues_cell`: a range per cell, the links of a cell the radius crosses checked
   * by venue on the index, `nearLinks`), each event once, then the event, checked against the rest of the filter. Its
   * categories or tags, when it has some, are sets of their own joined to it by event (`termSetsBeside`), each read
   * from its links of the window, not probed per event. Read as a condition on the events (a range per venue), a radius
   * round a city at a million events made MariaDB read each of its 1,500 venues' links of every date (an `IN` list of
   * 1,000 values or more becomes a table it joins by venue); left to choose, it also read every published event from
   * the cells' set; beside a category it read the category's events by key and probed each one's venues (70 ms for a
   * total that the two sets give in 8). Null when the list has no such radius (no cells resolved), or a search word, a
   * venue or an organizer beside it.
   */
  private radiusDriven(filter: EventListFilter, statement: (rest: EventListFilter) => SelectStatement): [string, unknown[]] | null {
    if (!this.readsRadiusSet(filter)) return null;
    const listed = this.joinsByListing(filter);
    const radius = this.radiusSet(filter, listed);
    if (!radius) return null;
    const beside = this.termSetsBeside(filter);
    return this.fromSet(radius[0], radius[1], statement({ ...filter, ...NO_RADIUS, termSets: beside.rest }), listed, beside.sets);
  }

  /**
   * The condition that a venue link (`alias`, a row of `event_venues`) lies within the list's resolved radius. On
   * MySQL and MariaDB, with its cells resolved: in one of its cells (the first column of `ix_event_venues_cell`),
   * and either in a cell wholly within the radius (`nearInnerCells`) or at one of the venues of the others
   * (`nearEdgeVenues`), so that a radius round a city names no venue at all where it named 1,500 (each statement
   * planned that list, 1 ms at a million events; a walk's check of each event against it took about 10 µs). Else at
   * one of its venues, the venue column written through `key`.
   *
   * Beside the cells, the venues are checked on each link row the cells give, written as an expression (`+ 0`) that
   * no range is made of: as a condition on the column, MariaDB's range analysis of `ix_event_venues_cell` combines
   * every cell with every venue and with the bounds checked on the links (start, listing state, end, featured), and
   * beyond its limit on such key ranges (16 cells beside 329 venues, in the statement measured) it gives the index up
   * and reads all of it (852,000 rows and 200 ms, for a radius round Sydney beside `featured=false` at a million
   * events, where its 906 rows of the window took 5 ms).
   */
  private nearLinks(alias: string, filter: EventListFilter, key: (column: string) => string = (column) => column): string {
    // Whole numbers read from the database, written into the SQL as they are.
    const whole = (values: number[] | undefined) => (values ?? []).filter((value) => Number.isSafeInteger(value));
    const venues = (ids: number[]) => `${key(`${alias}.venue_id`)} IN (${ids.join(', ')})`;
    const cells = whole(filter.nearCells);
    if (this.dataSource.options.type !== 'mysql' || cells.length === 0 || filter.nearInnerCells === undefined || filter.nearEdgeVenues === undefined) return venues(whole(filter.nearVenues));
    const inCells = `${alias}.geo_cell IN (${cells.join(', ')})`;
    const checked = (ids: number[]) => `${alias}.venue_id + 0 IN (${ids.join(', ')})`;
    const inner = whole(filter.nearInnerCells);
    const edge = whole(filter.nearEdgeVenues);
    if (inner.length === 0) return `${inCells} AND ${checked(whole(filter.nearVenues))}`;
    return edge.length === 0 ? inCells : `${inCells} AND (${alias}.geo_cell IN (${inner.join(', ')}) OR ${checked(edge)})`;
  }

  /**
   * The links of a list's radius within its start bounds in the cells its venues lie in (MySQL and MariaDB), as a
   * statement selecting each event once (`id`; with `listed`, of listed events only, each with what its links carry
   * of its row, `listedColumns`); null without a radius whose venues and cells are resolved.
   */
  private radiusSet(filter: EventListFilter, listed = false): [string, unknown[]] | null {
    if (this.dataSource.options.type !== 'mysql' || !filter.near || !filter.nearVenues || filter.nearVenues.length === 0) return null;
    // Whole numbers read from the database, written into the SQL as they are.
    const ids = filter.nearVenues.filter((id) => Number.isSafeInteger(id));
    const cells = (filter.nearCells ?? []).filter((cell) => Number.isSafeInteger(cell));
    if (ids.length === 0 || cells.length === 0) return null;
    const { from, to } = startBounds(filter);
    const bounds = ([['gv.start_utc >= ?', from], ['gv.start_utc <= ?', to]] as const).filter(([, value]) => value !== undefined);
    const conditions = [this.nearLinks('gv', filter), ...bounds.map(([condition]) => condition), ...(listed ? ['gv.listed = 1'] : [])];
    const sql = `SELECT DISTINCT gv.event_id AS id${listed ? `, ${listedColumns('gv')}` : ''} FROM event_venues gv FORCE INDEX (ix_event_venues_cell) WHERE ${conditions.join(' AND ')}`;
    return [sql, bounds.map(([, value]) => value)];
  }

  /**
   * The list's term sets (MySQL and MariaDB) as sets of their own to join by event: each term set's links within the
   * list's start bounds (`ix_event_terms_start`), each event once; `rest` is what stays of the term sets (an empty
   * one, which matches nothing, is stated on the events).
   */
  private termSetsBeside(filter: EventListFilter): { sets: [string, unknown[]][]; rest: number[][] | undefined } {
    const { from, to } = startBounds(filter);
    const bounds = ([['et.start_utc >= ?', from], ['et.start_utc <= ?', to]] as const).filter(([, value]) => value !== undefined);
    const sets: [string, unknown[]][] = [];
    const rest: number[][] = [];
    for (const ids of filter.termSets ?? []) {
      // Whole numbers (term ids resolved from the database), written into the SQL as they are.
      if (ids.length === 0 || !ids.every(Number.isSafeInteger)) {
        rest.push(ids);
        continue;
      }
      sets.push([`SELECT DISTINCT et.event_id AS id FROM event_terms et FORCE INDEX (ix_event_terms_start) WHERE ${[`et.term_id IN (${ids.join(', ')})`, ...bounds.map(([condition]) => condition)].join(' AND ')}`, bounds.map(([, value]) => value)]);
    }
    return { sets, rest: filter.termSets === undefined ? undefined : rest };
  }

  /**
   * A statement over the events (`filtered`) with its source replaced by a set of event ids (`setSql`, a column `id`)
   * joined to the events by key, in that order (`STRAIGHT_JOIN`; on SQLite a `CROSS JOIN`, which its planner never
   * reorders), with `beside`, other sets of event ids, joined to it first; null when its source is not the events
   * table alone. With `listed` (`joinsByListing`), the set is of listed events with the columns the listing index
   * holds (`listedColumns`, carried by its rows) and stands for the events itself: the statement's conditions are
   * checked on its rows, and no event is read. The statement's only parameters before its FROM are the sets', placed
   * there (its select list holds none).
   */
  private fromSet(setSql: string, setParams: unknown[], statement: SelectStatement, listed = false, beside: [string, unknown[]][] = []): [string, unknown[]] | null {
    const [sql, params] = statement.getQueryAndParameters();
    const quote = (name: string) => this.dataSource.driver.escape(name);
    const join = this.dataSource.options.type === 'mysql' ? 'STRAIGHT_JOIN' : 'CROSS JOIN';
    const driving = quote(listed ? 'e' : 'm');
    // Other sets, each event once, joined to the driving set by event before the events are read.
    const others = beside.map(([other], index) => ` ${join} (${other}) ${quote(`b${index}`)} ON ${quote(`b${index}`)}.${quote('id')} = ${driving}.${quote('id')}`).join('');
    const events = listed ? '' : ` ${join} ${this.eventsJoined(false, `${driving}.start_utc`, `${driving}.${quote('id')}`)}`;
    const driven = this.withSource(sql, () => `FROM (${setSql}) ${driving}${others}${events}`);
    return driven === null ? null : [driven, [...setParams, ...beside.flatMap(([, values]) => values), ...params]];
  }

  /**
   * Whether the events of a statement driven from a set (a word's matches, a radius's links) are checked on what the
   * set's own rows carry of them (MySQL and MariaDB): search rows and venue links carry their event's start, end,
   * whether it is listed and whether featured (`listing-state.ts`, migration ListingStateCarried1769644800000), what the
   * listing index holds, so the set is read of listed events only and its rows stand for the events (`fromSet`);
   * else each event is read by key. For lists that check nothing else of the event's row: an anonymous caller's
   * (published events only), not hidden ones, without a parent, an `include` list, statuses or modification bounds.
   * At a million events a searched total read the matching events' rows by key for two thirds of its time; found
   * on the listing index instead (EventListingFeatured1769558400000), the finding still took two fifths of a
   * searched or radius total's time, which the carried state saves.
   */
  private joinsByListing(filter: EventListFilter): boolean {
    const others = [filter.statuses, filter.include, filter.postParent, filter.modifiedAfter, filter.modifiedBefore];
    return this.dataSource.options.type === 'mysql' && !filter.caller && !filter.withHidden && others.every((value) => value === undefined);
  }
  /**
   * The events joined to rows that name an event (`id`) and carry its start (`start`): by key, or with `byListing`
   * (`joinsByListing`) found on the listing index by those two, its published and listed events only.
   */
  private eventsJoined(byListing: boolean, start: string, id: string): string {
    const quote = (name: string) => this.dataSource.driver.escape(name);
    const events = `${quote('events')} ${quote('e')}`;
    return byListing
      ? `${events} FORCE INDEX (${quote('ix_events_listing')}) ON e.status = 'publish' AND e.hide_from_listings = false AND e.start_utc = ${start} AND ${quote('e')}.${quote('id')} = ${id}`
      : `${events} ON ${quote('e')}.${quote('id')} = ${id}`;
  }


  /**
   * A statement over a searched list whose start is bounded, driven from the first word's matches within the bounds
   * (each record once, then its event by key), not from every event of the window probing them: `statement` builds
   * it over the events (`filtered`) with the rest of the filter, which is then checked on the word's events. That
   * set holds at most the window's events, and for a word about as many as the list; MySQL's optimizer, which cannot
   * tell how many rows of a word start within the bounds, chose the window, and so did SQLite's (a 70-day window's
   * total of a word: 1.8 ms against 0.2); beside a term's, venue's or organizer's set, MariaDB joined the two sets
   * by a block nested loop (200–370 ms for a page at 1,000,000 events). The join is written in the order it must run in
   * (`STRAIGHT_JOIN`; on SQLite a `CROSS JOIN`, which its planner never reorders). A radius beside the word is a
   * set of its own on MySQL and MariaDB (`radiusSet`), joined to the word's by event: probed per event, its venues'
   * links were read for each of the word's events. Null when the list is not such a one.
   */
  private wordDriven(filter: EventListFilter, statement: (rest: EventListFilter) => SelectStatement): [string, unknown[]] | null {
    const starts = startBounds(filter);
    if (!filter.search?.length || (starts.from === undefined && starts.to === undefined)) return null;
    const [first, ...rest] = filter.search;
    const listed = this.joinsByListing(filter);
    const [set] = searchConditions([first], { ...this.searchSql(filter), asSet: listed ? 'listed' : true });
    const [setSql, setParams] = this.dataSource.driver.escapeQueryWithParameters(set.sql, set.params, {});
    // A radius beside the word: its links of the window in its cells, a set joined by event (MySQL and MariaDB).
    const radius = this.radiusSet(filter);
    const others = radius ? NO_RADIUS : {};
    return this.fromSet(setSql, setParams, statement({ ...filter, ...others, search: rest.length > 0 ? rest : undefined }), listed, radius ? [radius] : []);
  }

  /**
   * How many events matching the filter the writes between two states (`DataVersions.slots`) added, when those
   * writes only added events (the write log holds one row per added event, event 0 for any other write); null
   * otherwise, or when the log does not reach back to `from`, or the writes were too many to be worth it.
   */
  async countAdded(filter: EventListFilter, from: readonly number[], to: readonly number[]): Promise<number | null> {
    const runs = to.map((writes, slot) => ({ slot, after: from[slot] ?? 0, upTo: writes })).filter((run) => run.upTo > run.after);
    const writes = runs.reduce((sum, run) => sum + run.upTo - run.after, 0);
    if (writes > MAX_CATCH_UP_WRITES) return null;
    if (writes === 0) return 0;
    // Whole numbers read from the database (parseSlots), written into the SQL as they are.
    if (!runs.every((run) => [run.slot, run.after, run.upTo].every(Number.isSafeInteger))) return null;
    const since = runs.map((run) => `(wl.slot = ${run.slot} AND wl.seq > ${run.after} AND wl.seq <= ${run.upTo})`).join(' OR ');
    const [log] = await this.dataSource.query(
      `SELECT COUNT(*) AS writes, COALESCE(SUM(others), 0) AS others FROM (SELECT wl.slot, wl.seq, MAX(CASE WHEN wl.event_id = 0 THEN 1 ELSE 0 END) AS others FROM write_log wl WHERE ${since} GROUP BY wl.slot, wl.seq) w`,
    );
    if (Number(log.writes) !== writes || Number(log.others) > 0) return null;
    return this.filtered(filter).andWhere(`e.id IN (SELECT wl.event_id FROM write_log wl WHERE ${since})`).getCount();
  }

  /**
   * A page of events by UTC start then id (SPEC §4.4): each event's head (what deciding how to answer with it
   * needs) and its links, in one query; the full records of the events whose renderings are not kept are loaded
   * with `load`. `read`: `true` reads the page by walking the listing index and probing each event (see
   * `filtered`); a `LinkRange` reads it along that link's start-ordered index (`alongLink`).
   */
  async page(filter: EventListFilter, offset: number, limit: number, read: PageRead = false, withRecords = false): Promise<{ heads: EventHead[]; links: EventLinks; records?: EventEntity[] }> {
    const [built, values] = typeof read === 'object' ? this.alongLink(filter, read, offset, limit) : read === 'word' ? this.alongWord(filter, offset, limit) : this.pageStatement(filter, read, offset, limit);
    // SQLite prepares each statement text once and keeps it (better-sqlite3, through TypeORM's statement cache): with
    // its page size and offset as parameters, the pages of one kind of list share one text.
    const [sql, params] = this.dataSource.options.type === 'better-sqlite3' ? limitsAsParameters(built, values) : [built, values];
    // The page is selected from the listing index alone; its rows' heads and links are read for those rows only,
    // and with `withRecords` their whole records too (for a page most of whose renderings are not kept: one
    // statement instead of two).
    if (withRecords) {
      const found = await this.loader.loadJoined(`(${sql}) p`, params, LINK_COLUMNS, 'p.start_utc, p.id');
      return { ...headsOfRecords(found), records: [...found.keys()] };
    }
    return this.heads(`(${sql}) p INNER JOIN events r ON r.id = p.id ORDER BY p.start_utc, p.id`, params);
  }

  /**
   * The statement of a page read from the filter's sets or by walking the listing index. A searched page read from
   * the sets on MySQL and MariaDB is driven from the word's matches, as its total is (`wordDriven`); SQLite runs the
   * word's set as one probed while walking the index.
   */
  private pageStatement(filter: EventListFilter, walk: boolean, offset: number, limit: number): [string, unknown[]] {
    const ordered = (qb: SelectStatement) => qb.select('e.id', 'id').addSelect('e.start_utc', 'start_utc').orderBy('e.start_utc', 'ASC').addOrderBy('e.id', 'ASC').offset(offset).limit(limit);
    const fromSet = (rest: EventListFilter) => ordered(this.filtered(rest, false, { besideSet: true }));
    const type = this.dataSource.options.type;
    const driven = walk ? null : type === 'mysql' ? (this.wordDriven(filter, fromSet) ?? this.radiusDriven(filter, fromSet)) : this.linkDriven(filter, (rest) => ordered(this.filtered(rest, true)));
    if (driven) return driven;
    // A page of featured or not-featured events walked or narrowed by featured alone: along the featured index.
    const alongFeatured = this.dataSource.options.type === 'mysql' && filter.featured !== undefined && (walk || featuredOnly(filter));
    const classes = alongFeatured ? null : spanClassFilters(filter);
    if (classes) return this.spanClassRuns(classes, walk, offset, limit);
    const [sql, params] = ordered(this.filtered(filter, walk)).getQueryAndParameters();
    return [alongFeatured ? this.withIndex(sql, 'ix_events_featured') : sql, params];
  }

  /**
   * The statement of a window's page read class by class (`spanClassFilters`): each class's events in (start, id)
   * order from its own lower bound, along the listing index by class (`ix_events_span`), merged (`mergedRuns`).
   */
  private spanClassRuns(classes: EventListFilter[], walk: boolean, offset: number, limit: number): [string, unknown[]] {
    const runs = classes.map((filter) => this.alongSpanIndex(this.filtered(filter, walk).select('e.id', 'id').addSelect('e.start_utc', 'start_utc').orderBy('e.start_utc', 'ASC').addOrderBy('e.id', 'ASC')));
    return mergedRuns(runs, offset, limit, { disjoint: true });
  }

  /**
   * The statement of one span class's run, told to read the listing index by class on MySQL and MariaDB: MariaDB
   * otherwise may read a rare class along the listing index of every class, from the class's bound to the window's
   * end; SQLite picks the class's index by itself (the most columns held equal).
   */
  private alongSpanIndex(qb: SelectStatement): [string, unknown[]] {
    const [sql, params] = qb.getQueryAndParameters();
    return [this.dataSource.options.type === 'mysql' ? this.withIndex(sql, 'ix_events_span') : sql, params];
  }

  /**
   * A statement over the events (`filtered`) told to read them by `index` (`FORCE INDEX`, MySQL and MariaDB); as it
   * is when its source is not the events table alone.
   */
  private withIndex(sql: string, index: string): string {
    return this.withSource(sql, (from) => `${from} FORCE INDEX (${this.dataSource.driver.escape(index)})`) ?? sql;
  }

  /**
   * A statement over the events (`filtered`) with its source, the events table alone (`FROM events e`), replaced by
   * `source(from)`; null when its source is something else. The statement's select list holds no parameter, so a
   * source with parameters of its own has them placed first. Replaced by a function, so that nothing in the new
   * source is read as a replacement pattern (`$&`).
   */
  private withSource(sql: string, source: (from: string) => string): string | null {
    const from = `FROM ${this.dataSource.driver.escape('events')} ${this.dataSource.driver.escape('e')}`;
    return sql.includes(from) ? sql.replace(from, () => source(from)) : null;
  }

  /**
   * The statement of a page read along a link's start-ordered index (MySQL and MariaDB): for each id of the link, its
   * link rows within the list's start bounds in (start, event) order, each joined to its event by key and checked
   * against the rest of the filter (other links probed per event, as in a walk), until the page's end is reached;
   * with several ids, those runs merged (an event linked to two of them once) and the page taken from the merge.
   * Each run reads about as many rows as the page's end, whatever the window holds: the link rows carry the
   * event's start (`refreshLinkLists`), so their order is the list's order, and the join is written in the order it
   * must run in (`STRAIGHT_JOIN`).
   */
  private alongLink(filter: EventListFilter, range: LinkRange, offset: number, limit: number): [string, unknown[]] {
    const alias = 'lr';
    const [table, column] = LINK_INDEXES[range.link];
    const rest = withoutLink(filter, range);
    const starts = startBounds(filter);
    const quote = (name: string) => this.dataSource.driver.escape(name);
    const runs = range.ids.map((id): [string, unknown[]] => {
      const qb = this.filtered(rest, true).select('e.id', 'id').addSelect('e.start_utc', 'start_utc').andWhere(`${alias}.${column} = :linkId`, { linkId: id });
      if (starts.from !== undefined) qb.andWhere(`${alias}.start_utc >= :linkFrom`, { linkFrom: starts.from });
      if (starts.to !== undefined) qb.andWhere(`${alias}.start_utc <= :linkTo`, { linkTo: starts.to });
      const [sql, params] = qb.getQueryAndParameters();
      const run = this.withSource(sql, () => `FROM ${table} ${alias} STRAIGHT_JOIN ${quote('events')} ${quote('e')} ON ${quote('e')}.${quote('id')} = ${alias}.event_id`);
      if (run === null) throw new Error('a page along a link needs the events table as the statement\'s only source');
      return [`${run} ORDER BY ${alias}.start_utc ASC, ${alias}.event_id ASC`, params];
    });
    return mergedRuns(runs, offset, limit);
  }

  /**
   * Whether a page of `filter` read from its sets is driven from its radius's link rows (`radiusDriven`): on MySQL
   * and MariaDB, a radius whose venues and cells are resolved, with no search word, venue or organizer beside it.
   */
  readsRadiusSet(filter: EventListFilter): boolean {
    return (filter.search?.length ?? 0) === 0 && !filter.venues && !filter.organizers && this.radiusSet(filter) !== null;
  }

  /**
   * Whether a searched page is read along its word's start-ordered index rows (`alongWord`): on MySQL and MariaDB,
   * for a list whose start is bounded and whose only narrowing beyond its window and the caller's visibility is one
   * search word. Beside a second word, a term, a venue, an organizer, a radius or featured, a run may have to read
   * past most of the word's rows, probing each event, where the word's set read whole meets the other set as a set.
   */
  readsAlongWord(filter: EventListFilter): boolean {
    const starts = startBounds(filter);
    const others = [filter.venues, filter.organizers, filter.near, filter.nearVenues, filter.geoloc, filter.featured, filter.postParent, filter.statuses, filter.include, filter.modifiedAfter, filter.modifiedBefore];
    return (
      this.dataSource.options.type === 'mysql' &&
      filter.search?.length === 1 &&
      (filter.termSets?.length ?? 0) === 0 &&
      others.every((value) => value === undefined) &&
      (starts.from !== undefined || starts.to !== undefined)
    );
  }

  /**
   * The statement of a searched page read along its first word's index rows by start (MySQL and MariaDB): the rows
   * of the word within the list's start bounds in (start, event) order, each joined to its event by key and checked
   * against the rest of the filter (other words, links and places probed per event, as in a walk), until the page's
   * end is reached; for a prefix, the longer words' rows too (each event once), the two runs merged (`searchRuns`). A run reads about
   * as many rows as the page's end when the rest of the filter keeps most of the word's events, and at most the
   * word's rows of the window, which the page read from the word's set (`wordDriven`) reads and sorts whatever the
   * page: at a million events, a word's window holds thousands.
   */
  private alongWord(filter: EventListFilter, offset: number, limit: number): [string, unknown[]] {
    const [first, ...others] = filter.search ?? [];
    const rest: EventListFilter = { ...filter, search: others.length > 0 ? others : undefined };
    const on = this.eventsJoined(this.joinsByListing(filter), 's.start_utc', 's.record_id');
    const runs = searchRuns(first, this.searchSql(filter)).map((run): [string, unknown[]] => {
      const [sql, params] = this.filtered(rest, true).select('e.id', 'id').addSelect('e.start_utc', 'start_utc').andWhere(run.where, run.params).getQueryAndParameters();
      const along = this.withSource(sql, () => `FROM search_tokens s FORCE INDEX (ix_search_tokens_start) STRAIGHT_JOIN ${on}`);
      if (along === null || !along.startsWith('SELECT ')) throw new Error('a page along a word needs the events table as the statement\'s only source');
      // The word's own rows in the index's order; the longer words' sorted, each event once.
      return run.distinct ? [`SELECT DISTINCT ${along.slice('SELECT '.length)} ORDER BY e.start_utc ASC, e.id ASC`, params] : [`${along} ORDER BY s.start_utc ASC, s.record_id ASC`, params];
    });
    if (runs.length === 0) throw new Error('a page along a word needs a bounded start');
    return mergedRuns(runs, offset, limit);
  }

  /** At least as long as the longest event lasts, in seconds (it only grows: an upper bound stays true). */
  async longestSpanSeconds(): Promise<number> {
    const [row] = await this.dataSource.query('SELECT max_seconds FROM event_span WHERE id = 1');
    const seconds = Number(row?.max_seconds ?? 0);
    this.knownSpan = Math.max(this.knownSpan, seconds);
    return seconds;
  }

  /**
   * Records, in a write's transaction, that an event lasts `seconds`; nothing to write when a value read before
   * (committed, and the value only grows) covers it already.
   */
  async widenSpan(manager: EntityManager, seconds: number): Promise<void> {
    if (seconds <= this.knownSpan) return;
    await manager.query('UPDATE event_span SET max_seconds = ? WHERE id = 1 AND max_seconds < ?', [seconds, seconds]);
  }

  /**
   * The ids and times (milliseconds since 1970) of the events matching a filter, by start (at most `limit`): what a
   * month grid places. The times are computed as numbers by the database: a month holds thousands of events, and
   * a date object per time made this read the costliest part of a month page.
   */
  async spans(filter: EventListFilter, limit: number): Promise<{ id: number; start: number; end: number }[]> {
    // Read from the listing index alone (it holds the start and the end). A grid's window is weeks long: read class
    // by class only when the longest event is longer than the window (one range from the longest event's reach
    // would then read more than twice the window's events), each class a statement of its own in start order and
    // the runs merged here. Merged by the database (derived tables sorted again), a month's thousand events were
    // written out and sorted anew, a month page a third slower; and with events of at most two days, two
    // statements instead of one made a month page about a sixth slower than one range.
    const window = filter.startsBefore && filter.endsAfter ? (filter.startsBefore.getTime() - filter.endsAfter.getTime()) / 1000 : 0;
    const classes = spanClassFilters(filter, { outlasting: window });
    const read = (one: EventListFilter): Promise<{ id: unknown; start_s: unknown; end_s: unknown }[]> => {
      const qb = this.filtered(one).select('e.id', 'id').addSelect(this.seconds('e.start_utc'), 'start_s').addSelect(this.seconds('e.end_utc'), 'end_s').orderBy('e.start_utc', 'ASC').addOrderBy('e.id', 'ASC').limit(limit);
      return classes ? this.dataSource.query(...this.alongSpanIndex(qb)) : qb.getRawMany();
    };
    const spans = (classes ? (await Promise.all(classes.map(read))).flat() : await read(filter)).map((row) => ({ id: Number(row.id), start: Number(row.start_s) * 1000, end: Number(row.end_s) * 1000 }));
    if (!classes) return spans;
    return spans.sort((a, b) => a.start - b.start || a.id - b.id).slice(0, limit);
  }

  /** UTC wall-clock columns as seconds since 1970, by arithmetic, never through a session time zone. */
  private seconds(column: string): string {
    return this.dataSource.options.type === 'mysql' ? `TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', ${column})` : `CAST(strftime('%s', ${column}) AS INTEGER)`;
  }

  /**
   * What the per-day list totals read of each event that exists (`TalliedEvent`), inside `manager`'s transaction.
   * Inside a write, in one statement: its links from the lists on its row, which the write's first applier
   * (`refreshLinkLists`) has made equal to its link rows for every event the write changed or touched. With
   * `linkRows` (counting every event again, when what was counted is not known to be right), from the link rows.
   */
  async tallied(manager: EntityManager, allIds: readonly number[], { linkRows = false, known }: { linkRows?: boolean; known?: (id: number) => TalliedEvent | undefined } = {}): Promise<Map<number, TalliedEvent>> {
    const found = new Map<number, TalliedEvent>();
    const ids: number[] = [];
    for (const id of allIds) {
      const event = known?.(id);
      if (event) found.set(id, event);
      else ids.push(id);
    }
    if (ids.length === 0) return found;
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT r.id, r.status, r.hide_from_listings, r.featured, ${this.seconds('r.start_utc')} AS start_s, ${this.seconds('r.end_utc')} AS end_s, ${LINK_COLUMNS} FROM events r WHERE r.id IN (${ids.map(() => '?').join(', ')})`,
      [...ids],
    );
    const links = linkRows ? await this.links(rows.map((row) => Number(row['id'])), manager) : linksOf(new Map(rows.map((row) => [Number(row['id']), row])));
    for (const row of rows) {
      const id = Number(row['id']);
      found.set(id, {
        status: String(row['status']),
        hidden: Boolean(Number(row['hide_from_listings'])),
        featured: Boolean(Number(row['featured'])),
        startMs: Number(row['start_s']) * 1000,
        endMs: Number(row['end_s']) * 1000,
        venues: links.venues.get(id) ?? [],
        organizers: links.organizers.get(id) ?? [],
        terms: links.terms.get(id) ?? [],
      });
    }
    return found;
  }

  /** The revisions of events by id (those that exist). */
  async revisions(ids: number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows: { id: number; revision: number }[] = await this.dataSource.query(`SELECT id, revision FROM events WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
    return new Map(rows.map((row) => [Number(row.id), Number(row.revision)]));
  }

  /** The heads and links of events by id, in the order of `ids` (those that exist). */
  async headsOf(ids: number[]): Promise<{ heads: EventHead[]; links: EventLinks }> {
    if (ids.length === 0) return { heads: [], links: noLinks() };
    const found = await this.heads(`events r WHERE r.id IN (${ids.map(() => '?').join(', ')})`, ids);
    const byId = new Map(found.heads.map((head) => [head.id, head]));
    return { heads: ids.flatMap((id) => byId.get(id) ?? []), links: found.links };
  }

  /**
   * A page of a full sync (SPEC §16.2): the heads and links of the events matching `filter` after `afterId`, in id
   * order (the primary key), `limit` at most.
   */
  async syncPage(filter: EventListFilter, afterId: number, limit: number): Promise<{ heads: EventHead[]; links: EventLinks }> {
    const [sql, params] = this.filtered(filter).select('e.id', 'id').andWhere('e.id > :afterId', { afterId }).orderBy('e.id', 'ASC').limit(limit).getQueryAndParameters();
    return this.heads(`(${sql}) p INNER JOIN events r ON r.id = p.id ORDER BY p.id`, params);
  }

  /**
   * The events changed in `range` — written themselves, or embedding a venue, organizer or term written — each
   * (position, id) pair once; with, in the same statement, the heads and links of those that match `filter` now (in
   * the order of the pairs, each once), and the data versions when the range asks for them (and it gave a row).
   */
  async syncChanged(
    filter: EventListFilter,
    { from, to, afterSeq, afterId, limit, withVersions, linked }: ChangeRange,
  ): Promise<{ changed: { seq: number; id: number }[]; heads: EventHead[]; links: EventLinks; versions?: DataVersions }> {
    const range = (id: string) => `c.seq > ? AND c.seq <= ? AND (c.seq > ? OR (c.seq = ? AND ${id} > ?))`;
    const params = [from, to, afterSeq, afterSeq, afterId];
    // DISTINCT: a write may leave an event two rows at one position (UNION drops them too when there are branches).
    const own = `SELECT DISTINCT c.seq AS seq, c.record_id AS id FROM changes c WHERE c.kind = 'event' AND ${range('c.record_id')}`;
    // The events that embed a venue, organizer or term that changed; left out of a range known to hold no such
    // change (even matching nothing, each branch costs MariaDB a sixth of the statement: parsing, tables, plan).
    const embedding = linked
      ? [
          `SELECT c.seq AS seq, l.event_id AS id FROM changes c INNER JOIN event_venues l ON l.venue_id = c.record_id WHERE c.kind = 'venue' AND ${range('l.event_id')}`,
          `SELECT c.seq AS seq, l.event_id AS id FROM changes c INNER JOIN event_organizers l ON l.organizer_id = c.record_id WHERE c.kind = 'organizer' AND ${range('l.event_id')}`,
          `SELECT c.seq AS seq, l.event_id AS id FROM changes c INNER JOIN event_terms l ON l.term_id = c.record_id WHERE c.kind IN ('category', 'tag') AND ${range('l.event_id')}`,
        ]
      : [];
    const changes = [own, ...embedding].join(' UNION ') + ' ORDER BY seq, id LIMIT ?';
    const [matches, matchParams] = this.matching(filter);
    // Every change is a row; the event's columns are there when it matches the filter now (NULL otherwise). The
    // events matching the filter are a derived table that MySQL, MariaDB and SQLite merge into the outer join (its
    // conditions checked on the changed rows alone): an EXISTS in the join's condition would run as a subquery per row.
    const { rows, heads, links } = await this.heads(
      `(${changes}) ch LEFT JOIN (${matches}) m ON m.id = ch.id LEFT JOIN events r ON r.id = m.id ORDER BY ch.seq, ch.id`,
      [...params, ...embedding.flatMap(() => params), limit, ...matchParams],
      `ch.seq AS change_seq, ch.id AS change_id${withVersions ? `, ${versionsColumns(this.dataSource.options.type)}` : ''}`,
    );
    // An event changed at several positions is a row of each: its head is given once.
    const once = new Map(heads.map((head) => [head.id, head]));
    const changed = rows.map((row) => ({ seq: Number(row['change_seq']), id: Number(row['change_id']) }));
    return { changed, heads: [...once.values()], links, versions: withVersions && rows[0] ? versionsFromRow(rows[0]) : undefined };
  }

  /**
   * The statement of the events matching `filter` (their ids, as `id`) and its parameters, built once per filter:
   * syncs ask the same few filters again and again, and TypeORM's query builder took a tenth of the service's CPU
   * for a sync of ten changes. The parameters are given as a copy.
   */
  private matching(filter: EventListFilter): [string, unknown[]] {
    const key = JSON.stringify(filter);
    let built = this.matchingSql.get(key);
    if (!built) {
      built = this.filtered(filter).select('e.id', 'id').getQueryAndParameters();
      // Bounded: filters of other callers and languages come and go.
      if (this.matchingSql.size >= MATCHING_SQL_KEPT) this.matchingSql.clear();
      this.matchingSql.set(key, built);
    }
    return [built[0], [...built[1]]];
  }

  /** One event's head and links, or null. */
  async oneHead(id: number): Promise<{ head: EventHead; links: EventLinks; versions: DataVersions } | null> {
    const { heads, links, rows } = await this.heads('events r WHERE r.id = ?', [id], versionsColumns(this.dataSource.options.type));
    return heads[0] ? { head: heads[0], links, versions: versionsFromRow(rows[0]) } : null;
  }

  /**
   * As `oneHead`, with the event's whole record and its translations read in the same statement: for an answer
   * that will render the event (nothing of it is kept), one statement instead of two.
   */
  async oneRecord(id: number): Promise<{ head: EventHead; links: EventLinks; versions: DataVersions; record: EventEntity } | null> {
    const found = await this.loader.loadWith('r.id = ?', [id], `${LINK_COLUMNS}, ${versionsColumns(this.dataSource.options.type)}`);
    const [[record, row] = []] = found;
    if (!record || !row) return null;
    const { heads, links } = headsOfRecords(found);
    return { head: heads[0], links, versions: versionsFromRow(row), record };
  }

  /**
   * The heads and links of the events (alias `r`) of a FROM clause, in its order; `rows` are every row it gave (with
   * an outer join, those with no event too).
   */
  private async heads(from: string, params: unknown[], also?: string): Promise<{ heads: EventHead[]; links: EventLinks; rows: Record<string, unknown>[] }> {
    const columns = also ? `${LINK_COLUMNS}, ${also}` : LINK_COLUMNS;
    const rows: Record<string, unknown>[] = await this.dataSource.query(`SELECT r.id, r.revision, r.status, r.author_id, r.password_hash, ${columns} FROM ${from}`, params);
    const extras = new Map<number, Record<string, unknown>>();
    const heads = rows.filter((row) => row['id'] !== null).map((row): EventHead => {
      const id = Number(row['id']);
      extras.set(id, row);
      return {
        id,
        revision: Number(row['revision']),
        status: row['status'] as RecordStatus,
        authorId: Number(row['author_id']),
        passwordHash: (row['password_hash'] as string | null) ?? null,
      };
    });
    return { heads, links: linksOf(extras), rows };
  }

  /** The head of the series an event belongs to (itself for a head or a single event), or null for no event. */
  async seriesHeadOf(id: number): Promise<number | null> {
    const [row] = await this.dataSource.query('SELECT series_id FROM events WHERE id = ?', [id]);
    if (!row) return null;
    return row.series_id ? Number(row.series_id) : id;
  }

  /** The occurrences of a series in their order, with what a feed of it needs to know of each. */
  async occurrences(headId: number): Promise<{ id: number; status: RecordStatus; authorId: number; recurrenceStart: unknown; endUtc: unknown; detached: boolean }[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      'SELECT id, status, author_id, recurrence_start, end_utc, detached FROM events WHERE series_id = ? ORDER BY recurrence_start',
      [headId],
    );
    return rows.map((row) => ({
      id: Number(row['id']),
      status: row['status'] as RecordStatus,
      authorId: Number(row['author_id']),
      recurrenceStart: row['recurrence_start'],
      endUtc: row['end_utc'],
      detached: Boolean(row['detached']),
    }));
  }

  /** Events with their translations, in the order of `ids`; those that no longer exist are left out. */
  load(ids: number[], manager?: EntityManager): Promise<EventEntity[]> {
    return this.loader.load(ids, manager);
  }

  /** The venues, organizers and terms of events, each in the order they were given: one query. */
  async links(eventIds: number[], manager: EntityManager = this.dataSource.manager): Promise<EventLinks> {
    const links = noLinks();
    if (eventIds.length === 0) return links;
    const ids = eventIds.map(() => '?').join(', ');
    const rows: { kind: string; event_id: number; target: number }[] = await manager.query(
      [
        `SELECT 'v' AS kind, event_id, venue_id AS target, position FROM event_venues WHERE event_id IN (${ids})`,
        `SELECT 'o' AS kind, event_id, organizer_id AS target, position FROM event_organizers WHERE event_id IN (${ids})`,
        `SELECT 't' AS kind, event_id, term_id AS target, position FROM event_terms WHERE event_id IN (${ids})`,
      ].join(' UNION ALL ') + ' ORDER BY kind, event_id, position',
      [...eventIds, ...eventIds, ...eventIds],
    );
    for (const row of rows) {
      const map = row.kind === 'v' ? links.venues : row.kind === 'o' ? links.organizers : links.terms;
      const eventId = Number(row.event_id);
      const list = map.get(eventId);
      if (list) list.push(Number(row.target));
      else map.set(eventId, [Number(row.target)]);
    }
    return links;
  }

  /**
   * Writes the link lists kept on the rows of events `ids` (those that exist) from their link rows, and the start
   * their venue, organizer, category and tag links carry from their rows: applied with every write's effects, for the events
   * it changed or touched, after its statements. `fresh`: events the write created, whose rows were inserted without
   * lists (NULL, none): those the write gave no link need no update. `known`: the links the writer of a fresh event
   * gave it (`WriteEffects.knownOf`, which answers for created events alone), taken instead of its link rows, which
   * it wrote with the event's start (`setLinks`).
   */
  async refreshLinkLists(manager: EntityManager, ids: number[], fresh: ReadonlySet<number> = new Set(), known?: (id: number) => LinkLists | undefined): Promise<void> {
    // 500 events a statement: four values each, within SQLite's 32,766.
    for (let at = 0; at < ids.length; at += 500) {
      const batch = ids.slice(at, at + 500);
      // The links of an event this write created, as its writer gave them, are not read back.
      const given = new Map<number, LinkLists>();
      for (const id of batch) {
        const lists = known?.(id);
        if (lists) given.set(id, lists);
      }
      const links = await this.links(batch.filter((id) => !given.has(id)), manager);
      for (const [id, lists] of given) {
        if (lists.venues.length > 0) links.venues.set(id, [...lists.venues]);
        if (lists.organizers.length > 0) links.organizers.set(id, [...lists.organizers]);
        if (lists.terms.length > 0) links.terms.set(id, [...lists.terms]);
      }
      const changed = batch.filter((id) => !fresh.has(id) || links.venues.has(id) || links.organizers.has(id) || links.terms.has(id));
      const list = `CASE id ${changed.map(() => 'WHEN ? THEN ?').join(' ')} END`;
      const values = (map: Map<number, number[]>) => changed.flatMap((id) => [id, map.get(id)?.join(',') ?? null]);
      if (changed.length > 0) {
        await manager.query(`UPDATE events SET venue_ids = ${list}, organizer_ids = ${list}, term_ids = ${list} WHERE id IN (${changed.map(() => '?').join(', ')})`, [
          ...values(links.venues),
          ...values(links.organizers),
          ...values(links.terms),
          ...changed,
        ]);
      }
      // The start each venue, organizer, category and tag link carries (`start_utc`), from the event's row as this
      // write left it; an event created by this write whose links its writer gave wrote them with its start.
      // Venue links carry the event's listing state with it (`listing-state.ts`).
      const started = batch.filter((id) => !given.has(id));
      const inStarted = started.map(() => '?').join(', ');
      if (started.some((id) => links.venues.has(id))) await manager.query(listingStateUpdate(this.engine(), 'event_venues', `l.event_id IN (${inStarted})`), started);
      for (const [table, map] of [['event_organizers', links.organizers], ['event_terms', links.terms]] as const) {
        if (started.some((id) => map.has(id))) {
          await manager.query(`UPDATE ${table} SET start_utc = (SELECT e.start_utc FROM events e WHERE e.id = ${table}.event_id) WHERE event_id IN (${inStarted})`, started);
        }
      }
      // And the cell of each venue link's venue (`geo_cell`), from the venue's row. Against a write moving the venue
      // (which gives its links their new cell, VenueService): a link inserted here holds the venue's row (its foreign
      // key's shared lock) and a link updated here holds the link's row, so one of the two writes waits for the other
      // and the later one reads what the earlier committed.
      if (links.venues.size > 0) await manager.query(linkCellsUpdate(`event_id IN (${batch.map(() => '?').join(', ')})`), batch);
    }
  }

  /**
   * Replaces the links of one event, keeping the order given. `fresh`: the event was created by this write and has
   * none of this kind yet; its links then carry its start (`event`, as its row holds it) from their insert, and its
   * venue links its listing state too (`listing-state.ts`).
   */
  async setLinks(manager: EntityManager, kind: 'venue' | 'organizer' | 'term', eventId: number, ids: number[], fresh = false, event?: LinkedEventRow): Promise<void> {
    const entity = kind === 'venue' ? EventVenueEntity : kind === 'organizer' ? EventOrganizerEntity : EventTermEntity;
    const column = kind === 'venue' ? 'venueId' : kind === 'organizer' ? 'organizerId' : 'termId';
    if (!fresh) await manager.getRepository(entity).delete({ eventId });
    const carried = !fresh || !event ? {} : kind === 'venue' ? { startUtc: event.startUtc, listed: isListed(event.status, Boolean(event.hideFromListings)), endUtc: event.endUtc, featured: Boolean(event.featured) } : { startUtc: event.startUtc };
    if (ids.length > 0) await insertOnly(manager, entity, ids.map((id, position) => ({ eventId, [column]: id, position, ...carried })) as never);
  }

  async exists(id: number): Promise<boolean> {
    return this.dataSource.getRepository(EventEntity).exists({ where: { id } });
  }

  /**
   * What the events `ids` counted for in their terms' counts (`counted_term_ids`) and count for now (the term list
   * kept on their rows, when published), as counts to move by term; the rows of the events whose terms' counts move
   * are written with what they count for now. Read after the write's own statements (the link lists included),
   * from rows the write holds locked; events gone for good have no row (their writer takes back what they counted).
   * `known`: the status and terms of an event this write created, as its writer gave them (`WriteEffects.knownOf`),
   * taken instead of its row.
   */
  async moveCountedTerms(manager: EntityManager, ids: readonly number[], known?: (id: number) => { status: string; terms: readonly number[] } | undefined): Promise<Map<number, number>> {
    const deltas = new Map<number, number>();
    const lock = manager.connection.options.type === 'mysql' ? ' FOR UPDATE' : '';
    for (let at = 0; at < ids.length; at += 500) {
      const batch = ids.slice(at, at + 500);
      // An event this write created, as its writer left it: its row counts for nothing yet, and the write holds it.
      const given = new Map<number, { id: number; status: string; term_ids: string | null; counted_term_ids: string | null }>();
      for (const id of batch) {
        const event = known?.(id);
        if (event) given.set(id, { id, status: event.status, term_ids: event.terms.length > 0 ? event.terms.join(',') : null, counted_term_ids: null });
      }
      const unread = batch.filter((id) => !given.has(id));
      const rows: { id: number; status: string; term_ids: string | null; counted_term_ids: string | null }[] = [
        ...given.values(),
        ...(unread.length === 0
          ? []
          : await manager.query(`SELECT id, status, term_ids, counted_term_ids FROM events WHERE id IN (${unread.map(() => '?').join(', ')})${lock}`, unread)),
      ];
      const changed: [number, string | null][] = [];
      for (const row of rows) {
        const before = idList(row.counted_term_ids);
        const now = row.status === 'publish' ? idList(row.term_ids) : [];
        if (before.length === now.length && before.every((id) => now.includes(id))) continue;
        for (const id of before) deltas.set(id, (deltas.get(id) ?? 0) - 1);
        for (const id of now) deltas.set(id, (deltas.get(id) ?? 0) + 1);
        changed.push([Number(row.id), now.length > 0 ? now.join(',') : null]);
      }
      if (changed.length > 0) {
        await manager.query(`UPDATE events SET counted_term_ids = CASE id ${changed.map(() => 'WHEN ? THEN ?').join(' ')} END WHERE id IN (${changed.map(() => '?').join(', ')})`, [
          ...changed.flat(),
          ...changed.map(([id]) => id),
        ]);
      }
    }
    return deltas;
  }

  /** What the events `ids` count for in their terms' counts (`counted_term_ids`), one term id per count. */
  async countedTerms(manager: EntityManager, ids: readonly number[]): Promise<number[]> {
    const terms: number[] = [];
    for (let at = 0; at < ids.length; at += 500) {
      const batch = ids.slice(at, at + 500);
      const rows: { counted_term_ids: string | null }[] = await manager.query(`SELECT counted_term_ids FROM events WHERE id IN (${batch.map(() => '?').join(', ')}) AND counted_term_ids IS NOT NULL`, batch);
      for (const row of rows) terms.push(...idList(row.counted_term_ids));
    }
    return terms;
  }

  /** The published events carrying each term. */
  async termCounts(manager: EntityManager, termIds: number[]): Promise<Map<number, number>> {
    const counts = new Map(termIds.map((id) => [id, 0]));
    if (termIds.length === 0) return counts;
    const rows = await manager
      .createQueryBuilder(EventTermEntity, 'et')
      .innerJoin(EventEntity, 'e', 'e.id = et.event_id')
      .select('et.term_id', 'term_id')
      .addSelect('COUNT(*)', 'n')
      .where('et.term_id IN (:...termIds)', { termIds })
      .andWhere(`e.status = 'publish'`)
      .groupBy('et.term_id')
      .getRawMany<{ term_id: number; n: number }>();
    for (const row of rows) counts.set(Number(row.term_id), Number(row.n));
    return counts;
  }

  /** The ids linked to an event, or null when there is no such event. */
  async linkedIds(kind: LinkedKind | 'term', eventId: number): Promise<number[] | null> {
    if (!(await this.exists(eventId))) return null;
    const links = await this.links([eventId]);
    const map = kind === 'venue' ? links.venues : kind === 'organizer' ? links.organizers : links.terms;
    return map.get(eventId) ?? [];
  }

  /**
   * Rebuilds the search index rows of the events `ids` from their texts (SPEC §4.4: title, excerpt, description),
   * inside the write's transaction: one read (each event's row with its translations) and a few statements for every
   * 500 events (an event that no longer exists loses its rows; `fresh`, those the write created, have none yet).
   * `known`: the texts the writer of a fresh event wrote, taken instead of reading them.
   */
  async reindexSearch(manager: EntityManager, ids: readonly number[], fresh?: ReadonlySet<number>, known?: (id: number) => SearchedEvent | undefined): Promise<void> {
    for (let offset = 0; offset < ids.length; offset += SEARCH_BATCH) {
      const chunk = ids.slice(offset, offset + SEARCH_BATCH);
      const texts = new Map<number, SearchedEvent['texts']>();
      const originals = new Map<number, string>();
      const states = new Map<number, ListingState>();
      // The texts of an event this write created, as its writer wrote them, are not read back.
      const unknown: number[] = [];
      for (const id of chunk) {
        const event = known?.(id);
        if (!event) {
          unknown.push(id);
          continue;
        }
        originals.set(id, event.original);
        states.set(id, { start: sqlDateTime(event.start), end: sqlDateTime(event.end), listed: event.listed, featured: event.featured });
        texts.set(id, event.texts);
      }
      const rows: Record<string, unknown>[] =
        unknown.length === 0
          ? []
          : await manager.query(
              `SELECT e.id, e.original_lang, e.start_utc, e.end_utc, e.status, e.hide_from_listings, e.featured, t.lang, t.name, t.description, t.excerpt FROM events e LEFT JOIN event_translations t ON t.event_id = e.id WHERE e.id IN (${unknown.map(() => '?').join(', ')})`,
              unknown,
            );
      for (const row of rows) {
        const id = Number(row['id']);
        if (!originals.has(id)) {
          originals.set(id, String(row['original_lang']));
          states.set(id, {
            start: sqlDateTime(parseUtcWallClock(row['start_utc'])),
            end: sqlDateTime(parseUtcWallClock(row['end_utc'])),
            listed: isListed(String(row['status']), Boolean(Number(row['hide_from_listings']))),
            featured: Boolean(Number(row['featured'])),
          });
          texts.set(id, []);
        }
        if (row['lang'] !== null) texts.get(id)?.push({ lang: String(row['lang']), name: row['name'] as string | null, description: row['description'] as string | null, excerpt: row['excerpt'] as string | null });
      }
      await rebuildSearchRows(
        manager,
        'event',
        chunk,
        (id) => {
          const original = originals.get(id);
          return original === undefined ? [] : recordSearchEntries(texts.get(id) ?? [], original);
        },
        (id) => states.get(id) ?? null,
        fresh,
      );
    }
  }

  /**
   * Gives the search rows of the events `ids` their events' start and listing state as their rows hold them now
   * (`listing-state.ts`), inside the write's transaction: for the events a write changed without rebuilding their
   * search rows (a trashing), with every write's effects.
   */
  async carryListingState(manager: EntityManager, ids: readonly number[]): Promise<void> {
    for (let at = 0; at < ids.length; at += SEARCH_BATCH) {
      const batch = ids.slice(at, at + SEARCH_BATCH);
      await manager.query(listingStateUpdate(this.engine(), 'search_tokens', `l.kind = 'event' AND l.record_id IN (${batch.map(() => '?').join(', ')})`), batch);
    }
  }

  /** The engine, as `listingStateUpdate` names it. */
  private engine(): 'mysql' | 'sqlite' {
    return this.dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite';
  }

  /** `alias.id` is linked to an event that is not a draft, pending or trashed. */
  linkedCondition(kind: LinkedKind, alias: string): SqlCondition {
    return linkedTo(kind, alias, { sql: `le.status NOT IN ('draft', 'pending', 'trash')`, params: {} });
  }

  /** `alias.id` is linked to an event that the caller sees in event lists and that has not ended by `now`. */
  upcomingCondition(kind: LinkedKind, alias: string, caller: Caller | null, now: Date): SqlCondition {
    const visible = visibleCondition('le', caller, 'linkedCallerId');
    return linkedTo(kind, alias, { sql: `${visible.sql} AND le.end_utc >= :linkedNow`, params: { ...visible.params, linkedNow: sqlDateTime(now) } });
  }
}
