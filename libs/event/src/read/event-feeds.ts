import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { readAccess, RecordException, RecordServiceDeps } from '@calendar/records';
import { CacheRegistry, entryKey, RevisionCache } from '@calendar/shared/cache';
import { ListResult } from '@calendar/shared/http';
import { parseUtcWallClock } from '@calendar/shared/time';
import { TermService } from '@calendar/taxonomy';
import { ListEventsQueryDto } from '../dto/event.dto';
import { EventResponse } from '../dto/event.mapper';
import { EventHead, EventRepository } from '../event.repository';
import { FeedItem, KeptVevent, keptVevent, linkedLines, SeriesFeed } from '../ics/event-calendar';
import { EventPresenter } from './event.presenter';
import { EventReader } from './event.reader';

/**
 * What the calendar feeds of SPEC §12 and §13 are made of: the events of a list as VEVENTs, a feed's name, and the
 * series an event belongs to. The events are the list's and the single read's own models (same filters, access
 * rules, language and paging).
 */
@Injectable()
export class EventFeeds {
  /** The own lines of events as VEVENTs, per language, origin and lock, kept under each event's revision. */
  private readonly vevents: RevisionCache<KeptVevent>;

  constructor(
    private readonly deps: RecordServiceDeps,
    caches: CacheRegistry,
    private readonly events: EventRepository,
    private readonly reader: EventReader,
    private readonly presenter: EventPresenter,
    private readonly terms: TermService,
  ) {
    // As the JSON renderings: kept when made a second time.
    this.vevents = caches.revisions('event VEVENTs', deps.config.renderCacheBytes, { admission: 'second sight' });
  }

  /**
   * The events of a calendar feed (SPEC §12): the page of the equivalent list as VEVENTs, with links to the feed's
   * other pages. Each event's own lines are kept under its revision (made from its model when missing), the lines
   * of the records it links to are made from their kept renderings; a locked event is shown reduced.
   */
  async list(query: ListEventsQueryDto, scope: RequestContext): Promise<ListResult<FeedItem>> {
    const { heads, links, total, pageUrl } = await this.reader.page(query, scope);
    const keyOf = (event: EventHead) => entryKey(event.id, scope.language, scope.origin, this.presenter.locked(event, scope) ? 'locked' : 'open');
    const kept = new Map<number, KeptVevent>();
    const missing = heads.filter((event) => {
      const found = this.vevents.get(keyOf(event), event.revision);
      if (found) kept.set(event.id, found);
      return !found;
    });
    // One read of the linked records serves both steps; full records are read only for what is rendered anew.
    const linked = await this.presenter.linked(links, scope);
    // What is presented here to make VEVENTs is not kept as JSON too: the VEVENT is (a JSON list keeps its own).
    for (const { event, model, locked } of await this.presenter.models(missing, linked, scope, { single: false, keep: false })) {
      const vevent = keptVevent(model, locked);
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
  async name(query: Pick<ListEventsQueryDto, 'categories' | 'tags'>, scope: RequestContext): Promise<string> {
    const site = this.deps.config.siteName ?? this.deps.links.siteHost(scope.origin);
    const names: string[] = [];
    for (const taxonomy of ['categories', 'tags'] as const) {
      const items = query[taxonomy];
      if (items) names.push(...(await this.terms.namesOf(taxonomy === 'categories' ? 'category' : 'tag', items, scope)));
    }
    return names.length > 0 ? `${site} – ${names.join(', ')}` : site;
  }

  /**
   * The series an event belongs to, as its single-event feed gives it (SPEC §13): null for an event that does not
   * recur, or whose head the caller may not read. `event` is the event's own model, access already checked.
   */
  async series(event: EventResponse, scope: RequestContext, password?: string): Promise<SeriesFeed | null> {
    if (event.recurrence.length === 0) return null;
    const headId = (await this.events.seriesHeadOf(event.id)) ?? event.id;
    const head = headId === event.id ? event : await this.opened(headId, scope, password);
    // The head of an occurrence left from a series that is single again.
    if (head === null || head.recurrence.length === 0) return null;
    const feed: SeriesFeed = { head, excluded: [], overrides: [], lastEnd: 0 };
    for (const occurrence of await this.events.occurrences(headId)) {
      const recurrenceId = parseUtcWallClock(occurrence.recurrenceStart).getTime();
      feed.lastEnd = Math.max(feed.lastEnd, parseUtcWallClock(occurrence.endUtc).getTime());
      if (readAccess(occurrence, scope.caller) !== 'ok') {
        feed.excluded.push(recurrenceId);
        continue;
      }
      if (!occurrence.detached) continue;
      const override = await this.opened(occurrence.id, scope, password);
      if (override) feed.overrides.push({ event: override, recurrenceId });
      else feed.excluded.push(recurrenceId);
    }
    return feed;
  }

  /** An event's single model if the caller may read it whole, else null. */
  private async opened(id: number, scope: RequestContext, password?: string): Promise<EventResponse | null> {
    try {
      const { head, links } = await this.reader.opened({ id }, scope, password);
      const [presented] = await this.presenter.models([head], links, scope, { single: true, unlocked: new Set([head.id]) });
      return presented?.model ?? null;
    } catch (error) {
      if (error instanceof RecordException) return null;
      throw error;
    }
  }
}
