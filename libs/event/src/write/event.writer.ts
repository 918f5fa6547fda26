import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { CreateOrganizerDto, OrganizerService } from '@calendar/organizer';
import { LinkedKind, RecordRepository, RecordServiceDeps, RecordTarget, RecordWriter } from '@calendar/records';
import { isListed, WriteCondition, WriteEffects } from '@calendar/shared/database';
import { ApiException, Caller } from '@calendar/shared/http';
import { parseTimeZone, WP_DATE_TIME_FORMAT } from '@calendar/shared/time';
import { TermLinkRegistry, TermRepository, TermService } from '@calendar/taxonomy';
import { CreateVenueDto, VenueService } from '@calendar/venue';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DateTime } from 'luxon';
import { EntityManager } from 'typeorm';
import { UpdateEventByIdDto } from '../dto/event.dto';
import { EVENT_KIND } from '../dto/event.mapper';
import { LinkItem } from '../dto/event-params';
import { EventEntity, EventTranslationEntity } from '../entities/event.entity';
import { eventZone, isDateProblem, resolveEventDates } from '../event-dates';
import { hashPassword } from '../event-password';
import { DayCounts } from '../count/day-counts';
import { CreatedEvent, EventRepository, LinkLists } from '../event.repository';
import { Clock } from '../recurrence/clock';
import { normalizeRecurrence, occurrenceStarts, RecurrenceError } from '../recurrence/recurrence-rule';
import { DETACHING_FIELDS, HORIZON, SeriesChange, SeriesWriter } from '../recurrence/series.writer';

/**
 * Every write of events (SPEC §4.2, §4.8, §13), in one transaction each: the fields every record shares
 * (`RecordWriter`), then the event's own — dates, flags, password, recurrence — its venues and organizers (created
 * in the same transaction when given whole), its terms, and its series. What a write changed is recorded in its
 * `WriteEffects`; the `WriteCoordinator` applies it at the end (search rows, the longest span, term counts).
 * Writes answer with the event's id; `EventService` presents it.
 */
@Injectable()
export class EventWriter implements OnModuleInit {
  private readonly records: RecordWriter<EventEntity, EventTranslationEntity, UpdateEventByIdDto>;

  constructor(
    private readonly deps: RecordServiceDeps,
    private readonly events: EventRepository,
    private readonly venues: VenueService,
    private readonly organizers: OrganizerService,
    private readonly terms: TermService,
    private readonly termRepository: TermRepository,
    private readonly termLinks: TermLinkRegistry,
    private readonly series: SeriesWriter,
    private readonly clock: Clock,
    private readonly dayCounts: DayCounts,
  ) {
    this.records = new RecordWriter(deps, EVENT_KIND, new RecordRepository(deps.dataSource, EVENT_KIND, []), {
      applyFields: (event, input, isCreate) => this.applyFields(event, input, isCreate),
      afterWrite: (manager, event, input, scope, isCreate, previous) => this.afterWrite(manager, event, input, scope, isCreate, previous),
      afterRemove: (manager, event) => this.afterRemove(manager, event),
      // Events are indexed by their title, excerpt and description (SPEC §4.4).
      reindex: (manager, ids, fresh) => {
        const effects = WriteEffects.of(manager);
        return this.events.reindexSearch(manager, ids, fresh, (id) => effects.knownOf<CreatedEvent>('event', id)?.search);
      },
    });
  }

  /**
   * What event writes change besides their own rows is applied with every write's effects: the link lists kept on
   * events' rows, search rows, the longest event span, term counts. Venues and organizers learn about events
   * through their ports.
   */
  onModuleInit(): void {
    const coordinator = this.deps.transactions.coordinator;
    // The events a write created or updated (their links given, or occurrences written again) and those it touched
    // (a deleted term's links gone with it). Registered first; the other appliers read the link rows themselves.
    coordinator.register('event link lists', async (manager, effects) => {
      const written = effects.changes.filter((change) => change.kind === 'event' && change.action !== 'deleted').map((change) => change.id);
      const ids = [...new Set([...written, ...(effects.touched.get('event') ?? [])])];
      await this.events.refreshLinkLists(manager, ids, effects.created('event'), (id) => effects.knownOf<CreatedEvent>('event', id)?.links);
      // The search rows of the events whose rows the write changed and whose search rows it does not rebuild (a
      // trashing) take their listing state from those rows; rebuilt ones carry it from their insert.
      const reindexed = new Set(effects.reindexed('event'));
      await this.events.carryListingState(manager, written.filter((id) => !reindexed.has(id)));
    });
    this.records.registerEffects();
    coordinator.register('longest event span', async (manager, effects) => {
      if (effects.longestSpan > 0) await this.events.widenSpan(manager, effects.longestSpan);
    });
    // Counts are of published events, and term answers carry them (the global version moves on with the write; the
    // terms' own version does not, so their kept renderings stay and take the new counts, SPEC §10.2). When a
    // write may have moved some (`recount`), each event it changed or touched takes back what it counted for and adds
    // what it counts for now (`counted_term_ids`, after the link lists above), and what events removed for good
    // counted for is taken back (`uncount`): what is read follows the events written, not the terms' other events.
    // The terms of a write that brings counts of its own (an import) are counted again from their links (`countAgain`).
    coordinator.register('term counts', async (manager, effects) => {
      if (effects.terms.size === 0 && effects.uncounted.length === 0 && effects.countedAgain.size === 0) return;
      const changed = effects.changes.filter((change) => change.kind === 'event' && change.action !== 'deleted').map((change) => change.id);
      const deltas = await this.events.moveCountedTerms(manager, [...new Set([...changed, ...(effects.touched.get('event') ?? [])])], (id) => effects.knownOf<CreatedEvent>('event', id)?.tallied);
      for (const id of effects.uncounted) deltas.set(id, (deltas.get(id) ?? 0) - 1);
      for (const id of effects.countedAgain) deltas.delete(id);
      const moving = [...deltas].filter(([, delta]) => delta !== 0).map(([id]) => id);
      if (moving.length === 0 && effects.countedAgain.size === 0) return;
      const again = [...effects.countedAgain];
      await this.termRepository.lockForCount(manager, [...moving, ...again]);
      // A term whose count moved shows differently, and so do the events that embed it (SPEC §16.2).
      const moved = [...(await this.termRepository.addToCounts(manager, deltas)), ...(await this.termRepository.setCounts(manager, await this.events.termCounts(manager, again)))];
      for (const id of moved) effects.touchedTerms.add(id);
    });
    // List totals per day (SPEC §10.2): every event the write changed counts anew; so do the events under a category
    // that may have moved in the tree, or under a term that is gone.
    coordinator.register('list totals per day', async (manager, effects) => {
      const events = effects.changes.filter((change) => change.kind === 'event').map((change) => change.id);
      const moved = effects.changes.filter((change) => (change.kind === 'category' && change.action === 'updated') || ((change.kind === 'category' || change.kind === 'tag') && change.action === 'deleted'));
      const retallied = await this.dayCounts.retallyUnderTerms(manager, moved.map((change) => change.id));
      // An event created by the write counts for nothing yet, unless tallied just above.
      const fresh = effects.created('event');
      for (const id of retallied) fresh.delete(id);
      await this.dayCounts.retally(manager, events, { fresh, known: (id) => effects.knownOf<CreatedEvent>('event', id)?.tallied });
    });
    this.termLinks.register({
      termIdsForEvent: (eventId) => this.events.linkedIds('term', eventId),
      eventIdsForTerm: async (manager, termId) => (await manager.query('SELECT event_id FROM event_terms WHERE term_id = ?', [termId])).map((row: { event_id: number }) => Number(row.event_id)),
    });
    this.deps.eventLinks.register({
      idsForEvent: (kind: LinkedKind, eventId: number) => this.events.linkedIds(kind, eventId),
      linkedCondition: (kind: LinkedKind, alias: string) => this.events.linkedCondition(kind, alias),
      upcomingCondition: (kind: LinkedKind, alias: string, caller: Caller | null) => this.events.upcomingCondition(kind, alias, caller, new Date()),
    });
  }

  create(input: UpdateEventByIdDto, scope: RequestContext): Promise<number> {
    return this.records.create(input, scope);
  }

  update(target: RecordTarget, input: UpdateEventByIdDto, scope: RequestContext, condition?: WriteCondition): Promise<number> {
    return this.records.update(target, input, scope, condition);
  }

  /** To the trash (SPEC §4.8); a series' head takes its occurrences with it (§13). */
  remove(target: RecordTarget, scope: RequestContext, condition?: WriteCondition): Promise<number> {
    return this.records.remove(target, scope, condition);
  }

  private applyFields(event: EventEntity, input: UpdateEventByIdDto, isCreate: boolean): void {
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
  private async afterWrite(manager: EntityManager, event: EventEntity, input: UpdateEventByIdDto, scope: RequestContext, isCreate: boolean, previous?: EventEntity): Promise<void> {
    if (input.post_parent) {
      if (input.post_parent === event.id || !(await manager.getRepository(EventEntity).exists({ where: { id: input.post_parent } }))) {
        throw ApiException.invalidParams({ post_parent: 'must be the id of another existing event, or 0' });
      }
    }
    const venues = input.venue !== undefined ? await this.linkItems(manager, 'venue', input.venue, scope) : null;
    if (venues) await this.events.setLinks(manager, 'venue', event.id, venues, isCreate, event);
    const organizers = input.organizer !== undefined ? await this.linkItems(manager, 'organizer', input.organizer, scope) : null;
    if (organizers) await this.events.setLinks(manager, 'organizer', event.id, organizers, isCreate, event);
    // An event this write created has no terms yet.
    const before = isCreate ? [] : ((await this.events.links([event.id], manager)).terms.get(event.id) ?? []);
    let after = before;
    if (input.categories !== undefined || input.tags !== undefined) {
      const current = await this.termRepository.findByIds(before, manager);
      const keep = (taxonomy: string) => current.filter((term) => term.taxonomy === taxonomy).map((term) => term.id);
      const categories = input.categories !== undefined ? await this.terms.resolveForWrite(manager, 'category', input.categories, scope, 'categories') : keep('category');
      const tags = input.tags !== undefined ? await this.terms.resolveForWrite(manager, 'tag', input.tags, scope, 'tags') : keep('tag');
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
    if (after !== before) await this.events.setLinks(manager, 'term', event.id, after, isCreate, event);
    const effects = WriteEffects.of(manager).widenSpan(Math.round((event.endUtc.getTime() - event.startUtc.getTime()) / 1000));
    if (counted) effects.recount([...before, ...after]);
    if (isCreate) this.knowCreated(effects, event, { venues: venues ?? [], organizers: organizers ?? [], terms: after });
    await this.writeSeries(manager, event, input, scope, isCreate, previous);
  }

  /**
   * What this write left of an event it created, for the appliers of its effects (its links, its search texts, its
   * row as the totals per day count it), which then read none of it back. Not for a series' head, which the series
   * writer writes again, nor for dates with parts of a second (the database keeps whole seconds of them).
   */
  private knowCreated(effects: WriteEffects, event: EventEntity, links: LinkLists): void {
    const whole = (date: Date) => date.getTime() % 1000 === 0;
    if (event.recurrence || event.seriesId || !whole(event.startUtc) || !whole(event.endUtc) || !event.translations) return;
    effects.know<CreatedEvent>('event', event.id, {
      links,
      search: {
        original: event.originalLang,
        start: event.startUtc,
        end: event.endUtc,
        listed: isListed(event.status, Boolean(event.hideFromListings)),
        featured: Boolean(event.featured),
        texts: event.translations.map((text) => ({ lang: text.lang, name: text.name, description: text.description, excerpt: text.excerpt })),
      },
      tallied: {
        status: event.status,
        hidden: Boolean(event.hideFromListings),
        featured: Boolean(event.featured),
        startMs: event.startUtc.getTime(),
        endMs: event.endUtc.getTime(),
        ...links,
      },
    });
  }

  /**
   * After a head's write, its occurrences follow (SPEC §13); after an occurrence's, the fields written on it alone
   * are detached from its head (a restore from the trash detaches nothing). The series writer records what it
   * changes (occurrences, their terms' counts) with the write's effects.
   */
  private async writeSeries(manager: EntityManager, event: EventEntity, input: UpdateEventByIdDto, scope: RequestContext, isCreate: boolean, previous?: EventEntity): Promise<void> {
    if (event.seriesId) {
      const keys = new Set((event.detached ?? '').split(',').filter((key) => key !== ''));
      const written = input as unknown as Record<string, unknown>;
      for (const [field, key] of Object.entries(DETACHING_FIELDS)) {
        if (written[field] === undefined) continue;
        if (key === 'status' && previous?.status === 'trash') continue;
        keys.add(key);
      }
      for (const field of ['title', 'description', 'excerpt', 'slug']) if (written[field] !== undefined) keys.add(`${field}@${scope.language}`);
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

  /** The trash keeps links; only the published counts of the event's terms change. */
  private async afterRemove(manager: EntityManager, event: EventEntity): Promise<void> {
    WriteEffects.of(manager).recount((await this.events.links([event.id], manager)).terms.get(event.id) ?? []);
    // A head takes its series to the trash (SPEC §13); occurrences trashed on their own before stay apart.
    if (event.recurrence && !event.seriesId) await this.series.trash(manager, event.id, this.clock.now());
  }

  /** Venue/organizer items of a write: existing ids, or new records created in the same transaction. */
  private async linkItems(manager: EntityManager, kind: 'venue' | 'organizer', items: LinkItem[] | null, scope: RequestContext): Promise<number[]> {
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
      ids.push(await service.createWith(manager, dto as never, scope));
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
