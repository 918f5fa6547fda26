import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { mayModify, readAccess, RecordException, RecordRepository, RecordServiceDeps, RecordTarget } from '@calendar/records';
import { can } from '@calendar/shared/auth';
import { beginAssuming, holdDataVersions } from '@calendar/shared/database';
import { assertPageExists, VersionsHolder } from '@calendar/shared/http';
import { OrganizerService } from '@calendar/organizer';
import { TermService } from '@calendar/taxonomy';
import { VenueService } from '@calendar/venue';
import { DateTime } from 'luxon';
import { ListEventsQueryDto } from '../dto/event.dto';
import { EVENT_KIND } from '../dto/event.mapper';
import { EventEntity, EventTranslationEntity } from '../entities/event.entity';
import { passwordMatches } from '../event-password';
import { EventHead, EventLinks, EventListFilter, EventRepository, LinkRange, NO_RADIUS, NO_RESOLVED_RADIUS, noLinks, PageRead } from '../event.repository';
import { EventListQuery, eventListQuery, ListLookups, needsStartBound } from './event-list-query';

/** Pages that begin at least this many events into their window are found through the totals per day. */
const SEEK_FROM_OFFSET = 100;

/** An event read for a single answer: its head and links, and its whole record when that was asked for. */
export interface ReadEvent {
  head: EventHead;
  links: EventLinks;
  record?: EventEntity;
}

/** The events of one page of a list, with what links to its other pages. */
export interface EventPage {
  heads: EventHead[];
  links: EventLinks;
  /** The page's whole records, when they were asked for (`withRecords`). */
  records?: EventEntity[];
  total: number;
  pageUrl: (route: string) => (page: number) => string;
}

/**
 * What is read of events before they are presented (SPEC §4.3, §4.4): the event a target names with its access
 * checked, a list query's filter with its ids and slugs looked up, a list's total (kept per data version) and the
 * heads and links of its page. Heads carry each event's revision: the presenter renders from them.
 */
@Injectable()
export class EventReader {
  /** The record mechanisms events share with venues and organizers: here, slugs. */
  private readonly slugs: RecordRepository<EventEntity, EventTranslationEntity>;

  constructor(
    private readonly deps: RecordServiceDeps,
    private readonly events: EventRepository,
    private readonly venues: VenueService,
    private readonly organizers: OrganizerService,
    private readonly terms: TermService,
  ) {
    this.slugs = new RecordRepository(deps.dataSource, EVENT_KIND, []);
  }

  /** The id of the event a target names (a slug in the request language first, then any other), or null. */
  async idOf(target: RecordTarget, scope: RequestContext): Promise<number | null> {
    return 'id' in target ? target.id : this.slugs.idBySlug(target.slug, scope.language);
  }

  /**
   * The event a target names, if the caller may read it: 404 unknown, 410/403 trashed, 403 hidden. For reads only:
   * the data versions read with the head become the read's (an answer after a write must read them after it).
   * `withRecord` says, by id, whether the answer will render the event: then its whole record is read in the same
   * statement as its head.
   */
  async readable(target: RecordTarget, scope: RequestContext, withRecord?: (id: number) => boolean): Promise<ReadEvent> {
    const id = await this.idOf(target, scope);
    const found = id === null ? null : withRecord?.(id) ? await this.events.oneRecord(id) : await this.events.oneHead(id);
    if (!found) throw RecordException.notFound(EVENT_KIND);
    // Read with the head: what the answer keeps or finds per version (its venues, organizers, terms) needs no read of its own.
    holdDataVersions(scope.versions, found.versions);
    const access = readAccess(found.head, scope.caller);
    if (access === 'trashed') throw RecordException.trashed(EVENT_KIND);
    if (access === 'hidden') throw RecordException.notAccessible(EVENT_KIND);
    return found;
  }

  /**
   * The event a target names, if the caller may read it whole (SPEC §4.7): a protected event needs its password,
   * unless the caller may edit it; 403 `event-password-protected` otherwise.
   */
  async opened(target: RecordTarget, scope: RequestContext, password?: string, withRecord?: (id: number) => boolean): Promise<ReadEvent> {
    const found = await this.readable(target, scope, withRecord);
    const { head } = found;
    if (head.passwordHash && !mayModify(head, scope.caller) && !(password !== undefined && passwordMatches(password, head.passwordHash))) {
      throw new RecordException(403, 'event-password-protected', 'The event is protected by a password.');
    }
    return found;
  }

  /**
   * One event's head, links and whole record whatever its status, or null: a write's answer, which renders the
   * event at the revision the write gave it (nothing of it is kept yet).
   */
  written(id: number): Promise<Required<ReadEvent> | null> {
    return this.events.oneRecord(id);
  }

  /** The events of a list page (SPEC §4.4): parameters checked, filter resolved, total counted, rows and links read. */
  async page(query: ListEventsQueryDto, scope: RequestContext, { withRecords = false }: { withRecords?: boolean } = {}): Promise<EventPage> {
    const { language, origin, versions } = scope;
    const { filter, effective, window, total } = await this.resolvedAndCounted(query, scope);
    assertPageExists('event', query, total);
    const { translation_language: _language, page: _page, ...filters } = query;
    const pageUrl = (route: string) => (page: number) => this.deps.links.rest(origin, language, route, { ...filters, ...effective, page });
    // The total is exact at the versions the read holds: with none, there is no page to read (a list of a venue or an
    // organizer with nothing in its window, a search word or a radius that matches nothing).
    if (total === 0) return { heads: [], links: noLinks(), records: withRecords ? [] : undefined, total, pageUrl };
    const offset = (query.page - 1) * query.per_page;
    // A page far into its window starts reading at the day it begins on (from the totals per day), not at the
    // window's first event: only that day's earlier events are skipped.
    const seek = offset >= SEEK_FROM_OFFSET ? await this.seek(filter, offset) : null;
    const read: EventListFilter = seek ? { ...filter, startsAtOrAfter: seek.from, days: undefined } : filter;
    const skip = offset - (seek?.before ?? 0);
    const { heads, links, records } = await this.events.page(read, skip, query.per_page, await this.howToRead(read, window, skip + query.per_page, total, versions), withRecords);
    return { heads, links, records, total, pageUrl };
  }

  /**
   * A list's filter (`listQuery`) and total. The filter's venues, organizers and terms are taken from their kept
   * values at the versions the process saw last, without a round trip for the versions first (`beginAssuming`): the
   * total reads them with its count. Should a part taken so have moved since (written meanwhile, through any
   * instance), or the filter be refused from such values, the filter is resolved and counted again at the versions
   * the read now holds, against which kept values are then checked.
   */
  private async resolvedAndCounted(query: ListEventsQueryDto, scope: RequestContext): Promise<EventListQuery & { window: EventListFilter | null; total: number }> {
    const { versions } = scope;
    const resolve = async () => {
      const made = await this.listQuery(query, scope);
      const window = this.walkWindow(made.filter);
      return { ...made, window, total: await this.keptTotal(made.filter, versions, window) };
    };
    beginAssuming(versions);
    try {
      const made = await resolve();
      if (await this.deps.fragments.assumptionsHold(versions)) return made;
    } catch (error) {
      if (await this.deps.fragments.assumptionsHold(versions)) throw error;
    }
    return resolve();
  }

  /**
   * Where a page `offset` events into a whole-day window begins: the start of the day its first event starts on and
   * how many of the window's events start before that day (from the totals per day); null when the totals per day
   * do not count the list or the page begins on the window's first day.
   */
  private async seek(filter: EventListFilter, offset: number): Promise<{ from: Date; before: number } | null> {
    const perDay = this.events.perDay(filter);
    if (!perDay) return null;
    let before = 0;
    for (const { day, count } of await this.events.perDayTotals(perDay)) {
      if (before + count > offset) {
        if (day === perDay.first) return null;
        const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
        return { from: DateTime.fromISO(date, { zone: this.deps.config.timezone.zone }).startOf('day').toJSDate(), before };
      }
      before += count;
    }
    return null;
  }

  /**
   * A list query's filter (SPEC §4.4): its terms, venues, organizers and parent looked up, then `eventListQuery`;
   * with `window: false` (a sync), no date window.
   */
  async listQuery(query: ListEventsQueryDto, scope: RequestContext, { window = true }: { window?: boolean } = {}): Promise<EventListQuery> {
    const lookups: ListLookups = { terms: [], unknownPlaces: [] };
    for (const taxonomy of ['categories', 'tags'] as const) {
      const items = query[taxonomy];
      if (items) lookups.terms.push({ taxonomy, ...(await this.terms.resolveFilter(taxonomy === 'categories' ? 'category' : 'tag', items, scope.versions)) });
    }
    for (const [key, service] of [['venue', this.venues], ['organizer', this.organizers]] as const) {
      const ids = query[key];
      if (!ids) continue;
      const known = await service.existing(ids, scope.versions);
      lookups.unknownPlaces.push({ key, unknown: ids.filter((id) => !known.has(id)) });
    }
    if (query.post_parent !== undefined) lookups.parentExists = await this.events.exists(query.post_parent);
    const made = eventListQuery(query, lookups, { caller: scope.caller, language: scope.language, now: new Date(), zone: this.deps.config.timezone.zone, window });
    if (needsStartBound(made.filter)) {
      const longest = await this.deps.counts.count('longest event', () => this.events.longestSpanSeconds(), scope.versions);
      made.filter.startsAtOrAfterBound = new Date(made.filter.endsAfter.getTime() - longest * 1000);
    }
    const near = made.filter.near;
    // The venues within the radius and their cells, kept per version of the venues and found among every venue's
    // point (kept per version too): the list then reads their links by cell and start.
    if (near) {
      const found = await this.deps.fragments.value('venues', `near ${near.lat} ${near.lng} ${near.radiusKm}`, scope.versions, async () =>
        this.events.venuesNear(near, await this.deps.fragments.value('venues', 'points', scope.versions, () => this.events.venuePoints())),
      );
      made.filter.nearVenues = found.ids;
      made.filter.nearCells = found.cells;
      made.filter.nearInnerCells = found.innerCells;
      made.filter.nearEdgeVenues = found.edgeVenues;
    }
    return made;
  }

  /**
   * The number of events matching a filter, kept per filter, audience and data version (CountMemo); after writes
   * that only added events, caught up by counting those.
   */
  private keptTotal(filter: EventListFilter, versions: VersionsHolder, alongside: EventListFilter | null = null): Promise<number> {
    return this.deps.counts.countSince(
      totalKey(filter),
      versions,
      async (versions) => {
        const counted = await this.events.countAtVersion(filter, alongside ?? undefined, { versions });
        // The window's total, when the same statement gave it, is kept too: deciding how to read the page then costs none.
        return { ...counted, also: alongside && counted.alongside !== undefined ? [{ key: totalKey(alongside), count: counted.alongside }] : undefined };
      },
      (from, to) => this.events.countAdded(filter, from, to),
    );
  }

  /**
   * A page is read by walking the start-ordered index when the events matching the link, place and search
   * conditions are dense enough among those of the window that the walk to the page's end is short (expected rows
   * = rows to the page's end × window total / filtered total, at most PAGE_WALK_ROWS). This is the window whose
   * total that takes, or null when there is nothing to decide. Both totals are kept per data version (and read in
   * one statement when the totals per day count the window: beside the list's own total, read from them or counted
   * from the events), so deciding costs no scan and no statement of its own. On SQLite too: read from the sets, it
   * builds a common word's or category's whole set within the window before walking the index (7 ms for a first page
   * of ten over two years); walked, it probes each event's own rows.
   */
  private walkWindow(filter: EventListFilter): EventListFilter | null {
    if (this.deps.config.pageWalkRows === 0) return null;
    const narrowed = (filter.termSets?.length ?? 0) > 0 || filter.venues || filter.organizers || filter.search || filter.near || filter.geoloc !== undefined;
    return narrowed ? { ...filter, termSets: [], venues: undefined, organizers: undefined, search: undefined, ...NO_RADIUS, geoloc: undefined } : null;
  }

  /**
   * How the page's rows are found. A searched page on MySQL and MariaDB along its first word's rows by start
   * (`EventRepository.readsAlongWord`). Else along the start-ordered index (MySQL and MariaDB)
   * of the list's one link (`linkRange`) when that reads fewer rows than the other ways: each of its ids' runs reads
   * about `end` rows (beside `featured`, over the share of the window's events it keeps: `linkRangeRows`), against
   * `end` × window total / total for a walk of the listing index and `total` for the set read whole and sorted.
   * Else by walking the index when the rows expected to the page's end are PAGE_WALK_ROWS at most (`pageWalks`):
   * with a search word, a radius, a category or a tag, whose sets are read by start within the window (about as many
   * rows as the list's total), the walk must also read fewer rows than that set, each event walked costing a probe
   * of its words (about ten rows each), of its venue links against a radius driven from its cells' rows (a few
   * rows each: `RADIUS_PROBE_ROWS`) or of its venue, category or tag links. Else from the sets. The window's
   * total is read once (kept per version), and beside `featured` the window's total without it too.
   */
  private async howToRead(filter: EventListFilter, window: EventListFilter | null, end: number, total: number, versions: VersionsHolder): Promise<PageRead> {
    if (window === null || total === 0) return false;
    // A searched page along its word's rows by start reads at most the word's rows of the window, and stops at the
    // page's end: fewer than walking the window and probing each event's words, or reading the word's set whole.
    if (this.events.readsAlongWord(filter)) return 'word';
    const windowTotal = await this.keptTotal(window, versions);
    const range = this.deps.dataSource.options.type === 'mysql' ? linkRange(filter, MAX_RANGE_IDS) : null;
    if (range) {
      // Beside `featured`, a run walks past the link's events it leaves out: as many as the window's share says.
      const windowAll = filter.featured === undefined ? windowTotal : await this.keptTotal({ ...window, featured: undefined }, versions);
      const rangeRows = linkRangeRows(range.ids.length, end, windowTotal, windowAll);
      if (rangeRows < total && rangeRows <= (end * windowTotal) / total) return range;
    }
    const probeRows = filter.search ? SEARCH_PROBE_ROWS : this.events.readsRadiusSet(filter) ? RADIUS_PROBE_ROWS : filter.nearVenues || (filter.termSets?.length ?? 0) > 0 ? 1 : 0;
    return pageWalks({ end, windowTotal, total, pageWalkRows: this.deps.config.pageWalkRows, probeRows });
  }
}

/**
 * Whether a page ending `end` events into a filtered list of `total` events is read by walking its window of
 * `windowTotal` events: the rows expected to be walked are `pageWalkRows` at most, and, when the filter's set is
 * read by start within the window (about `total` rows), the rows the walk's probes read (`probeRows` per event
 * walked; 0: the set is not read by start) are no more than that set's.
 */
export function pageWalks({ end, windowTotal, total, pageWalkRows, probeRows }: { end: number; windowTotal: number; total: number; pageWalkRows: number; probeRows: number }): boolean {
  if (total === 0) return false;
  const expected = (end * windowTotal) / total;
  return expected <= pageWalkRows && expected * probeRows <= total;
}

/**
 * The one link a page of `filter` may be read along (`EventRepository.page`), or null: the filter's only narrowing
 * beyond its window, the caller's visibility and `featured` is one term set, venue list or organizer list of at most
 * `maxIds` ids. Any other condition (a second link, a search word, a radius, a parent, statuses asked for) may reject
 * linked events the run has to read past, which the rows counted per id do not foresee; those `featured` rejects are
 * foreseen from the window's totals (`linkRangeRows`).
 */
export function linkRange(filter: EventListFilter, maxIds: number): LinkRange | null {
  const others = [filter.search, filter.near, filter.nearVenues, filter.geoloc, filter.postParent, filter.statuses, filter.include, filter.modifiedAfter, filter.modifiedBefore];
  if (others.some((value) => value !== undefined)) return null;
  const links: LinkRange[] = [
    ...(filter.termSets ?? []).map((ids, termSet): LinkRange => ({ link: 'terms', ids, termSet })),
    ...(filter.venues ? [{ link: 'venues' as const, ids: filter.venues }] : []),
    ...(filter.organizers ? [{ link: 'organizers' as const, ids: filter.organizers }] : []),
  ];
  return links.length === 1 && links[0].ids.length > 0 && links[0].ids.length <= maxIds ? links[0] : null;
}

/**
 * The rows a page read along a link (`linkRange`) is expected to read to the page's `end`: `end` for each of its
 * `ids`, over the share of the link's events the rest of the filter keeps, taken as that of the window (`featured`:
 * the window's `kept` featured or not-featured events of `all` its events); Infinity when it keeps none.
 */
export function linkRangeRows(ids: number, end: number, kept: number, all: number): number {
  return kept > 0 ? (ids * end * Math.max(all, kept)) / kept : Infinity;
}

/** The most ids whose runs a page read along a link merges (a category and its descendants, several venues or organizers). */
const MAX_RANGE_IDS = 8;

/** The rows of the word index a walk reads for each event it probes for a search word (an event has about ten words). */
const SEARCH_PROBE_ROWS = 10;

/**
 * What a walk's probe of an event's venue links against a radius costs, in rows of the radius's set read by start
 * (`EventRepository.readsRadiusSet`, MySQL and MariaDB). At a million events a walked event cost 4–6 µs and a row
 * of the radius's cells 1.2 µs: a second page of 20 round New York over ten weeks (1,818 events of 62,000 in the
 * window) took 5.5–8.4 ms walked and 2.1–2.5 ms from the set, the same answer.
 */
const RADIUS_PROBE_ROWS = 4;

/** The key a list's total is kept under: what the caller may see (everything, their own records too, or the public ones) and the filter. */
function totalKey(filter: EventListFilter): string {
  const { caller } = filter;
  const audience = can.readOthersPrivate(caller) ? 'all' : caller ? `user:${caller.id}` : 'public';
  // The venues within a radius, and their cells, follow from it and the data version the totals are kept at.
  return `events ${audience} ${JSON.stringify({ ...filter, caller: undefined, ...NO_RESOLVED_RADIUS })}`;
}
