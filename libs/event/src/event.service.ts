import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { OrganizerResponse, OrganizerService } from '@calendar/organizer';
import type { MediaEntity } from '@calendar/records';
import { LinkedKind, mayModify, PresentOptions, readAccess, RecordException, RecordRepository, RecordService, RecordServiceDeps, RecordStatus, RecordTarget } from '@calendar/records';
import { can } from '@calendar/shared/auth';
import { WriteEffects } from '@calendar/shared/database';
import { ApiException, assertPageExists, Caller, JsonTemplate, JsonText, jsonOf, ListResult, RevisionCache, VersionsHolder } from '@calendar/shared/http';
import { searchTerms } from '@calendar/shared/search';
import { parseDateTime, parseTimeZone, parseUtcWallClock, WP_DATE_TIME_FORMAT } from '@calendar/shared/time';
import { TermLinkRegistry, TermRepository, TermResponse, TermService } from '@calendar/taxonomy';
import { VenueResponse, VenueService } from '@calendar/venue';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DateTime } from 'luxon';
import { EntityManager } from 'typeorm';
import { CreateOrganizerDto } from '@calendar/organizer';
import { CreateVenueDto } from '@calendar/venue';
import { ListEventsQueryDto, UpdateEventByIdDto } from './dto/event.dto';
import { EventJsonLdOwn, eventJsonLd, eventJsonLdOwn, EventResponse, EVENT_KIND, mapEvent } from './dto/event.mapper';
import { LinkItem } from './dto/event-params';
import { EventEntity, EventTranslationEntity } from './entities/event.entity';
import { eventZone, isDateProblem, resolveEventDates } from './event-dates';
import { FeedItem, KeptVevent, keptVevent, linkedLines, SeriesFeed } from './ics/event-calendar';
import { EventHead, EventLinks, EventListFilter, EventRepository } from './event.repository';
import { Clock } from './recurrence/clock';
import { normalizeRecurrence, occurrenceStarts, RecurrenceError } from './recurrence/recurrence-rule';
import { DETACHING_FIELDS, HORIZON, SeriesChange, SeriesWriter } from './recurrence/series.writer';

const TWO_YEARS = { years: 2 };
/** The most events a month grid looks at (SPEC §14); a month with more shows the first ones. */
const MONTH_SPANS = 20000;

/** The members of an event that embed other records: filled in per answer, from their own kept renderings. */
const EMBEDDED = ['categories', 'tags', 'venue', 'organizer'] as const;
/** ... and, in single answers, its JSON-LD, which embeds its place and organizers. */
type Open = (typeof EMBEDDED)[number] | 'json_ld';

/** What a month grid shows of an event (SPEC §14): the members of its list answer it needs. */
/** A day of a month grid: its date, and the instants (milliseconds since 1970) at which it begins and ends. */
export interface GridDay {
  iso: string;
  startMs: number;
  endMs: number;
}

export type GridEvent = Pick<EventResponse, 'id' | 'title' | 'url' | 'utc_start_date' | 'utc_end_date' | 'all_day' | 'timezone' | 'timezone_abbr'>;

/** The venues, organizers and terms an event links to, as the caller may see them. */
type Linked = (eventId: number) => { venues: VenueResponse[]; organizers: OrganizerResponse[]; categories: TermResponse[]; tags: TermResponse[] };

/** What is kept of an event per language, origin, lock and kind of answer, under the event's revision. */
interface KeptRendering {
  template: JsonTemplate<Open>;
  /** Single answers: the members of the JSON-LD that come from the event alone. */
  jsonLd?: EventJsonLdOwn;
}

function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `${salt.toString('base64')}:${scryptSync(password, salt, 32).toString('base64')}`;
}

function passwordMatches(password: string, stored: string): boolean {
  const [salt, hash] = stored.split(':');
  const expected = Buffer.from(hash, 'base64');
  const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** The rules of events (SPEC §4) on top of what every record shares. */
@Injectable()
export class EventService extends RecordService<EventEntity, EventTranslationEntity, EventResponse, UpdateEventByIdDto> implements OnModuleInit {
  protected readonly kind = EVENT_KIND;
  protected readonly repository: RecordRepository<EventEntity, EventTranslationEntity>;
  /** Renderings of events per language, origin, lock and kind of answer, kept under each event's revision. */
  private readonly rendered: RevisionCache<KeptRendering>;
  /** The own lines of events as VEVENTs (feeds), per language, origin and lock, kept under each event's revision. */
  private readonly vevents: RevisionCache<KeptVevent>;
  /** What month grids show of events, per language and origin, kept under each event's revision. */
  private readonly gridEvents: RevisionCache<GridEvent>;

  constructor(
    deps: RecordServiceDeps,
    private readonly events: EventRepository,
    private readonly venues: VenueService,
    private readonly organizers: OrganizerService,
    private readonly terms: TermService,
    private readonly termRepository: TermRepository,
    private readonly termLinks: TermLinkRegistry,
    private readonly series: SeriesWriter,
    private readonly clock: Clock,
  ) {
    super(deps);
    this.repository = new RecordRepository(deps.dataSource, EVENT_KIND, []);
    this.rendered = new RevisionCache(deps.config.renderCacheBytes);
    this.vevents = new RevisionCache(deps.config.renderCacheBytes);
    this.gridEvents = new RevisionCache(deps.config.renderCacheBytes / 4);
  }

  /**
   * Venues, organizers and terms learn about events through their ports; what event writes change of terms' counts
   * and of the longest event span is applied with every write's effects.
   */
  override onModuleInit(): void {
    super.onModuleInit();
    const coordinator = this.deps.transactions.coordinator;
    coordinator.register('longest event span', async (manager, effects) => {
      if (effects.longestSpan > 0) await this.events.widenSpan(manager, effects.longestSpan);
    });
    // Counts are of published events, and term answers carry them: their version moves on with the write.
    coordinator.register('term counts', async (manager, effects) => {
      if (effects.terms.size === 0) return;
      effects.movePart('terms');
      const ids = [...effects.terms];
      await this.termRepository.lockForCount(manager, ids);
      await this.termRepository.setCounts(manager, await this.events.termCounts(manager, ids));
    });
    this.termLinks.register({ termIdsForEvent: (eventId) => this.events.linkedIds('term', eventId) });
    this.deps.eventLinks.register({
      idsForEvent: (kind: LinkedKind, eventId: number) => this.events.linkedIds(kind, eventId),
      linkedCondition: (kind: LinkedKind, alias: string) => this.events.linkedCondition(kind, alias),
      upcomingCondition: (kind: LinkedKind, alias: string, caller: Caller | null) => this.events.upcomingCondition(kind, alias, caller, new Date()),
    });
  }

  /** A single read (SPEC §4.3, §4.7). */
  async getEvent(target: RecordTarget, context: RequestContext, password?: string): Promise<JsonText<EventResponse>> {
    const id = await this.targetId(target, context);
    const found = id === null ? null : await this.events.oneHead(id);
    if (!found) throw RecordException.notFound(this.kind);
    const { head, links } = found;
    const access = readAccess(head, context.caller);
    if (access === 'trashed') throw RecordException.trashed(this.kind);
    if (access === 'hidden') throw RecordException.notAccessible(this.kind);
    if (head.passwordHash && !mayModify(head, context.caller) && !(password !== undefined && passwordMatches(password, head.passwordHash))) {
      throw new RecordException(403, 'event-password-protected', 'The event is protected by a password.');
    }
    const rendered = await this.renderEvents([head], context, { single: true, unlocked: new Set([head.id]), linked: await this.linkedOf(links, context), load: (ids) => this.events.load(ids) });
    // Deleted since its head was read: as if asked a moment later.
    if (rendered.length === 0) throw RecordException.notFound(this.kind);
    return rendered[0].text;
  }

  /** The id of the event a slug names (request language first, then any other), or null. */
  idOfSlug(slug: string, context: RequestContext): Promise<number | null> {
    return this.targetId({ slug }, context);
  }

  /**
   * The series an event belongs to, as its single-event feed gives it (SPEC §13): null for an event that does not
   * recur, or whose head the caller may not read. `event` is the event's own answer, access already checked.
   */
  async seriesFeed(event: EventResponse, context: RequestContext, password?: string): Promise<SeriesFeed | null> {
    if (event.recurrence.length === 0) return null;
    const [row] = await this.deps.dataSource.query('SELECT series_id FROM events WHERE id = ?', [event.id]);
    const headId = row?.series_id ? Number(row.series_id) : event.id;
    let head = event;
    if (headId !== event.id) {
      try {
        head = (await this.getEvent({ id: headId }, context, password)).toJSON();
      } catch (error) {
        if (error instanceof RecordException) return null;
        throw error;
      }
    }
    // The head of an occurrence left from a series that is single again.
    if (head.recurrence.length === 0) return null;
    const rows: Record<string, unknown>[] = await this.deps.dataSource.query(
      'SELECT id, status, author_id, recurrence_start, end_utc, detached FROM events WHERE series_id = ? ORDER BY recurrence_start',
      [headId],
    );
    const at = (value: unknown) => parseUtcWallClock(value).getTime();
    const feed: SeriesFeed = { head, excluded: [], overrides: [], lastEnd: 0 };
    for (const occurrence of rows) {
      const recurrenceId = at(occurrence['recurrence_start']);
      feed.lastEnd = Math.max(feed.lastEnd, at(occurrence['end_utc']));
      const access = readAccess({ status: occurrence['status'] as RecordStatus, authorId: Number(occurrence['author_id']) }, context.caller);
      if (access !== 'ok') {
        feed.excluded.push(recurrenceId);
        continue;
      }
      if (!occurrence['detached']) continue;
      try {
        feed.overrides.push({ event: (await this.getEvent({ id: Number(occurrence['id']) }, context, password)).toJSON(), recurrenceId });
      } catch (error) {
        if (!(error instanceof RecordException)) throw error;
        feed.excluded.push(recurrenceId);
      }
    }
    return feed;
  }

  async listEvents(query: ListEventsQueryDto, context: RequestContext): Promise<ListResult<JsonText<EventResponse>>> {
    const page = await this.eventRows(query, context);
    const rendered = await this.renderEvents(page.heads, context, { single: false, unlocked: new Set(), linked: await this.linkedOf(page.links, context), load: (ids) => this.events.load(ids) });
    const items = rendered.map(({ text }) => text);
    return new ListResult('events', items, page.total, query, page.pageUrl('events'));
  }

  /**
   * The events of a calendar feed (SPEC §12): the page of the equivalent list as VEVENTs, with links to the feed's
   * other pages. Each event's own lines are kept under its revision (made from its list answer when missing), the
   * lines of the records it links to are made from their kept renderings; a locked event is shown reduced.
   */
  async eventFeed(query: ListEventsQueryDto, context: RequestContext): Promise<ListResult<FeedItem>> {
    const { heads, links, total, pageUrl } = await this.eventRows(query, context);
    const origin = context.origin;
    const locked = (event: EventHead) => event.passwordHash !== null && !mayModify(event, context.caller);
    const keyOf = (event: EventHead) => `${event.id}|${context.language}|${origin}|${locked(event) ? 'locked' : 'open'}`;
    const kept = new Map<number, KeptVevent>();
    const missing = heads.filter((event) => {
      const found = this.vevents.get(keyOf(event), event.revision);
      if (found) kept.set(event.id, found);
      return !found;
    });
    // One read of the linked records serves both steps; full records are read only for what is rendered anew.
    const linked = await this.linkedOf(links, context);
    // What is rendered here to make VEVENTs is not kept as JSON too: the VEVENT is (a JSON list keeps its own).
    const rendered = await this.renderEvents(missing, context, { single: false, unlocked: new Set(), linked, load: (ids) => this.events.load(ids), keep: false });
    for (const { event, text } of rendered) {
      const vevent = keptVevent(text.toJSON(), locked(event));
      this.vevents.set(keyOf(event), event.revision, vevent, 2 * (vevent.head.length + vevent.tail.length) + 200);
      kept.set(event.id, vevent);
    }
    const items = heads.flatMap((event) => {
      const vevent = kept.get(event.id);
      if (!vevent) return [];
      if (vevent.locked) return [{ kept: vevent, linked: '' }];
      const { venues, organizers, categories, tags } = linked(event.id);
      return [{ kept: vevent, linked: linkedLines(venues, organizers, [...categories, ...tags]) }];
    });
    return new ListResult('events', items, total, query, pageUrl('events/ics'));
  }

  /** A feed's name (SPEC §12): the site's, then the categories and tags it is filtered by, in the request's language. */
  async feedName(query: Pick<ListEventsQueryDto, 'categories' | 'tags'>, context: RequestContext): Promise<string> {
    const site = this.deps.config.siteName ?? this.deps.links.siteHost(context.origin);
    const names: string[] = [];
    for (const taxonomy of ['categories', 'tags'] as const) {
      const items = query[taxonomy];
      if (items) names.push(...(await this.terms.namesOf(taxonomy === 'categories' ? 'category' : 'tag', items, context)));
    }
    return names.length > 0 ? `${site} – ${names.join(', ')}` : site;
  }

  /** The events of a list page (SPEC §4.4): parameters checked, filter resolved, total counted, rows and links read. */
  private async eventRows(
    query: ListEventsQueryDto,
    context: RequestContext,
  ): Promise<{ heads: EventHead[]; links: EventLinks; total: number; pageUrl: (route: string) => (page: number) => string }> {
    const { language, origin, versions } = context;
    const { filter, effective } = await this.listFilter(query, context);
    const total = await this.keptTotal(filter, versions);
    assertPageExists('event', query, total);
    const offset = (query.page - 1) * query.per_page;
    const { heads, links } = await this.events.page(filter, offset, query.per_page, await this.walks(filter, offset + query.per_page, total, versions));
    const { translation_language: _language, page: _page, ...filters } = query;
    return { heads, links, total, pageUrl: (route) => (page) => this.deps.links.rest(origin, language, route, { ...filters, ...effective, page }) };
  }

  /**
   * The events of a month grid (SPEC §14): every event of the list's query, as spans, bucketed by the days (in the
   * service time zone, given with the instants they begin and end) they cover; the first `perDay` of each day
   * rendered as the list renders them, and how many more each day has. Only the chosen events are read whole.
   */
  async eventDays(query: ListEventsQueryDto, context: RequestContext, days: readonly GridDay[], perDay: number): Promise<Map<string, { events: GridEvent[]; more: number }>> {
    const { filter } = await this.listFilter(query, context);
    const lists = days.map(() => [] as number[]);
    for (const { id, start, end } of await this.events.spans(filter, MONTH_SPANS)) {
      // Each day of the grid from the one it starts on to the one it ends on (an end at midnight is in the day before).
      for (let index = 0; index < days.length; index += 1) {
        if (days[index].endMs <= start) continue;
        if (days[index].startMs > end || (days[index].startMs === end && end > start)) break;
        lists[index].push(id);
      }
    }
    const shown = [...new Set(lists.flatMap((ids) => ids.slice(0, perDay)))];
    // What a grid shows of an event is kept under its revision; the others are rendered as the list renders them.
    const origin = context.origin;
    const keyOf = (event: Pick<EventHead, 'id'>) => `${event.id}|${context.language}|${origin}`;
    const events = new Map<number, GridEvent>();
    const revisions = await this.events.revisions(shown);
    const unknown = shown.filter((id) => {
      const found = this.gridEvents.get(keyOf({ id }), revisions.get(id) ?? 0);
      if (found) events.set(id, found);
      return !found;
    });
    if (unknown.length > 0) {
      const { heads: missing, links } = await this.events.headsOf(unknown);
      const rendered = await this.renderEvents(missing, context, { single: false, unlocked: new Set(), linked: await this.linkedOf(links, context), load: (ids) => this.events.load(ids), keep: false });
      for (const { event, text } of rendered) {
        const { id, title, url, utc_start_date, utc_end_date, all_day, timezone, timezone_abbr } = text.toJSON();
        const item: GridEvent = { id, title, url, utc_start_date, utc_end_date, all_day, timezone, timezone_abbr };
        this.gridEvents.set(keyOf(event), event.revision, item, 2 * (title.length + url.length) + 200);
        events.set(event.id, item);
      }
    }
    return new Map(days.map((day, index) => [day.iso, { events: lists[index].slice(0, perDay).flatMap((id) => events.get(id) ?? []), more: Math.max(0, lists[index].length - perDay) }]));
  }

  /** A list query's filter (SPEC §4.4): parameters checked, terms, venues and organizers resolved, dates bounded. */
  private async listFilter(query: ListEventsQueryDto, context: RequestContext): Promise<{ filter: EventListFilter; effective: Record<string, unknown> }> {
    const { caller, language, versions } = context;
    const problems: Record<string, string> = {};
    const now = new Date();
    const zone = this.deps.config.timezone.zone;
    if (query.status && !caller && query.status.some((status) => status !== 'publish')) problems['status'] = 'must be publish for callers who are not logged in';
    if ((query.geoloc_lat === undefined) !== (query.geoloc_lng === undefined)) {
      problems[query.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng'] = 'must be given together with the other coordinate';
    }
    const filter: EventListFilter = { language, caller, statuses: query.status, include: query.include, featured: query.featured, geoloc: query.geoloc };
    if (query.search !== undefined) filter.search = searchTerms(query.search);
    filter.termSets = [];
    for (const taxonomy of ['categories', 'tags'] as const) {
      const items = query[taxonomy];
      if (!items) continue;
      const { ids, unknown } = await this.terms.resolveFilter(taxonomy === 'categories' ? 'category' : 'tag', items, versions);
      if (unknown.length > 0) problems[taxonomy] = `must name existing ${taxonomy} by id or slug; unknown: ${unknown.join(', ')}`;
      filter.termSets.push(ids);
    }
    for (const [key, service] of [['venue', this.venues], ['organizer', this.organizers]] as const) {
      const ids = query[key];
      if (!ids) continue;
      const known = await service.existing(ids);
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) problems[key] = `must list existing ${key} ids; unknown: ${unknown.join(', ')}`;
      filter[key === 'venue' ? 'venues' : 'organizers'] = ids;
    }
    if (query.post_parent !== undefined) {
      if (!(await this.events.exists(query.post_parent))) problems['post_parent'] = 'must be the id of an existing event';
      filter.postParent = query.post_parent;
    }
    if (Object.keys(problems).length > 0) throw ApiException.invalidParams(problems);
    if (query.ticketed === true) throw new ApiException(400, 'tickets-not-supported', 'This service sells no tickets; ticketed=true matches nothing.');
    if (query.geoloc_lat !== undefined && query.geoloc_lng !== undefined) {
      filter.near = { lat: query.geoloc_lat, lng: query.geoloc_lng, radiusKm: query.geoloc_radius ?? 50 };
    }

    const effective: Record<string, unknown> = {};
    if (!query.include) {
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
      if (query.starts_before !== undefined) filter.startsBefore = bound(query.starts_before, 'end');
      if (query.starts_after !== undefined) filter.startsAfter = bound(query.starts_after, 'end');
      if (query.ends_before !== undefined) filter.endsBefore = bound(query.ends_before, 'end');
      if (query.ends_after !== undefined) filter.endsAfter = bound(query.ends_after, 'end');
      const shown = (date: Date | undefined) => (date ? DateTime.fromJSDate(date).setZone(zone).toFormat(WP_DATE_TIME_FORMAT) : undefined);
      effective['start_date'] = shown(filter.startsAtOrAfter);
      effective['end_date'] = shown(filter.endsAtOrBefore);
      // Events that end after A (overlap windows) started at most the longest event's length before A.
      const endsFrom = filter.endsAfter;
      if (endsFrom && !filter.startsAtOrAfter && !filter.startsAfter) {
        const longest = await this.deps.counts.count('longest event', () => this.events.longestSpanSeconds(), versions);
        filter.startsAtOrAfterBound = new Date(endsFrom.getTime() - longest * 1000);
      }
    }

    return { filter, effective };
  }

  /**
   * Whether a page is read by walking the start-ordered index: when the events matching the link, place and
   * search conditions are dense enough among those of the window that the walk to the page's end is short
   * (expected rows = rows to the page's end × window total / filtered total, at most PAGE_WALK_ROWS). Both totals
   * are kept per data version, so deciding costs no scan of its own once asked. MySQL and MariaDB only: SQLite
   * already runs `IN` subqueries as a set probed while walking the index, and plans the probes worse.
   */
  private async walks(filter: EventListFilter, end: number, total: number, versions: VersionsHolder): Promise<boolean> {
    const limit = this.deps.config.pageWalkRows;
    if (this.deps.dataSource.options.type !== 'mysql') return false;
    const narrowed = (filter.termSets?.length ?? 0) > 0 || filter.venues || filter.organizers || filter.search || filter.near || filter.geoloc !== undefined;
    if (limit === 0 || !narrowed || total === 0) return false;
    const window: EventListFilter = { ...filter, termSets: [], venues: undefined, organizers: undefined, search: undefined, near: undefined, geoloc: undefined };
    return (end * (await this.keptTotal(window, versions))) / total <= limit;
  }

  /**
   * The number of events matching a filter, kept per filter, audience and data version (CountMemo); after writes
   * that only added events, caught up by counting those.
   */
  private keptTotal(filter: EventListFilter, versions: VersionsHolder): Promise<number> {
    // The total depends on what the caller may see: everything, their own records too, or the public ones.
    const { caller } = filter;
    const audience = can.readOthersPrivate(caller) ? 'all' : caller ? `user:${caller.id}` : 'public';
    return this.deps.counts.countSince(
      `events ${audience} ${JSON.stringify({ ...filter, caller: undefined })}`,
      versions,
      () => this.events.countAtVersion(filter),
      (from, to) => this.events.countAdded(filter, from, to),
    );
  }

  protected override async presentMany(events: EventEntity[], context: RequestContext, jsonLd: boolean): Promise<EventResponse[]> {
    return this.presentEvents(events, context, jsonLd, new Set());
  }

  /**
   * Events as answered: each event's JSON text made from what is kept of it under its revision (its full record
   * loaded and rendered again only after it is written), with the kept renderings of the venues, organizers and
   * terms it links to filled in, and in single answers its JSON-LD. Equal to the JSON of `presentEvents`. Each
   * answer comes with the head it was made from: the full record's, when it was read anew (an event deleted since
   * its head was read is left out). `keep: false` keeps nothing new (for answers made from the JSON, such as feeds).
   */
  private async renderEvents(
    heads: EventHead[],
    context: RequestContext,
    {
      single,
      unlocked,
      linked,
      load,
      keep = true,
    }: { single: boolean; unlocked: Set<number>; linked: Linked; load: (ids: number[]) => Promise<EventEntity[]>; keep?: boolean },
  ): Promise<{ event: EventHead; text: JsonText<EventResponse> }[]> {
    const origin = context.origin;
    const locked = (event: EventHead) => event.passwordHash !== null && !unlocked.has(event.id) && !mayModify(event, context.caller);
    const keyOf = (event: EventHead) => `${event.id}|${context.language}|${origin}|${locked(event) ? 'locked' : 'open'}|${single ? 'single' : 'list'}`;
    const kept = new Map<number, { event: EventHead; rendering: KeptRendering }>();
    const missing = heads.filter((event) => {
      const rendering = this.rendered.get(keyOf(event), event.revision);
      if (rendering) kept.set(event.id, { event, rendering });
      return !rendering;
    });
    const loaded = missing.length > 0 ? await load(missing.map((event) => event.id)) : [];
    const images = loaded.length > 0 ? await this.deps.media.byIds(loaded.map((event) => event.imageId)) : new Map<number, MediaEntity>();
    for (const event of loaded) {
      const lock = locked(event);
      const response = mapEvent(event, context, this.deps, { image: images.get(event.imageId ?? 0) ?? null, venues: [], organizers: [], categories: [], tags: [], locked: lock }, false);
      const withJsonLd = single && !lock;
      // The open members are placed where the full rendering has them: the embedded ones in turn, JSON-LD last.
      if (withJsonLd) response.json_ld = {};
      const rendering: KeptRendering = {
        template: JsonTemplate.of<Open>(response, lock ? [] : withJsonLd ? [...EMBEDDED, 'json_ld'] : EMBEDDED),
        jsonLd: withJsonLd ? eventJsonLdOwn(response, event) : undefined,
      };
      if (keep) this.rendered.set(keyOf(event), event.revision, rendering, rendering.template.size);
      kept.set(event.id, { event, rendering });
    }
    const list = (items: object[]) => `[${items.map(jsonOf).join(',')}]`;
    return heads.flatMap((head) => {
      const found = kept.get(head.id);
      if (!found) return [];
      const { template, jsonLd } = found.rendering;
      const { venues, organizers, categories, tags } = linked(head.id);
      const text = new JsonText<EventResponse>(
        template.fill({
          categories: list(categories),
          tags: list(tags),
          venue: venues.length === 1 ? jsonOf(venues[0]) : list(venues),
          organizer: list(organizers),
          json_ld: jsonLd ? JSON.stringify(eventJsonLd(jsonLd, venues, organizers)) : '',
        }),
      );
      return [{ event: found.event, text }];
    });
  }

  /** Events with everything they embed, loaded for the whole page in a fixed number of queries. */
  private async presentEvents(events: EventEntity[], context: RequestContext, jsonLd: boolean, unlocked: Set<number>, known?: EventLinks): Promise<EventResponse[]> {
    const links = known ?? (await this.events.links(events.map((event) => event.id)));
    const [images, linked] = await Promise.all([this.deps.media.byIds(events.map((event) => event.imageId)), this.linkedOf(links, context)]);
    return events.map((event) =>
      mapEvent(
        event,
        context,
        this.deps,
        { image: images.get(event.imageId ?? 0) ?? null, ...linked(event.id), locked: event.passwordHash !== null && !unlocked.has(event.id) && !mayModify(event, context.caller) },
        jsonLd,
      ),
    );
  }

  /**
   * For each event, the venues, organizers, categories and tags it links to, as the caller may see them (kept
   * renderings, FragmentCache): what both ways of answering with events embed.
   */
  private async linkedOf(links: EventLinks, context: RequestContext): Promise<Linked> {
    const all = (map: Map<number, number[]>) => [...new Set([...map.values()].flat())];
    const [venues, organizers, terms] = await Promise.all([
      this.venues.presentByIds(all(links.venues), context),
      this.organizers.presentByIds(all(links.organizers), context),
      this.terms.presentByIds(all(links.terms), context),
    ]);
    const pick = <T>(ids: number[] | undefined, map: Map<number, T>) => (ids ?? []).map((id) => map.get(id)).filter((item): item is T => item !== undefined);
    return (eventId) => {
      const eventTerms = pick(links.terms.get(eventId), terms);
      return {
        venues: pick(links.venues.get(eventId), venues),
        organizers: pick(links.organizers.get(eventId), organizers),
        categories: eventTerms.filter((term) => term.taxonomy === 'tribe_events_cat'),
        tags: eventTerms.filter((term) => term.taxonomy === 'post_tag'),
      };
    };
  }

  protected present(event: EventEntity, context: RequestContext, options: PresentOptions): EventResponse {
    return mapEvent(event, context, this.deps, { image: options.image, venues: [], organizers: [], categories: [], tags: [], locked: event.passwordHash !== null }, options.jsonLd);
  }

  protected applyFields(event: EventEntity, input: UpdateEventByIdDto, isCreate: boolean): void {
    const datesTouched = isCreate || [input.start_date, input.end_date, input.timezone, input.all_day].some((value) => value !== undefined);
    if (datesTouched) {
      const zone = parseTimeZone(input.timezone ?? (isCreate ? this.deps.config.timezone.name : event.timezone)) ?? this.deps.config.timezone;
      const previous = eventZone(event.timezone ?? zone.name);
      const wall = (date: Date | undefined) => (date ? DateTime.fromJSDate(date).setZone(previous.zone).toFormat(WP_DATE_TIME_FORMAT) : '');
      const allDay = input.all_day ?? (isCreate ? false : Boolean(event.allDay));
      const dates = resolveEventDates({ start: input.start_date ?? wall(event.startUtc), end: input.end_date ?? wall(event.endUtc), zone, allDay });
      if (isDateProblem(dates)) throw ApiException.invalidParams(dates);
      event.timezone = zone.name;
      event.allDay = allDay;
      event.startUtc = dates.start.toJSDate();
      event.endUtc = dates.end.toJSDate();
    }
    const flags: [keyof UpdateEventByIdDto, 'showMap' | 'showMapLink' | 'hideFromListings' | 'sticky' | 'featured', boolean][] = [
      ['show_map', 'showMap', true],
      ['show_map_link', 'showMapLink', true],
      ['hide_from_listings', 'hideFromListings', false],
      ['sticky', 'sticky', false],
      ['featured', 'featured', false],
    ];
    for (const [key, property, fallback] of flags) {
      const value = input[key] as boolean | undefined;
      if (value !== undefined) event[property] = value;
      else if (isCreate) event[property] = fallback;
    }
    if (input.cost !== undefined) event.cost = input.cost;
    else if (isCreate) event.cost = '';
    if (input.website !== undefined) event.website = input.website;
    else if (isCreate) event.website = '';
    if (input.post_parent !== undefined) event.postParent = input.post_parent ?? 0;
    else if (isCreate) event.postParent = 0;
    if (input.password !== undefined) event.passwordHash = input.password === '' ? null : hashPassword(input.password);
    else if (isCreate) event.passwordHash = null;
    this.applyRecurrence(event, input, isCreate);
  }

  /**
   * The series fields of a write (SPEC §13): an occurrence's rule and parent are its head's; a head's lines are
   * normalised and checked against its start and the horizon before anything is written.
   */
  private applyRecurrence(event: EventEntity, input: UpdateEventByIdDto, isCreate: boolean): void {
    if (isCreate) Object.assign(event, { recurrence: null, seriesId: null, recurrenceStart: null, detached: null, seriesTrashed: false, materializedUntil: null });
    if (event.seriesId) {
      const head = event.seriesId;
      if (input.recurrence !== undefined) throw ApiException.invalidParams({ recurrence: `is the series' own: this event is an occurrence of event ${head}; update that one` });
      if (input.post_parent !== undefined && input.post_parent !== head) throw ApiException.invalidParams({ post_parent: `is the series' head (${head}) for an occurrence` });
      return;
    }
    try {
      if (input.recurrence !== undefined) {
        const lines = normalizeRecurrence(input.recurrence);
        event.recurrence = lines.length > 0 ? lines.join('\n') : null;
      }
      if (event.recurrence) {
        const now = this.clock.now();
        occurrenceStarts(event.recurrence.split('\n'), { start: event.startUtc, zone: eventZone(event.timezone) }, DateTime.fromJSDate(now).plus(HORIZON).toJSDate(), now);
      }
    } catch (error) {
      if (error instanceof RecurrenceError) throw ApiException.invalidParams({ recurrence: error.message });
      throw error;
    }
  }

  /** Links, parent and term counts, in the write's transaction (SPEC §4.2). */
  protected override async afterWrite(manager: EntityManager, event: EventEntity, input: UpdateEventByIdDto, context: RequestContext, isCreate: boolean, previous?: EventEntity): Promise<void> {
    if (input.post_parent) {
      if (input.post_parent === event.id || !(await manager.getRepository(EventEntity).exists({ where: { id: input.post_parent } }))) {
        throw ApiException.invalidParams({ post_parent: 'must be the id of another existing event, or 0' });
      }
    }
    if (input.venue !== undefined) await this.events.setLinks(manager, 'venue', event.id, await this.linkItems(manager, 'venue', input.venue, context));
    if (input.organizer !== undefined) await this.events.setLinks(manager, 'organizer', event.id, await this.linkItems(manager, 'organizer', input.organizer, context));
    const before = (await this.events.links([event.id], manager)).terms.get(event.id) ?? [];
    let after = before;
    if (input.categories !== undefined || input.tags !== undefined) {
      const current = await this.termRepository.findByIds(before, manager);
      const keep = (taxonomy: string) => current.filter((term) => term.taxonomy === taxonomy).map((term) => term.id);
      const categories = input.categories !== undefined ? await this.terms.resolveForWrite(manager, 'category', input.categories, context, 'categories') : keep('category');
      const tags = input.tags !== undefined ? await this.terms.resolveForWrite(manager, 'tag', input.tags, context, 'tags') : keep('tag');
      after = [...categories, ...tags];
    }
    // Counts are of published events: a write that keeps the event's terms and whether it is published leaves
    // them as they were, and does not touch (nor lock) the rows of its terms; a series may change them anyway.
    const sameTerms = before.length === after.length && before.every((id) => after.includes(id));
    const samePublished = (previous?.status === 'publish') === (event.status === 'publish');
    const counted = !sameTerms || !samePublished || Boolean(event.recurrence || previous?.recurrence);
    // The terms' rows are locked before the links are written: writing a link takes a shared lock on its term
    // (the foreign key), and two writes that both held it and then asked for the row's lock would deadlock.
    if (counted) await this.termRepository.lockForCount(manager, [...before, ...after]);
    if (after !== before) await this.events.setLinks(manager, 'term', event.id, after);
    const effects = WriteEffects.of(manager).widenSpan(Math.round((event.endUtc.getTime() - event.startUtc.getTime()) / 1000));
    if (counted) effects.recount([...before, ...after]);
    await this.writeSeries(manager, event, input, context, isCreate, previous);
  }

  /**
   * After a head's write, its occurrences follow (SPEC §13); after an occurrence's, the fields written on it alone
   * are detached from its head (a restore from the trash detaches nothing). The series writer records what it
   * changes (occurrences, their terms' counts) with the write's effects.
   */
  private async writeSeries(manager: EntityManager, event: EventEntity, input: UpdateEventByIdDto, context: RequestContext, isCreate: boolean, previous?: EventEntity): Promise<void> {
    if (event.seriesId) {
      const keys = new Set((event.detached ?? '').split(',').filter((key) => key !== ''));
      const written = input as unknown as Record<string, unknown>;
      for (const [field, key] of Object.entries(DETACHING_FIELDS)) {
        if (written[field] === undefined) continue;
        if (key === 'status' && previous?.status === 'trash') continue;
        keys.add(key);
      }
      for (const field of ['title', 'description', 'excerpt', 'slug']) if (written[field] !== undefined) keys.add(`${field}@${context.language}`);
      await manager.query('UPDATE events SET detached = ? WHERE id = ?', [keys.size > 0 ? [...keys].sort().join(',') : null, event.id]);
      return;
    }
    if (!event.recurrence && !previous?.recurrence) return;
    const moved = previous !== undefined && (['startUtc', 'endUtc'] as const).some((key) => previous[key].getTime() !== event[key].getTime());
    const change: SeriesChange =
      isCreate || previous?.recurrence !== event.recurrence ? 'rule' : moved || previous?.timezone !== event.timezone || Boolean(previous?.allDay) !== Boolean(event.allDay) ? 'dates' : 'fields';
    try {
      await this.series.sync(manager, event.id, change, this.clock.now());
    } catch (error) {
      if (error instanceof RecurrenceError) throw ApiException.invalidParams({ recurrence: error.message });
      throw error;
    }
  }

  /** Events are indexed by their title, excerpt and description (SPEC §4.4). */
  protected override async reindex(manager: EntityManager, id: number): Promise<void> {
    await this.events.reindexSearch(manager, id);
  }

  /** The trash keeps links; only the published counts of the event's terms change. */
  protected override async afterRemove(manager: EntityManager, event: EventEntity): Promise<void> {
    WriteEffects.of(manager).recount((await this.events.links([event.id], manager)).terms.get(event.id) ?? []);
    // A head takes its series to the trash (SPEC §13); occurrences trashed on their own before stay apart.
    if (event.recurrence && !event.seriesId) await this.series.trash(manager, event.id, this.clock.now());
  }

  /** Venue/organizer items of a write: existing ids, or new records created in the same transaction. */
  private async linkItems(manager: EntityManager, kind: 'venue' | 'organizer', items: LinkItem[] | null, context: RequestContext): Promise<number[]> {
    const ids: number[] = [];
    for (const [index, item] of (items ?? []).entries()) {
      if ('id' in item) {
        ids.push(item.id);
        continue;
      }
      const type: new () => object = kind === 'venue' ? CreateVenueDto : CreateOrganizerDto;
      const dto = plainToInstance(type, item.create);
      const errors = validateSync(dto, { whitelist: true, forbidUnknownValues: false });
      if (errors.length > 0) {
        const detail = [...errors].sort((a, b) => a.property.localeCompare(b.property)).map((error) => `${error.property} ${Object.values(error.constraints ?? {})[0] ?? 'is invalid'}`).join('; ');
        throw ApiException.invalidParams({ [kind]: `item ${index + 1}: ${detail}` });
      }
      const service = kind === 'venue' ? this.venues : this.organizers;
      ids.push(await service.createWith(manager, dto as never, context));
    }
    const unique = [...new Set(ids)];
    const existing = await manager.query(
      `SELECT id FROM ${kind === 'venue' ? 'venues' : 'organizers'} WHERE id IN (${unique.map(() => '?').join(',') || 'NULL'})`,
      unique,
    );
    const known = new Set(existing.map((row: { id: number }) => Number(row.id)));
    const unknown = unique.filter((id) => !known.has(id));
    if (unknown.length > 0) throw ApiException.invalidParams({ [kind]: `must list existing ${kind} ids; unknown: ${unknown.join(', ')}` });
    return unique;
  }
}
