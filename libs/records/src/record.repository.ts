import { likeContains, likeStartsWith, presentedColumn } from '@calendar/i18n';
import { can } from '@calendar/shared/auth';
import { TranslatedLoader } from '@calendar/shared/database';
import type { Caller } from '@calendar/shared/http';
import { Brackets, DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { RecordEntity, RecordTranslationEntity } from './entities/record.entity';
import type { RecordKind } from './record-kind';
import type { SqlCondition } from './record-links';
import type { RecordStatus } from './record-status';

export interface RecordListFilter {
  language: string;
  caller: Caller | null;
  statuses?: RecordStatus[];
  /** Every word must appear in one of the searchable columns. */
  words?: string[];
  /** Extra conditions of the kind (links to events, ...). */
  conditions?: { sql: string; params: Record<string, unknown> }[];
}

/** Presented texts of the alias `r` in list queries: the request language's, else the original's. */
export const PRESENTED = {
  name: presentedColumn('tl', 'tor', 'name'),
  slug: presentedColumn('tl', 'tor', 'slug'),
  description: presentedColumn('tl', 'tor', 'description'),
};

/**
 * Limits a query on alias `alias` to what the caller may see (SPEC §4.4, §8, §11.11): anonymous callers see
 * published records; authors and contributors also their own of any status but trash; editors and
 * administrators everything but trash. An explicit status list narrows that, trash included.
 */
export function applyVisibility<T extends object>(qb: SelectQueryBuilder<T>, alias: string, caller: Caller | null, statuses?: RecordStatus[]): void {
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
    /** SQL expressions of the kind's own searchable columns on alias `r` (the presented name and description are always searched). */
    private readonly searchColumns: string[],
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
    const owner = this.kind.ownerColumn;
    const qb = this.dataSource
      .getRepository(this.kind.entity)
      .createQueryBuilder('r')
      .leftJoin(this.kind.translation, 'tl', `tl.${owner} = r.id AND tl.lang = :language`, { language: filter.language })
      .innerJoin(this.kind.translation, 'tor', `tor.${owner} = r.id AND tor.lang = r.original_lang`);
    applyVisibility(qb, 'r', filter.caller, filter.statuses);
    const columns = [PRESENTED.name, PRESENTED.description, ...this.searchColumns];
    (filter.words ?? []).forEach((word, index) => {
      const key = `word${index}`;
      qb.andWhere(
        new Brackets((any) => {
          for (const column of columns) any.orWhere(`LOWER(COALESCE(${column}, '')) LIKE :${key} ESCAPE '!'`, { [key]: likeContains(word) });
        }),
      );
    });
    for (const condition of filter.conditions ?? []) qb.andWhere(condition.sql, condition.params);
    return qb;
  }

  count(filter: RecordListFilter): Promise<number> {
    return this.filtered(filter).getCount();
  }

  /** A page, newest publication first (SPEC §5.3), with translations, in order. */
  async page(filter: RecordListFilter, offset: number, limit: number): Promise<E[]> {
    const rows = await this.filtered(filter)
      .select('r.id', 'id')
      .addSelect('r.published_at', 'published_at')
      .orderBy('r.published_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .offset(offset)
      .limit(limit)
      .getRawMany<{ id: number }>();
    const ids = rows.map((row) => Number(row.id));
    if (ids.length === 0) return [];
    const records = await this.dataSource
      .getRepository(this.kind.entity)
      .createQueryBuilder('r')
      .leftJoinAndSelect('r.translations', 't')
      .where('r.id IN (:...ids)', { ids })
      .getMany();
    const byId = new Map(records.map((record) => [record.id, record]));
    return ids.map((id) => byId.get(id)).filter((record): record is E => record !== undefined);
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
