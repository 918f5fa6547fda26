import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { RecordServiceDeps } from '@calendar/records';
import { CacheRegistry, entryKey, RevisionCache } from '@calendar/shared/cache';
import { parseUtcWallClock } from '@calendar/shared/time';
import { ListEventsQueryDto } from '../dto/event.dto';
import { EventResponse } from '../dto/event.mapper';
import { EventRepository } from '../event.repository';
import { EventPresenter } from './event.presenter';
import { EventReader } from './event.reader';

/** The most events a month grid looks at (SPEC §14); a month with more shows the first ones. */
const MONTH_SPANS = 20000;

/** A day of a month grid: its date, and the instants (milliseconds since 1970) at which it begins and ends. */
export interface GridDay {
  iso: string;
  startMs: number;
  endMs: number;
}

/**
 * What a month grid shows of an event (SPEC §14): the members of its list model it needs, and its start as an
 * instant (milliseconds since 1970), read once when it is kept rather than parsed again on every day of every grid.
 */
export type GridEvent = Pick<EventResponse, 'id' | 'title' | 'url' | 'utc_start_date' | 'utc_end_date' | 'all_day' | 'timezone' | 'timezone_abbr'> & { startMs: number };

/** The events of month grids (SPEC §14), placed on the days they cover. */
@Injectable()
export class EventGrid {
  /** What month grids show of events, per language and origin, kept under each event's revision. */
  private readonly shown: RevisionCache<GridEvent>;

  constructor(
    deps: RecordServiceDeps,
    caches: CacheRegistry,
    private readonly events: EventRepository,
    private readonly reader: EventReader,
    private readonly presenter: EventPresenter,
  ) {
    this.shown = caches.revisions('month grid events', deps.config.renderCacheBytes / 4);
  }

  /**
   * Every event of the list's query, as spans, bucketed by the days (in the service time zone, given with the
   * instants they begin and end) they cover; the first `perDay` of each day presented as the list presents them,
   * and how many more each day has. Only the chosen events are read whole.
   */
  async days(query: ListEventsQueryDto, scope: RequestContext, days: readonly GridDay[], perDay: number): Promise<Map<string, { events: GridEvent[]; more: number }>> {
    const { filter } = await this.reader.listQuery(query, scope);
    const lists = days.map(() => [] as number[]);
    for (const { id, start, end } of await this.events.spans(filter, MONTH_SPANS)) {
      // Each day of the grid from the one it starts on to the one it ends on (an end at midnight is in the day before).
      for (let index = 0; index < days.length; index += 1) {
        if (days[index].endMs <= start) continue;
        if (days[index].startMs > end || (days[index].startMs === end && end > start)) break;
        lists[index].push(id);
      }
    }
    const chosen = [...new Set(lists.flatMap((ids) => ids.slice(0, perDay)))];
    const keyOf = (id: number) => entryKey(id, scope.language, scope.origin);
    const events = new Map<number, GridEvent>();
    const revisions = await this.events.revisions(chosen);
    const unknown = chosen.filter((id) => {
      const found = this.shown.get(keyOf(id), revisions.get(id) ?? 0);
      if (found) events.set(id, found);
      return !found;
    });
    if (unknown.length > 0) {
      const { heads, links } = await this.events.headsOf(unknown);
      for (const { event, model } of await this.presenter.models(heads, links, scope, { single: false, keep: false })) {
        const { id, title, url, utc_start_date, utc_end_date, all_day, timezone, timezone_abbr } = model;
        const item: GridEvent = { id, title, url, utc_start_date, utc_end_date, all_day, timezone, timezone_abbr, startMs: parseUtcWallClock(utc_start_date).getTime() };
        this.shown.set(keyOf(event.id), event.revision, item, 2 * (title.length + url.length) + 200);
        events.set(event.id, item);
      }
    }
    return new Map(days.map((day, index) => [day.iso, { events: lists[index].slice(0, perDay).flatMap((id) => events.get(id) ?? []), more: Math.max(0, lists[index].length - perDay) }]));
  }
}
