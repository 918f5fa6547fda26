import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { cleanExplicitSlug, firstFreeSlug, RequestContext, slugFromText } from '@calendar/i18n';
import { SlugsInFlight } from './slugs-in-flight';
import { can, UserService } from '@calendar/shared/auth';
import { AppConfig } from '@calendar/shared/config';
import { TransactionRunner, WriteEffects } from '@calendar/shared/database';
import { searchTerms } from '@calendar/shared/search';
import { ApiException, assertPageExists, CountMemo, DATA_PARTS, DataPart, FragmentCache, isUniqueViolation, LinkBuilder, ListResult } from '@calendar/shared/http';
import { parseDateTime } from '@calendar/shared/time';
import { FixedOffsetZone } from 'luxon';
import { DataSource, EntityManager } from 'typeorm';
import { ListRecordsQueryDto, RecordWriteDto } from './dto/record.dto';
import type { RecordEntity, RecordTranslationEntity } from './entities/record.entity';
import { MediaEntity } from './media/media.entity';
import { MediaService } from './media/media.service';
import { mayModify, readAccess } from './record-access';
import type { RecordKind } from './record-kind';
import { EventLinkRegistry, LinkedKind } from './record-links';
import { RecordException } from './record.exception';
import { RecordListFilter, RecordRepository } from './record.repository';
import { statusForWrite } from './record-status';

/** The services every record service uses, injected once for all kinds. */
@Injectable()
export class RecordServiceDeps {
  constructor(
    readonly dataSource: DataSource,
    readonly transactions: TransactionRunner,
    readonly links: LinkBuilder,
    readonly config: AppConfig,
    readonly media: MediaService,
    readonly users: UserService,
    readonly eventLinks: EventLinkRegistry,
    readonly counts: CountMemo,
    readonly fragments: FragmentCache,
  ) {}
}

export interface PresentOptions {
  /** Single reads carry `json_ld`; lists and embedded records do not. */
  jsonLd: boolean;
  image: MediaEntity | null;
}


/** The record to act on: by id or by slug. */
export type RecordTarget = { id: number } | { slug: string };

/**
 * The rules venues and organizers share (SPEC §5, §7, §8): visibility, statuses and permissions, trash and
 * restore, per-language texts and slugs, lists. Each kind adds its own fields and response shape.
 */
export abstract class RecordService<E extends RecordEntity, T extends RecordTranslationEntity, R, W extends RecordWriteDto> {
  protected abstract readonly kind: RecordKind<E, T>;
  protected abstract readonly repository: RecordRepository<E, T>;

  /** Slugs chosen by this kind's writes still running (see SlugsInFlight). */
  private readonly slugsInFlight = new SlugsInFlight();

  constructor(protected readonly deps: RecordServiceDeps) {}

  /** Copies the kind's own (untranslated) fields from the write onto the record. */
  protected abstract applyFields(record: E, input: W, isCreate: boolean): void;

  /** The response object of one record. */
  protected abstract present(record: E, context: RequestContext, options: PresentOptions): R;

  async list(query: ListRecordsQueryDto, context: RequestContext): Promise<ListResult<R>> {
    const { caller, language, origin } = context;
    const problems: Record<string, string> = {};
    if (query.status && !caller && query.status.some((status) => status !== 'publish')) {
      problems['status'] = 'must be publish for callers who are not logged in';
    }
    const filter: RecordListFilter = { language, caller, statuses: query.status, conditions: [] };
    if (query.search !== undefined) filter.search = searchTerms(query.search);
    const linked = this.kind.kind as LinkedKind;
    if (query.event !== undefined) {
      const ids = await this.deps.eventLinks.idsForEvent(linked, query.event);
      if (ids === null) problems['event'] = 'must be the id of an existing event';
      else filter.conditions?.push({ sql: ids.length > 0 ? 'r.id IN (:...eventLinked)' : '1 = 0', params: { eventLinked: ids } });
    }
    if (Object.keys(problems).length > 0) throw ApiException.invalidParams(problems);
    if (query.has_events !== undefined) {
      const condition = this.deps.eventLinks.linkedCondition(linked, 'r');
      filter.conditions?.push(query.has_events ? condition : { sql: `NOT (${condition.sql})`, params: condition.params });
    }
    if (query.only_with_upcoming) filter.conditions?.push(this.deps.eventLinks.upcomingCondition(linked, 'r', caller));

    const total = await this.repository.count(filter);
    assertPageExists(this.kind.kind, query, total);
    const records = await this.repository.page(filter, (query.page - 1) * query.per_page, query.per_page);
    const { translation_language: _language, page: _page, ...filters } = query;
    return new ListResult(
      this.kind.path,
      await this.presentMany(records, context, false),
      total,
      query,
      (page) => this.deps.links.rest(origin, language, this.kind.path, { ...filters, page }),
    );
  }

  /** A single read (SPEC §4.3): 404 unknown, 403 when the caller may not see it. */
  async get(target: RecordTarget, context: RequestContext): Promise<R> {
    const record = await this.find(target, context);
    const access = readAccess(record, context.caller);
    if (access === 'trashed') throw RecordException.trashed(this.kind);
    if (access === 'hidden') throw RecordException.notAccessible(this.kind);
    return this.presentOne(record, context);
  }

  async create(input: W, context: RequestContext): Promise<R> {
    const id = await this.write((manager) => this.createWith(manager, input, context));
    return this.presentOne((await this.repository.findOne(id)) as E, context);
  }

  /** Creates inside a transaction the caller holds (events create their venues and organizers this way). */
  async createWith(manager: EntityManager, input: W, context: RequestContext): Promise<number> {
    this.markPart(manager);
    const caller = context.caller;
    if (!can.createRecords(caller) || !caller) throw ApiException.notLoggedIn();
    await this.assertAuthorExists(input.author, manager);
    const authorId = this.checkAuthor(input.author, context, caller.id);
    const record = manager.getRepository(this.kind.entity).create();
    record.authorId = authorId;
    record.status = statusForWrite(input.status, caller);
    record.previousStatus = null;
    record.originalLang = context.language;
    record.imageId = input.image === undefined ? null : await this.deps.media.resolve(manager, input.image);
    const published = this.publicationDate(input);
    if (published) record.publishedAt = published;
    this.applyFields(record, input, true);
    this.revise(record);
    await manager.getRepository(this.kind.entity).insert(record as never);
    await this.writeTexts(manager, record, context.language, input, true);
    await this.afterWrite(manager, record, input, context, true);
    WriteEffects.of(manager).record(this.kind.kind, record.id, 'created').reindex(this.kind.kind, record.id);
    return record.id;
  }

  /** Which of `ids` exist, whatever their status. */
  existing(ids: number[]): Promise<Set<number>> {
    return this.repository.existing(ids);
  }

  /**
   * Response objects (without JSON-LD) of the records the caller may read, by id; for embedding. Rendered once
   * per data version and language (FragmentCache); who may read each is decided per request.
   */
  async presentByIds(ids: number[], context: RequestContext): Promise<Map<number, R>> {
    const rendered = await this.deps.fragments.many(this.kind.path as DataPart, context.language, ids, context, async (missing) => {
      const records = await this.repository.findMany(missing);
      const responses = await this.presentMany(records, context, false);
      return new Map(records.map((record, index) => [record.id, { status: record.status, authorId: record.authorId, response: responses[index] }]));
    });
    const readable = [...rendered].filter(([, fragment]) => readAccess(fragment, context.caller) === 'ok');
    return new Map(readable.map(([id, fragment]) => [id, fragment.response]));
  }

  async update(target: RecordTarget, input: W, context: RequestContext): Promise<R> {
    await this.assertAuthorExists(input.author);
    const found = await this.find(target, context);
    this.assertMayModify(found, context);
    const authorId = this.checkAuthor(input.author, context, found.authorId);
    await this.write(async (manager) => {
      const record = (await manager.getRepository(this.kind.entity).findOne({ where: { id: found.id } as never })) as E;
      record.authorId = authorId;
      if (input.status !== undefined) {
        record.status = statusForWrite(input.status, context.caller, found.status === 'trash' ? undefined : found.status);
        record.previousStatus = null;
      }
      if (input.image !== undefined) record.imageId = await this.deps.media.resolve(manager, input.image);
      const published = this.publicationDate(input);
      if (published) record.publishedAt = published;
      this.applyFields(record, input, false);
      record.modifiedAt = new Date();
      this.revise(record);
      await manager.getRepository(this.kind.entity).save(record as never, { reload: false });
      record.translations = found.translations;
      await this.writeTexts(manager, record, context.language, input, false);
      await this.afterWrite(manager, record, input, context, false, found);
      WriteEffects.of(manager).record(this.kind.kind, record.id, 'updated').reindex(this.kind.kind, record.id);
    });
    return this.presentOne((await this.repository.findOne(found.id)) as E, context);
  }

  /** Moves the record to the trash (SPEC §4.8, §5.2); links, texts and the previous status are kept. */
  async remove(target: RecordTarget, context: RequestContext): Promise<R> {
    const found = await this.find(target, context);
    this.assertMayModify(found, context);
    if (found.status === 'trash') throw RecordException.inTrash(this.kind);
    await this.write(async (manager) => {
      await manager
        .getRepository(this.kind.entity)
        .update({ id: found.id } as never, this.revise({ previousStatus: found.status, status: 'trash', modifiedAt: new Date() }) as never);
      WriteEffects.of(manager).record(this.kind.kind, found.id, 'trashed');
      await this.afterRemove(manager, found);
    });
    return this.presentOne((await this.repository.findOne(found.id)) as E, context);
  }

  /** The id a target names: as given, or the record holding the slug (request language first); null for none. */
  protected async targetId(target: RecordTarget, context: RequestContext): Promise<number | null> {
    return 'id' in target ? target.id : this.repository.idBySlug(target.slug, context.language);
  }

  protected async find(target: RecordTarget, context: RequestContext): Promise<E> {
    const id = await this.targetId(target, context);
    const record = id === null ? null : await this.repository.findOne(id);
    if (!record) throw RecordException.notFound(this.kind);
    return record;
  }

  /** Response objects of records, with what they embed loaded in a fixed number of queries. */
  protected async presentMany(records: E[], context: RequestContext, jsonLd: boolean): Promise<R[]> {
    const images = await this.deps.media.byIds(records.map((record) => record.imageId));
    return records.map((record) => this.present(record, context, { jsonLd, image: images.get(record.imageId ?? 0) ?? null }));
  }

  protected async presentOne(record: E, context: RequestContext): Promise<R> {
    const [response] = await this.presentMany([record], context, true);
    return response;
  }

  /**
   * The search rows of the records of this kind a write created or updated are rebuilt from what it left, once, at
   * the end of the write (the `WriteCoordinator` applies every write's effects).
   */
  onModuleInit(): void {
    this.deps.transactions.coordinator.register(`search rows of ${this.kind.path}`, async (manager, effects) => {
      for (const id of effects.reindexed(this.kind.kind)) await this.reindex(manager, id);
    });
  }

  /** Rebuilds the record's rows of the search index from what the write left, in the write's transaction. */
  protected async reindex(manager: EntityManager, id: number): Promise<void> {
    await this.repository.reindexSearch(manager, id);
  }

  /** Keeps what depends on the record's status current when it goes to the trash (events: term counts). */
  protected async afterRemove(_manager: EntityManager, _record: E): Promise<void> {
    return;
  }

  /**
   * Writes what the kind links to (events: venues, organizers, terms), inside the write's transaction; `before` is
   * the record as it was before an update.
   */
  protected async afterWrite(_manager: EntityManager, _record: E, _input: W, _context: RequestContext, _isCreate: boolean, _before?: E): Promise<void> {
    return;
  }

  protected assertMayModify(record: E, context: RequestContext): void {
    if (!mayModify(record, context.caller)) throw ApiException.forbidden();
  }

  /** `author` names an existing user: a parameter check, so it comes before record lookups and permissions. */
  private async assertAuthorExists(requested: number | undefined, manager?: EntityManager): Promise<void> {
    if (requested !== undefined && !(await this.deps.users.findById(requested, manager))) throw ApiException.invalidParams({ author: 'must be the id of an existing user' });
  }

  /** Only editors and administrators may make someone else the author. */
  private checkAuthor(requested: number | undefined, context: RequestContext, fallback: number): number {
    if (requested === undefined || requested === fallback) return fallback;
    if (requested !== context.caller?.id && !can.editOthers(context.caller)) throw ApiException.forbidden();
    return requested;
  }

  /** `date_utc` (UTC) wins over `date` (service time zone); both are already valid date-times. */
  private publicationDate(input: RecordWriteDto): Date | null {
    if (input.date_utc !== undefined) return parseDateTime(input.date_utc, { zone: FixedOffsetZone.utcInstance })?.toJSDate() ?? null;
    if (input.date !== undefined) return parseDateTime(input.date, { zone: this.deps.config.timezone.zone })?.toJSDate() ?? null;
    return null;
  }

  /** Venues and organizers have data versions of their own (kept renderings of them follow their writes). */
  private markPart(manager: EntityManager): void {
    if ((DATA_PARTS as readonly string[]).includes(this.kind.path)) WriteEffects.of(manager).movePart(this.kind.path as DataPart);
  }

  /** Gives the changes of a write a new `revision` where the kind keeps one (RecordKind.revised). */
  private revise<X extends object>(changes: X): X {
    if (this.kind.revised) (changes as X & { revision: number }).revision = randomInt(1, 2 ** 31 - 1);
    return changes;
  }

  /** One transaction; a slug taken by a concurrent write is reported as the conflict it is. */
  protected async write<X>(work: (manager: EntityManager) => Promise<X>): Promise<X> {
    try {
      return await this.deps.transactions.run((manager) => {
        this.markPart(manager);
        return work(manager);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new RecordException(409, 'slug-exists', `Another ${this.kind.kind} uses that slug in this language.`);
      throw error;
    }
  }

  /**
   * Writes the translatable texts of one language (SPEC §7): name and description go to that language's
   * translation, created when missing, with a slug of its own unique per kind and language.
   */
  private async writeTexts(manager: EntityManager, record: E, language: string, input: W, isCreate: boolean): Promise<void> {
    const name = (input as unknown as Record<string, string | undefined>)[this.kind.nameKey];
    const texts = input as unknown as Record<string, string | undefined>;
    const extra = this.kind.extraTexts ?? [];
    const touches = name !== undefined || input.description !== undefined || input.slug !== undefined || extra.some((field) => texts[field] !== undefined);
    if (!isCreate && !touches) return;
    const repository = manager.getRepository(this.kind.translation);
    let translation = (record.translations ?? []).find((row) => row.lang === language) as T | undefined;
    if (!translation) {
      const empty = Object.fromEntries(extra.map((field) => [field, null]));
      translation = repository.create({ [this.kind.ownerProperty]: record.id, lang: language, name: null, description: null, ...empty } as never) as unknown as T;
    }
    if (name !== undefined) translation.name = name;
    if (input.description !== undefined) translation.description = input.description;
    for (const field of extra) if (texts[field] !== undefined) (translation as unknown as Record<string, string>)[field] = texts[field] as string;
    if (input.slug !== undefined && input.slug !== '') {
      const slug = cleanExplicitSlug(input.slug);
      if (slug === '') throw ApiException.invalidParams({ slug: 'must contain at least one letter or digit' });
      const owner = await this.repository.slugOwner(manager, language, slug, record.id);
      if (owner !== null) throw RecordException.slugExists(this.kind, owner);
      translation.slug = slug;
    } else if (input.slug === '' || !translation.slug) {
      const source = translation.name ?? record.translations?.find((row) => row.lang === record.originalLang)?.name ?? '';
      const base = slugFromText(source) || String(record.id);
      translation.slug = firstFreeSlug(base, this.slugsInFlight.including(language, await this.repository.slugsLike(manager, language, base, record.id)));
      this.slugsInFlight.hold(manager, language, translation.slug);
    }
    await repository.save(translation as never);
  }
}
