import { likeStartsWith } from '@calendar/i18n';
import { can } from '@calendar/shared/auth';
import { Conditions, TranslatedLoader } from '@calendar/shared/database';
import type { Caller } from '@calendar/shared/http';
import { rebuildSearchRows, recordSearchEntries, SEARCH_BATCH, searchConditions, SearchTerm } from '@calendar/shared/search';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { RecordEntity, RecordTranslationEntity } from './entities/record.entity';
import type { RecordKind } from './record-kind';
import type { SqlCondition } from './record-links';
import type { RecordStatus } from './record-status';

export interface RecordListFilter {
  language: string;
  caller: Caller | null;
  statuses?: RecordStatus[];
  /** Every term must match the record's presented texts or shared searchable fields (SPEC §10.1, §11.13). */
  search?: SearchTerm[];
  /** Extra conditions of the kind (links to events, ...). */
  conditions?: { sql: string; params: Record<string, unknown> }[];
}

/**
 * Limits a query on alias `alias` to what the caller may see (SPEC §4.4, §8, §11.11): anonymous callers see
 * published records; authors and contributors also their own of any status but trash; editors and
 * administrators everything but trash. An explicit status list narrows that, trash included.
 */
export function applyVisibility(qb: Conditions, alias: string, caller: Caller | null, statuses?: RecordStatus[]): void {
  if (statuses) {
    qb.andWhere(`${alias}.status IN (:...statuses)`, { statuses });
    if (!can.readOthersPrivate(caller)) {
      if (caller) qb.andWhere(`(${alias}.status = 'publish' OR ${alias}.author_id = :callerId)`, { callerId: caller.id });
      else qb.andWhere(`${alias}.status = 'publish'`);
    }
    return;
  }
  const visible = visibleCondition(alias, caller, 'callerId');
  qb.andWhere(visible.sql, visible.params);
}

/** The default visibility of `applyVisibility` as a condition of its own, for subqueries (`param` names the caller's id). */
export function visibleCondition(alias: string, caller: Caller | null, param: string): SqlCondition {
  if (can.readOthersPrivate(caller)) return { sql: `${alias}.status <> 'trash'`, params: {} };
  if (caller) return { sql: `(${alias}.status = 'publish' OR (${alias}.author_id = :${param} AND ${alias}.status <> 'trash'))`, params: { [param]: caller.id } };
  return { sql: `${alias}.status = 'publish'`, params: {} };
}

/** Queries one kind of record with its translations; lists read a page of ids, then the rows in one more query. */
export class RecordRepository<E extends RecordEntity, T extends RecordTranslationEntity> {
  private readonly loader: TranslatedLoader<E>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly kind: RecordKind<E, T>,
    /** The kind's own searchable fields besides the translated name and description (a venue's city, ...). */
    private readonly searchFields: (keyof E & string)[],
  ) {
    this.loader = new TranslatedLoader(dataSource, kind.entity);
  }

  private get table(): string {
    return this.dataSource.getMetadata(this.kind.entity).tableName;
  }

  private get translationTable(): string {
    return this.dataSource.getMetadata(this.kind.translation).tableName;
  }

  async findOne(id: number, manager: EntityManager = this.dataSource.manager): Promise<E | null> {
    return (await this.loader.load([id], manager))[0] ?? null;
  }

  /** The record an id or a slug names (a slug in `language` first, then in any other), or null. */
  async findTarget(target: { id: number } | { slug: string }, language: string): Promise<E | null> {
    const id = 'id' in target ? target.id : await this.idBySlug(target.slug, language);
    return id === null ? null : this.findOne(id);
  }

  /** Records with their translations, in no particular order. */
  async findMany(ids: number[]): Promise<E[]> {
    return this.loader.load(ids);
  }

  /** The record with this slug in `language`, else in any other language (SPEC §4.3, §7). */
  async idBySlug(slug: string, language: string): Promise<number | null> {
    const owner = this.kind.ownerColumn;
    const rows = await this.dataSource.query(
      `SELECT ${owner} AS id FROM ${this.translationTable} WHERE slug = ? ORDER BY CASE WHEN lang = ? THEN 0 ELSE 1 END, id LIMIT 1`,
      [slug, language],
    );
    return rows.length > 0 ? Number(rows[0].id) : null;
  }

  private filtered(filter: RecordListFilter): SelectQueryBuilder<E> {
    const qb = this.dataSource.getRepository(this.kind.entity).createQueryBuilder('r');
    applyVisibility(qb, 'r', filter.caller, filter.statuses);
    if (filter.search) {
      const sql = { kind: this.kind.kind, id: 'r.id', translationTable: this.translationTable, ownerColumn: this.kind.ownerColumn, language: filter.language };
      for (const condition of searchConditions(filter.search, sql)) qb.andWhere(condition.sql, condition.params);
    }
    for (const condition of filter.conditions ?? []) qb.andWhere(condition.sql, condition.params);
    return qb;
  }

  /**
   * Rebuilds the search index rows of the records `ids` from their texts and searchable fields, inside the write's
   * transaction (a record that no longer exists loses its rows; `fresh`, those the write created, have none yet).
   */
  async reindexSearch(manager: EntityManager, ids: readonly number[], fresh?: ReadonlySet<number>): Promise<void> {
    for (let offset = 0; offset < ids.length; offset += SEARCH_BATCH) {
      const chunk = ids.slice(offset, offset + SEARCH_BATCH);
      const records = new Map((await this.loader.load(chunk, manager)).map((record) => [record.id, record]));
      await rebuildSearchRows(manager, this.kind.kind, chunk, (id) => {
        const record = records.get(id);
        if (!record) return [];
        return recordSearchEntries(record.translations, record.originalLang, this.searchFields.map((field) => record[field] as unknown as string | null));
      }, undefined, fresh);
    }
  }

  count(filter: RecordListFilter): Promise<number> {
    return this.filtered(filter).getCount();
  }

  /** A page, newest publication first (SPEC §5.3), with translations, in order: selected and loaded in one query. */
  async page(filter: RecordListFilter, offset: number, limit: number): Promise<E[]> {
    const [sql, params] = this.filtered(filter)
      .select('r.id', 'id')
      .addSelect('r.published_at', 'published_at')
      .orderBy('r.published_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .offset(offset)
      .limit(limit)
      .getQueryAndParameters();
    // The derived table: MySQL takes no LIMIT directly inside IN (...).
    return this.loader.loadWhere(`r.id IN (SELECT p.id FROM (${sql}) p)`, params, 'r.published_at DESC, r.id DESC');
  }

  /** A page of a full sync (SPEC §16.2): the records matching `filter` after `afterId`, in id order, with translations. */
  async syncPage(filter: RecordListFilter, afterId: number, limit: number): Promise<E[]> {
    const [sql, params] = this.filtered(filter).select('r.id', 'id').andWhere('r.id > :afterId', { afterId }).orderBy('r.id', 'ASC').limit(limit).getQueryAndParameters();
    return this.loader.loadWhere(`r.id IN (SELECT p.id FROM (${sql}) p)`, params, 'r.id');
  }

  /** The records of `ids` that match `filter`, in id order, with translations. */
  async matching(filter: RecordListFilter, ids: number[]): Promise<E[]> {
    if (ids.length === 0) return [];
    const [sql, params] = this.filtered({ ...filter, conditions: [...(filter.conditions ?? []), { sql: 'r.id IN (:...matchIds)', params: { matchIds: ids } }] })
      .select('r.id', 'id')
      .getQueryAndParameters();
    return this.loader.loadWhere(`r.id IN (SELECT p.id FROM (${sql}) p)`, params, 'r.id');
  }

  /** The record that owns `slug` in `language`, other than `exceptId`. */
  async slugOwner(manager: EntityManager, language: string, slug: string, exceptId: number): Promise<number | null> {
    const owner = this.kind.ownerColumn;
    const rows = await manager.query(`SELECT ${owner} AS id FROM ${this.translationTable} WHERE lang = ? AND slug = ? AND ${owner} <> ?`, [language, slug, exceptId]);
    return rows.length > 0 ? Number(rows[0].id) : null;
  }

  /** Slugs in `language` starting with `base`, other than `exceptId`'s. */
  async slugsLike(manager: EntityManager, language: string, base: string, exceptId: number): Promise<Set<string>> {
    const owner = this.kind.ownerColumn;
    const rows = await manager.query(`SELECT slug FROM ${this.translationTable} WHERE lang = ? AND ${owner} <> ? AND slug LIKE ? ESCAPE '!'`, [
      language,
      exceptId,
      likeStartsWith(base),
    ]);
    return new Set(rows.map((row: { slug: string }) => row.slug));
  }

  /** Which of `ids` exist (any status). */
  async existing(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.dataSource.query(`SELECT id FROM ${this.table} WHERE id IN (${ids.map(() => '?').join(',')})`, ids);
    return new Set(rows.map((row: { id: number }) => Number(row.id)));
  }
}
