import { randomInt } from 'node:crypto';
import { cleanExplicitSlug, firstFreeSlug, RequestContext, slugFromText } from '@calendar/i18n';
import { can } from '@calendar/shared/auth';
import { DATA_PARTS, DataPart, GuardedKind, insertOnly, GuardedRecord, RecordGuard, WriteCondition, WriteEffects } from '@calendar/shared/database';
import { ApiException, isUniqueViolation } from '@calendar/shared/http';
import { parseDateTime } from '@calendar/shared/time';
import { FixedOffsetZone } from 'luxon';
import { EntityManager } from 'typeorm';
import type { RecordWriteDto } from './dto/record.dto';
import type { RecordEntity, RecordTranslationEntity } from './entities/record.entity';
import { mayModify } from './record-access';
import { RecordServiceDeps, RecordTarget } from './record-deps';
import type { RecordKind } from './record-kind';
import { RecordException } from './record.exception';
import { RecordRepository } from './record.repository';
import { statusForWrite } from './record-status';
import { SlugsInFlight } from './slugs-in-flight';

/** What a kind adds to the writes every record shares. */
export interface RecordRules<E extends RecordEntity, W extends RecordWriteDto> {
  /** Copies the kind's own (untranslated) fields from the write onto the record. */
  applyFields(record: E, input: W, isCreate: boolean): void;
  /**
   * Writes what the kind links to (events: venues, organizers, terms, its series), in the write's transaction;
   * `previous` is the record as it was before an update.
   */
  afterWrite?(manager: EntityManager, record: E, input: W, scope: RequestContext, isCreate: boolean, previous?: E): Promise<void>;
  /** Keeps what depends on the record's status current when it goes to the trash (events: counts, series). */
  afterRemove?(manager: EntityManager, record: E): Promise<void>;
  /**
   * Rebuilds the search rows of the records `ids` from what the write left, all at once (default: name, description
   * and the kind's fields); a record the write deleted loses its rows; `fresh`, the records it created, have none
   * to remove.
   */
  reindex?(manager: EntityManager, ids: readonly number[], fresh: ReadonlySet<number>): Promise<void>;
}

/**
 * The writes every record kind shares (SPEC §4.2, §5, §7): create, update and trash in one transaction each, with
 * statuses, permissions, authors, publication dates, per-language texts and slugs. Each write records what it
 * changed in the transaction's `WriteEffects`; the kind's rules add its own fields and links. Writes answer with
 * the record's id: the kind's presenter renders the answer.
 */
export class RecordWriter<E extends RecordEntity, T extends RecordTranslationEntity, W extends RecordWriteDto> {
  /** Slugs chosen by this kind's writes still running (see SlugsInFlight). */
  private readonly slugsInFlight = new SlugsInFlight();

  constructor(
    private readonly deps: RecordServiceDeps,
    private readonly kind: RecordKind<E, T>,
    private readonly repository: RecordRepository<E, T>,
    private readonly rules: RecordRules<E, W>,
  ) {}

  /**
   * The search rows of the records of this kind a write names in its effects (created, updated, deleted: every
   * writer, the series writer and the seed included) are rebuilt from what it left, once, at the end of the write
   * (the `WriteCoordinator` applies every write's effects). Called once, at start-up.
   */
  registerEffects(): void {
    const reindex = this.rules.reindex ?? ((manager: EntityManager, ids: readonly number[], fresh: ReadonlySet<number>) => this.repository.reindexSearch(manager, ids, fresh));
    this.deps.transactions.coordinator.register(`search rows of ${this.kind.path}`, async (manager, effects) => {
      const ids = effects.reindexed(this.kind.kind);
      if (ids.length > 0) await reindex(manager, ids, effects.created(this.kind.kind));
    });
  }

  create(input: W, scope: RequestContext): Promise<number> {
    return this.write((manager) => this.createWith(manager, input, scope));
  }

  /** Creates inside a transaction the caller holds (events create their venues and organizers this way). */
  async createWith(manager: EntityManager, input: W, scope: RequestContext): Promise<number> {
    this.markPart(manager);
    const caller = scope.caller;
    if (!can.createRecords(caller) || !caller) throw ApiException.notLoggedIn();
    await this.assertAuthorExists(input.author, manager);
    const authorId = this.checkAuthor(input.author, scope, caller.id);
    const record = manager.getRepository(this.kind.entity).create();
    record.authorId = authorId;
    record.status = statusForWrite(input.status, caller);
    record.previousStatus = null;
    record.originalLang = scope.language;
    record.imageId = input.image === undefined ? null : await this.deps.media.resolve(manager, input.image);
    const published = this.publicationDate(input);
    if (published) record.publishedAt = published;
    this.rules.applyFields(record, input, true);
    this.revise(record);
    record.id = await insertOnly(manager, this.kind.entity, record as never);
    await this.writeTexts(manager, record, scope.language, input, true);
    await this.rules.afterWrite?.(manager, record, input, scope, true);
    WriteEffects.of(manager).record(this.kind.kind, record.id, 'created').reindex(this.kind.kind, record.id);
    return record.id;
  }

  /** Updates the record; under `condition`, only if its precondition holds (SPEC §18). */
  update(target: RecordTarget, input: W, scope: RequestContext, condition?: WriteCondition): Promise<number> {
    return this.deps.conditional.run(condition, this.guarded(target, scope), (guard) => this.updateNow(target, input, scope, guard));
  }

  private async updateNow(target: RecordTarget, input: W, scope: RequestContext, guard: RecordGuard | undefined): Promise<number> {
    await this.assertAuthorExists(input.author);
    const found = await this.find(target, scope);
    this.assertMayModify(found, scope);
    const authorId = this.checkAuthor(input.author, scope, found.authorId);
    await this.write(async (manager) => {
      await guard?.hold(manager);
      const record = (await manager.getRepository(this.kind.entity).findOne({ where: { id: found.id } as never })) as E;
      record.authorId = authorId;
      if (input.status !== undefined) {
        record.status = statusForWrite(input.status, scope.caller, found.status === 'trash' ? undefined : found.status);
        record.previousStatus = null;
      }
      if (input.image !== undefined) record.imageId = await this.deps.media.resolve(manager, input.image);
      const published = this.publicationDate(input);
      if (published) record.publishedAt = published;
      this.rules.applyFields(record, input, false);
      record.modifiedAt = new Date();
      this.revise(record);
      await manager.getRepository(this.kind.entity).save(record as never, { reload: false });
      record.translations = found.translations;
      await this.writeTexts(manager, record, scope.language, input, false);
      await this.rules.afterWrite?.(manager, record, input, scope, false, found);
      WriteEffects.of(manager).record(this.kind.kind, record.id, 'updated').reindex(this.kind.kind, record.id);
    });
    return found.id;
  }

  /**
   * Moves the record to the trash (SPEC §4.8, §5.2); links, texts and the previous status are kept. Under
   * `condition`, only if its precondition holds (SPEC §18).
   */
  remove(target: RecordTarget, scope: RequestContext, condition?: WriteCondition): Promise<number> {
    return this.deps.conditional.run(condition, this.guarded(target, scope), (guard) => this.removeNow(target, scope, guard));
  }

  private async removeNow(target: RecordTarget, scope: RequestContext, guard: RecordGuard | undefined): Promise<number> {
    const found = await this.find(target, scope);
    this.assertMayModify(found, scope);
    if (found.status === 'trash') throw RecordException.inTrash(this.kind);
    await this.write(async (manager) => {
      await guard?.hold(manager);
      await manager
        .getRepository(this.kind.entity)
        .update({ id: found.id } as never, this.revise({ previousStatus: found.status, status: 'trash', modifiedAt: new Date() }) as never);
      WriteEffects.of(manager).record(this.kind.kind, found.id, 'trashed');
      await this.rules.afterRemove?.(manager, found);
    });
    return found.id;
  }

  /** The record a target names, whatever its status; 404 for none. */
  async find(target: RecordTarget, scope: RequestContext): Promise<E> {
    const record = await this.repository.findTarget(target, scope.language);
    if (!record) throw RecordException.notFound(this.kind);
    return record;
  }

  /** The record a conditional write of this kind names. */
  private guarded(target: RecordTarget, scope: RequestContext): GuardedRecord {
    return { kind: { kind: this.kind.kind, table: this.kind.path as GuardedKind['table'] }, id: 'id' in target ? target.id : undefined, scope };
  }

  private assertMayModify(record: E, scope: RequestContext): void {
    if (!mayModify(record, scope.caller)) throw ApiException.forbidden();
  }

  /** `author` names an existing user: a parameter check, so it comes before record lookups and permissions. */
  private async assertAuthorExists(requested: number | undefined, manager?: EntityManager): Promise<void> {
    if (requested !== undefined && !(await this.deps.users.findById(requested, manager))) throw ApiException.invalidParams({ author: 'must be the id of an existing user' });
  }

  /** Only editors and administrators may make someone else the author. */
  private checkAuthor(requested: number | undefined, scope: RequestContext, fallback: number): number {
    if (requested === undefined || requested === fallback) return fallback;
    if (requested !== scope.caller?.id && !can.editOthers(scope.caller)) throw ApiException.forbidden();
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
  private async write<X>(work: (manager: EntityManager) => Promise<X>): Promise<X> {
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
    // A created record's texts are the one just written: its kind's rules may take them from here.
    if (isCreate) record.translations = [translation] as E['translations'];
  }
}
