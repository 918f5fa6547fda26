import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { RecordServiceDeps } from '@calendar/records';
import { ChangeLog, filterDigest, SyncItem, SyncSource } from '@calendar/shared/database';
import { ApiException, JsonText, refuseNonSyncParams, syncBody } from '@calendar/shared/http';
import { ListEventsQueryDto, SyncEventsQueryDto } from '../dto/event.dto';
import { EventResponse } from '../dto/event.mapper';
import { EventHead, EventLinks, EventListFilter, EventRepository } from '../event.repository';
import { EventPresenter } from './event.presenter';
import { EventReader } from './event.reader';

/** The filters `GET /events/sync` takes, besides `per_page`, `sync_token`, `cursor` and the language. */
const FILTERS = ['categories', 'tags', 'venue', 'organizer', 'featured', 'post_parent', 'status'] as const;

/**
 * Sync of events (SPEC §16.2): every event the caller may read (every status but trash, hidden from listings or
 * not, past and future, every occurrence), as the list shows it, in pages of the primary key; then, from the token,
 * the events changed since, including those that embed a venue, organizer or term that changed. A protected event
 * the caller may not open is not in the copy (a tombstone once it leaves it).
 */
@Injectable()
export class EventSync {
  constructor(
    private readonly deps: RecordServiceDeps,
    private readonly events: EventRepository,
    private readonly reader: EventReader,
    private readonly presenter: EventPresenter,
    private readonly changes: ChangeLog,
  ) {}

  async page(query: SyncEventsQueryDto, raw: Record<string, unknown>, scope: RequestContext): Promise<JsonText> {
    refuseNonSyncParams(raw, ['per_page', 'sync_token', 'cursor', 'translation_language', ...FILTERS]);
    if (query.status?.includes('trash')) throw ApiException.invalidParams({ status: 'must not include trash: a sync never shows the trash (a trashed event is a tombstone)' });
    if (query.sync_token !== undefined && query.cursor !== undefined) throw ApiException.invalidParams({ cursor: 'is given alone: it carries the sync_token of the sync it goes on with' });
    const filter = await this.filter(query, scope);
    const given = Object.fromEntries(FILTERS.map((key) => [key, query[key]]));
    const syncScope = { kind: 'event', filter: filterDigest('event', { ...given, language: scope.language }), caller: scope.caller?.id ?? 0 };
    const page = await this.changes.sync(syncScope, { token: query.sync_token, cursor: query.cursor }, query.per_page, this.source(filter, scope), scope.versions);
    const address = (extra: Record<string, unknown>) => this.deps.links.rest(scope.origin, scope.language, 'events/sync', { ...given, per_page: query.per_page, ...extra });
    const self = address({ sync_token: query.sync_token, cursor: query.cursor });
    return syncBody('events', page.items, self, { nextUrl: page.cursor === undefined ? undefined : address({ cursor: page.cursor }), token: page.token });
  }

  /** The list filter of the sync's parameters, with no date window and hidden events included. */
  private async filter(query: SyncEventsQueryDto, scope: RequestContext): Promise<EventListFilter> {
    const list = Object.assign(new ListEventsQueryDto(), Object.fromEntries(FILTERS.map((key) => [key, query[key]])));
    const { filter } = await this.reader.listQuery(list, scope, { window: false });
    return { ...filter, withHidden: true };
  }

  private source(filter: EventListFilter, scope: RequestContext): SyncSource<JsonText<EventResponse>> {
    const present = async ({ heads, links }: { heads: EventHead[]; links: EventLinks }, keep: boolean): Promise<SyncItem<JsonText<EventResponse>>[]> => {
      const open = heads.filter((head) => !this.presenter.locked(head, scope));
      return (await this.presenter.texts(open, links, scope, { single: false, keep })).map(({ event, text }) => ({ id: event.id, item: text }));
    };
    return {
      full: async (afterId, limit) => {
        const read = await this.events.syncPage(filter, afterId, limit + 1);
        const heads = read.heads.slice(0, limit);
        // Not kept: a full sync passes every event once, and would push out what lists ask for again.
        return { items: await present({ heads, links: read.links }, false), lastId: heads.at(-1)?.id ?? null, more: read.heads.length > limit };
      },
      // The changes and the heads of those that match the filter now (and the data versions, when asked), in one statement.
      changes: async (range) => {
        const read = await this.events.syncChanged(filter, range);
        return {
          changed: read.changed,
          versions: read.versions,
          // Kept: the events that changed are those every client's next sync asks for.
          current: async (ids) => {
            const shown = new Set(ids);
            return present({ heads: read.heads.filter((head) => shown.has(head.id)), links: read.links }, true);
          },
        };
      },
    };
  }
}
