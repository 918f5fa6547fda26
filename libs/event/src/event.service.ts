import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { RecordException, RecordTarget } from '@calendar/records';
import { WriteCondition } from '@calendar/shared/database';
import { JsonText, LinkBuilder, ListResult, WritePrecondition } from '@calendar/shared/http';
import { ListEventsQueryDto, SyncEventsQueryDto, UpdateEventByIdDto } from './dto/event.dto';
import { EventResponse, EVENT_KIND } from './dto/event.mapper';
import { EventPresenter } from './read/event.presenter';
import { EventReader } from './read/event.reader';
import { EventSync } from './read/event-sync';
import { EventWriter } from './write/event.writer';

/** An event page as a visitor sees it: whole, or reduced to its title and dates when protected (SPEC §4.7, §14). */
export interface EventPageModel {
  event: EventResponse;
  locked: boolean;
}

/**
 * The events resource (SPEC §4): every read is the reader's heads presented by the presenter, every write is the
 * writer's, answered as the single read presents the event after it. The HTTP controller, the public pages and the
 * feeds ask this service; none of them take part in how events are read, rendered or written.
 */
@Injectable()
export class EventService {
  constructor(
    private readonly reader: EventReader,
    private readonly presenter: EventPresenter,
    private readonly writer: EventWriter,
    private readonly links: LinkBuilder,
    private readonly syncs: EventSync,
  ) {}

  /** A page of a sync (SPEC §16.2), as its JSON answer; `raw` is the query as sent, for the parameters a sync refuses. */
  sync(query: SyncEventsQueryDto, raw: Record<string, unknown>, scope: RequestContext): Promise<JsonText> {
    return this.syncs.page(query, raw, scope);
  }

  /** A single read (SPEC §4.3, §4.7), as the JSON answer. */
  async getEvent(target: RecordTarget, scope: RequestContext, password?: string): Promise<JsonText<EventResponse>> {
    const { head, links, record } = await this.reader.opened(target, scope, password, this.unrendered(scope));
    const [presented] = await this.presenter.texts([head], links, scope, { single: true, unlocked: new Set([head.id]), loaded: record && [record] });
    // Deleted since its head was read: as if asked a moment later.
    if (!presented) throw RecordException.notFound(EVENT_KIND);
    return presented.text;
  }

  /** A single read as its model (a single-event feed): the same event `getEvent` answers with. */
  async eventModel(target: RecordTarget, scope: RequestContext, password?: string): Promise<EventResponse> {
    const { head, links, record } = await this.reader.opened(target, scope, password, this.unrendered(scope));
    const [presented] = await this.presenter.models([head], links, scope, { single: true, unlocked: new Set([head.id]), loaded: record && [record] });
    if (!presented) throw RecordException.notFound(EVENT_KIND);
    return presented.model;
  }

  /**
   * An event's public page (SPEC §14): its single model, or, when protected and the visitor may not edit it, the
   * reduced model a list shows. Unknown or unreadable events fail as a single read does.
   */
  async eventPage(slug: string, scope: RequestContext): Promise<EventPageModel> {
    // Most events are not protected: their single rendering is the one looked for (a locked one renders from the
    // record too).
    const { head, links, record } = await this.reader.readable({ slug }, scope, this.unrendered(scope));
    const locked = this.presenter.locked(head, scope);
    const [presented] = await this.presenter.models([head], links, scope, { single: !locked, loaded: record && [record] });
    if (!presented) throw RecordException.notFound(EVENT_KIND);
    return { event: presented.model, locked };
  }

  /** A list page (SPEC §4.4), as JSON answers. */
  async listEvents(query: ListEventsQueryDto, scope: RequestContext): Promise<ListResult<JsonText<EventResponse>>> {
    const page = await this.reader.page(query, scope, { withRecords: this.presenter.listsRenderMost() });
    const presented = await this.presenter.texts(page.heads, page.links, scope, { single: false, loaded: page.records });
    return new ListResult('events', presented.map(({ text }) => text), page.total, query, page.pageUrl('events'));
  }

  /** A list page as models (the public list pages). */
  async listModels(query: ListEventsQueryDto, scope: RequestContext): Promise<ListResult<EventResponse>> {
    const page = await this.reader.page(query, scope, { withRecords: this.presenter.listsRenderMost() });
    const presented = await this.presenter.models(page.heads, page.links, scope, { single: false, loaded: page.records });
    return new ListResult('events', presented.map(({ model }) => model), page.total, query, page.pageUrl('events'));
  }

  /** A create's answer, and the address of the event it created (its `rest_url`, for `Location`). */
  async create(input: UpdateEventByIdDto, scope: RequestContext): Promise<{ answer: JsonText<EventResponse>; location: string }> {
    const id = await this.writer.create(input, scope);
    return { answer: await this.written(id, scope), location: this.links.rest(scope.origin, scope.language, `${EVENT_KIND.path}/${id}`) };
  }

  /** `precondition`: the request's `If-Match` / `If-Unmodified-Since` (SPEC §18). */
  async update(target: RecordTarget, input: UpdateEventByIdDto, scope: RequestContext, precondition?: WritePrecondition): Promise<JsonText<EventResponse>> {
    return this.written(await this.writer.update(target, input, scope, this.condition(target, precondition)), scope);
  }

  async remove(target: RecordTarget, scope: RequestContext, precondition?: WritePrecondition): Promise<JsonText<EventResponse>> {
    return this.written(await this.writer.remove(target, scope, this.condition(target, precondition)), scope);
  }

  /** A write's precondition, checked against what a GET of the same target answers the writer (SPEC §18). */
  private condition(target: RecordTarget, precondition: WritePrecondition | undefined): WriteCondition {
    return { precondition, current: (scope) => this.getEvent(target, scope) };
  }

  /** A write's answer: the event as its single read presents it to the writer (who may edit it). */
  private async written(id: number, scope: RequestContext): Promise<JsonText<EventResponse>> {
    const found = await this.reader.written(id);
    if (!found) throw RecordException.notFound(EVENT_KIND);
    const [presented] = await this.presenter.texts([found.head], found.links, scope, { single: true, unlocked: new Set([id]), loaded: [found.record] });
    if (!presented) throw RecordException.notFound(EVENT_KIND);
    return presented.text;
  }

  /**
   * Whether a single answer will render the event of an id anew (no single rendering of it is kept for the scope's
   * language and origin): the reader then reads its record with its head.
   */
  private unrendered(scope: RequestContext): (id: number) => boolean {
    return (id) => !this.presenter.keeps(id, scope, true);
  }
}
