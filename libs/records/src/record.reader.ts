import { RequestContext } from '@calendar/i18n';
import { searchTerms } from '@calendar/shared/search';
import { parseDateTime, shownSecondBounds, sqlDateTime } from '@calendar/shared/time';
import { DateTime } from 'luxon';
import { DataPart } from '@calendar/shared/database';
import { ApiException, assertPageExists, JsonText, ListResult, refuseNonSyncParams, syncBody, VersionsHolder } from '@calendar/shared/http';
import { filterDigest, SyncSource } from '@calendar/shared/database';
import { ListRecordsQueryDto, SyncRecordsQueryDto } from './dto/record.dto';
import type { RecordEntity, RecordTranslationEntity } from './entities/record.entity';
import { readAccess } from './record-access';
import { PresentOptions, RecordServiceDeps, RecordTarget } from './record-deps';
import type { RecordKind } from './record-kind';
import { LinkedKind } from './record-links';
import { RecordException } from './record.exception';
import { RecordListFilter, RecordRepository } from './record.repository';

/** Turns one record into its response object. */
export type PresentRecord<E, R> = (record: E, scope: RequestContext, options: PresentOptions) => R;

/**
 * The reads of venues and organizers (SPEC §5, §7, §8): lists with their filters, single reads with their access
 * rules, and the renderings other answers embed. Every answer is made by the kind's one presenter.
 */
export class RecordReader<E extends RecordEntity, T extends RecordTranslationEntity, R> {
  constructor(
    private readonly deps: RecordServiceDeps,
    private readonly kind: RecordKind<E, T>,
    private readonly repository: RecordRepository<E, T>,
    private readonly present: PresentRecord<E, R>,
  ) {}

  async list(query: ListRecordsQueryDto, scope: RequestContext): Promise<ListResult<R>> {
    const { caller, language, origin } = scope;
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
    // SPEC §16.1: exclusive bounds on the last modification, exact instants in the service time zone.
    const instant = (value?: string) => (value === undefined ? undefined : (parseDateTime(value, { zone: this.deps.config.timezone.zone, now: new Date() }) as DateTime).toJSDate());
    const modified = shownSecondBounds(instant(query.modified_after), instant(query.modified_before));
    if (modified.atOrAfter) filter.conditions?.push({ sql: 'r.modified_at >= :modifiedFrom', params: { modifiedFrom: sqlDateTime(modified.atOrAfter) } });
    if (modified.before) filter.conditions?.push({ sql: 'r.modified_at < :modifiedBefore', params: { modifiedBefore: sqlDateTime(modified.before) } });

    const total = await this.repository.count(filter);
    assertPageExists(this.kind.kind, query, total);
    const records = await this.repository.page(filter, (query.page - 1) * query.per_page, query.per_page);
    const { translation_language: _language, page: _page, ...filters } = query;
    return new ListResult(
      this.kind.path,
      await this.presentMany(records, scope, false),
      total,
      query,
      (page) => this.deps.links.rest(origin, language, this.kind.path, { ...filters, page }),
    );
  }

  /**
   * A page of a sync (SPEC §16.2): every record the caller may read in every status but trash (`status` narrows
   * it), as lists show them, in pages of the primary key; then, from the token, those changed since and tombstones
   * for those that left the caller's view.
   */
  async sync(query: SyncRecordsQueryDto, raw: Record<string, unknown>, scope: RequestContext): Promise<JsonText> {
    const path = this.kind.path;
    refuseNonSyncParams(raw, ['per_page', 'sync_token', 'cursor', 'translation_language', 'status']);
    const problems: Record<string, string> = {};
    if (query.status?.includes('trash')) problems['status'] = `must not include trash: a sync never shows the trash (a trashed ${this.kind.kind} is a tombstone)`;
    else if (query.status && !scope.caller && query.status.some((status) => status !== 'publish')) problems['status'] = 'must be publish for callers who are not logged in';
    if (query.sync_token !== undefined && query.cursor !== undefined) problems['cursor'] = 'is given alone: it carries the sync_token of the sync it goes on with';
    if (Object.keys(problems).length > 0) throw ApiException.invalidParams(problems);
    const filter: RecordListFilter = { language: scope.language, caller: scope.caller, statuses: query.status, conditions: [] };
    const syncScope = { kind: this.kind.kind, filter: filterDigest(this.kind.kind, { status: query.status, language: scope.language }), caller: scope.caller?.id ?? 0 };
    const present = async (records: E[]) => {
      const responses = await this.presentMany(records, scope, false);
      return records.map((record, index) => ({ id: record.id, item: responses[index] }));
    };
    const source: SyncSource<R> = {
      full: async (afterId, limit) => {
        const records = await this.repository.syncPage(filter, afterId, limit + 1);
        const shown = records.slice(0, limit);
        return { items: await present(shown), lastId: shown.at(-1)?.id ?? null, more: records.length > limit };
      },
      changes: async (range) => ({
        ...(await this.deps.changes.changedRecords([this.kind.kind], range)),
        current: async (ids) => present(await this.repository.matching(filter, ids)),
      }),
    };
    const page = await this.deps.changes.sync(syncScope, { token: query.sync_token, cursor: query.cursor }, query.per_page, source, scope.versions);
    const address = (extra: Record<string, unknown>) => this.deps.links.rest(scope.origin, scope.language, `${path}/sync`, { status: query.status, per_page: query.per_page, ...extra });
    const self = address({ sync_token: query.sync_token, cursor: query.cursor });
    return syncBody(path, page.items as (R & object)[], self, { nextUrl: page.cursor === undefined ? undefined : address({ cursor: page.cursor }), token: page.token });
  }

  /** A single read (SPEC §4.3): 404 unknown, 403 when the caller may not see it. */
  async get(target: RecordTarget, scope: RequestContext): Promise<R> {
    const record = await this.repository.findTarget(target, scope.language);
    if (!record) throw RecordException.notFound(this.kind);
    const access = readAccess(record, scope.caller);
    if (access === 'trashed') throw RecordException.trashed(this.kind);
    if (access === 'hidden') throw RecordException.notAccessible(this.kind);
    return this.presentOne(record, scope);
  }

  /** The answer of a write: the record as it is now, as its single read shows it. */
  async written(id: number, scope: RequestContext): Promise<R> {
    return this.presentOne((await this.repository.findOne(id)) as E, scope);
  }

  /** Which of `ids` exist, whatever their status; kept per version of the kind, as the records embedded are. */
  existing(ids: number[], read: VersionsHolder): Promise<Set<number>> {
    return this.deps.fragments.value(this.kind.path as DataPart, `existing ${ids.join(',')}`, read, () => this.repository.existing(ids));
  }

  /**
   * The JSON texts of the responses (without JSON-LD) of the records the caller may read, by id; for embedding.
   * Rendered once per data version and language (FragmentCache) and kept as its UTF-8 bytes alone: one buffer per
   * record, outside the collector's heap, where the response object was a tree of a few dozen small ones for it to
   * walk. Who may read each is decided per request.
   */
  async presentByIds(ids: number[], scope: RequestContext): Promise<Map<number, JsonText<R>>> {
    const rendered = await this.deps.fragments.many(this.kind.path as DataPart, scope.language, ids, scope, async (missing) => {
      const records = await this.repository.findMany(missing);
      const responses = await this.presentMany(records, scope, false);
      return new Map(records.map((record, index) => [record.id, { status: record.status, authorId: record.authorId, response: new JsonText<R>(Buffer.from(JSON.stringify(responses[index]))) }]));
    });
    const readable = new Map<number, JsonText<R>>();
    for (const [id, fragment] of rendered) if (readAccess(fragment, scope.caller) === 'ok') readable.set(id, fragment.response);
    return readable;
  }

  /** Response objects of records, with their images loaded in one query. */
  private async presentMany(records: E[], scope: RequestContext, jsonLd: boolean): Promise<R[]> {
    const images = await this.deps.media.byIds(records.map((record) => record.imageId));
    return records.map((record) => this.present(record, scope, { jsonLd, image: images.get(record.imageId ?? 0) ?? null }));
  }

  private async presentOne(record: E, scope: RequestContext): Promise<R> {
    const [response] = await this.presentMany([record], scope, true);
    return response;
  }
}
