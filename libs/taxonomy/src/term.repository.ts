import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { likeContains, likeStartsWith, presentedColumn } from '@calendar/i18n';
import { TranslatedLoader } from '@calendar/shared/database';
import { Brackets, EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';
import { TermOrderBy } from './dto/list-terms.dto';
import { TermTranslationEntity } from './entities/term-translation.entity';
import { TermEntity } from './entities/term.entity';
import type { Taxonomy } from './taxonomy';

export interface TermFilter {
  taxonomy: Taxonomy;
  language: string;
  search?: string;
  include?: number[];
  exclude?: number[];
  /** Restrict to these ids (the terms of one event). */
  ids?: number[];
  parent?: number;
  slug?: string;
  /** Only terms after this id (a sync's page, SPEC §16.2). */
  afterId?: number;
  hideEmpty: boolean;
  orderBy: TermOrderBy;
  order: 'asc' | 'desc';
}

const name = presentedColumn('tl', 'tor', 'name');
const slug = presentedColumn('tl', 'tor', 'slug');
const description = presentedColumn('tl', 'tor', 'description');

/** The terms each running write's transaction has locked for their counts (`TermRepository.lockForCount`). */
const lockedForCount = new WeakMap<EntityManager, Set<number>>();

/** The queries of the taxonomy context. Lists read a page of ids with one query, then the rows in one more. */
@Injectable()
export class TermRepository {
  private readonly loader: TranslatedLoader<TermEntity>;

  constructor(@InjectRepository(TermEntity) private readonly terms: Repository<TermEntity>) {
    this.loader = new TranslatedLoader(terms.manager.connection, TermEntity);
  }

  private filtered(filter: TermFilter): SelectQueryBuilder<TermEntity> {
    const qb = this.terms
      .createQueryBuilder('t')
      .leftJoin(TermTranslationEntity, 'tl', 'tl.term_id = t.id AND tl.lang = :language', { language: filter.language })
      .innerJoin(TermTranslationEntity, 'tor', 'tor.term_id = t.id AND tor.lang = t.original_lang')
      .where('t.taxonomy = :taxonomy', { taxonomy: filter.taxonomy });
    if (filter.search !== undefined) {
      const pattern = likeContains(filter.search);
      qb.andWhere(new Brackets((or) => or.where(`LOWER(${name}) LIKE :pattern ESCAPE '!'`, { pattern }).orWhere(`LOWER(${slug}) LIKE :pattern ESCAPE '!'`, { pattern })));
    }
    if (filter.include) qb.andWhere('t.id IN (:...include)', { include: filter.include });
    if (filter.exclude) qb.andWhere('t.id NOT IN (:...exclude)', { exclude: filter.exclude });
    if (filter.ids) qb.andWhere(filter.ids.length > 0 ? 't.id IN (:...ids)' : '1 = 0', { ids: filter.ids });
    if (filter.afterId !== undefined) qb.andWhere('t.id > :afterId', { afterId: filter.afterId });
    if (filter.parent !== undefined) qb.andWhere('t.parent_id = :parent', { parent: filter.parent });
    if (filter.slug !== undefined) {
      qb.andWhere('EXISTS (SELECT 1 FROM term_translations s WHERE s.term_id = t.id AND s.slug = :slug)', { slug: filter.slug });
    }
    if (filter.hideEmpty) qb.andWhere('t.event_count > 0');
    return qb;
  }

  count(filter: TermFilter): Promise<number> {
    return this.filtered(filter).getCount();
  }

  /** One page of terms, in order, with all their translations. */
  async page(filter: TermFilter, offset: number, limit: number): Promise<TermEntity[]> {
    const direction = filter.order === 'desc' ? 'DESC' : 'ASC';
    const qb = this.filtered(filter).select('t.id', 'id');
    const sortKey = this.sortKey(filter);
    qb.addSelect(sortKey, 'sort_key').orderBy('sort_key', direction).addOrderBy('t.id', direction).offset(offset).limit(limit);
    const ids = (await qb.getRawMany<{ id: number }>()).map((row) => Number(row.id));
    return this.findByIds(ids);
  }

  private sortKey(filter: TermFilter): string {
    switch (filter.orderBy) {
      case 'id':
        return 't.id';
      case 'slug':
        return slug;
      case 'count':
        return 't.event_count';
      case 'description':
        return `LOWER(COALESCE(${description}, ''))`;
      case 'parent':
        return 't.parent_id';
      case 'include':
        if (filter.include && filter.include.length > 0) {
          return `CASE ${filter.include.map((id, index) => `WHEN t.id = ${Number(id)} THEN ${index}`).join(' ')} ELSE ${filter.include.length} END`;
        }
        return `LOWER(${name})`;
      default:
        return `LOWER(${name})`;
    }
  }

  /** Terms with their translations, in the order of `ids`. */
  async findByIds(ids: number[], manager?: EntityManager): Promise<TermEntity[]> {
    return this.loader.load(ids, manager);
  }

  /** The counts of published events of terms, by id (a term that is gone is left out); inside a write with `manager`. */
  async countsOf(ids: number[], manager: EntityManager = this.terms.manager): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows: { id: number; event_count: number }[] = await manager.query(`SELECT id, event_count FROM terms WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
    return new Map(rows.map((row) => [Number(row.id), Number(row.event_count)]));
  }

  async findOne(taxonomy: Taxonomy, id: number, manager?: EntityManager): Promise<TermEntity | null> {
    const repository = manager ? manager.getRepository(TermEntity) : this.terms;
    return repository.findOne({ where: { id, taxonomy }, relations: { translations: true } });
  }

  /** Which of `ids` are terms of the taxonomy. */
  async existingIds(taxonomy: Taxonomy, ids: number[], manager: EntityManager = this.terms.manager): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await manager.getRepository(TermEntity).find({ select: { id: true }, where: { taxonomy, id: In(ids) } });
    return new Set(rows.map((row) => row.id));
  }

  /** A term of the taxonomy, other than `exceptId`, whose own text in `language` has this name under `parent`. */
  async findByName(manager: EntityManager, taxonomy: Taxonomy, language: string, parent: number, termName: string, exceptId = 0): Promise<number | null> {
    const row = await manager
      .createQueryBuilder(TermTranslationEntity, 'tr')
      .innerJoin(TermEntity, 't', 't.id = tr.term_id')
      .select('t.id', 'id')
      .where('tr.taxonomy = :taxonomy AND tr.lang = :language AND t.parent_id = :parent AND t.id <> :exceptId', { taxonomy, language, parent, exceptId })
      .andWhere('LOWER(tr.name) = :name', { name: termName.toLowerCase() })
      .getRawOne<{ id: number }>();
    return row ? Number(row.id) : null;
  }

  async findBySlug(manager: EntityManager, taxonomy: Taxonomy, language: string, termSlug: string, exceptId = 0): Promise<number | null> {
    const row = await manager
      .createQueryBuilder(TermTranslationEntity, 'tr')
      .select('tr.term_id', 'id')
      .where('tr.taxonomy = :taxonomy AND tr.lang = :language AND tr.slug = :slug AND tr.term_id <> :exceptId', { taxonomy, language, slug: termSlug, exceptId })
      .getRawOne<{ id: number }>();
    return row ? Number(row.id) : null;
  }

  /** Slugs in use in the taxonomy and language that start with `base`. */
  async slugsLike(manager: EntityManager, taxonomy: Taxonomy, language: string, base: string, exceptId = 0): Promise<Set<string>> {
    const rows = await manager
      .createQueryBuilder(TermTranslationEntity, 'tr')
      .select('tr.slug', 'slug')
      .where('tr.taxonomy = :taxonomy AND tr.lang = :language AND tr.term_id <> :exceptId', { taxonomy, language, exceptId })
      .andWhere(`tr.slug LIKE :pattern ESCAPE '!'`, { pattern: likeStartsWith(base) })
      .getRawMany<{ slug: string }>();
    return new Set(rows.map((row) => row.slug));
  }

  /** The ids and every descendant of the given categories (SPEC §4.4: a category matches its descendants). */
  async withDescendants(ids: number[], manager?: EntityManager): Promise<number[]> {
    const all = new Set(ids);
    let frontier = ids;
    const terms = manager ? manager.getRepository(TermEntity) : this.terms;
    while (frontier.length > 0) {
      const children = await terms.find({ select: { id: true }, where: { taxonomy: 'category', parentId: In(frontier) } });
      frontier = children.map((child) => child.id).filter((id) => !all.has(id));
      frontier.forEach((id) => all.add(id));
    }
    return [...all];
  }

  /**
   * The ancestors of each term, nearest first, read inside `manager`'s transaction: a category filter matches the
   * events of its descendants, so what an event counts for includes its categories' ancestors.
   */
  async ancestors(manager: EntityManager, ids: readonly number[]): Promise<(id: number) => number[]> {
    const parents = new Map<number, number | null>();
    const asked = [...new Set(ids)];
    if (asked.length > 0) {
      // The whole chain of parents in one statement, whatever its depth (MySQL 8, MariaDB 10.2+ and SQLite alike);
      // UNION, not UNION ALL, ends a cycle a row could hold.
      const rows: { id: number; parent_id: number | null }[] = await manager.query(
        `WITH RECURSIVE chain (id, parent_id) AS (SELECT id, parent_id FROM terms WHERE id IN (${asked.map(() => '?').join(', ')}) UNION SELECT t.id, t.parent_id FROM terms t INNER JOIN chain c ON t.id = c.parent_id) SELECT id, parent_id FROM chain`,
        asked,
      );
      for (const row of rows) parents.set(Number(row.id), row.parent_id ? Number(row.parent_id) : null);
    }
    return (id) => {
      const found: number[] = [];
      for (let parent = parents.get(id) ?? null; parent !== null && !found.includes(parent); parent = parents.get(parent) ?? null) found.push(parent);
      return found;
    };
  }

  /** Terms of a taxonomy whose slug (any language) or, for writes, name in `language` is one of `texts`. */
  async findByTexts(taxonomy: Taxonomy, texts: string[], language: string | null, manager?: EntityManager): Promise<{ id: number; slug: string; name: string | null; lang: string }[]> {
    if (texts.length === 0) return [];
    const lowered = texts.map((text) => text.toLowerCase());
    const qb = (manager ?? this.terms.manager)
      .createQueryBuilder(TermTranslationEntity, 'tr')
      .select(['tr.term_id AS id', 'tr.slug AS slug', 'tr.name AS name', 'tr.lang AS lang'])
      .where('tr.taxonomy = :taxonomy', { taxonomy })
      .andWhere(
        new Brackets((any) => {
          any.where('tr.slug IN (:...texts)', { texts });
          if (language !== null) any.orWhere('(tr.lang = :language AND LOWER(tr.name) IN (:...lowered))', { language, lowered });
        }),
      );
    const rows = await qb.getRawMany<{ id: number; slug: string; name: string | null; lang: string }>();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /**
   * Locks the rows of terms whose counts a write is about to compute again, in id order (MySQL; SQLite runs one
   * write at a time). Writes run in READ COMMITTED: a count taken after the lock sees every write that set these
   * counts before, so concurrent writes to events of one term cannot leave it a count that misses one of them.
   */
  async lockForCount(manager: EntityManager, ids: number[]): Promise<void> {
    if (ids.length === 0 || manager.connection.options.type !== 'mysql') return;
    // A row the transaction has locked stays locked until it ends: the event writer locks its terms before writing
    // their links, and the count after the write asks again for the same rows.
    const held = lockedForCount.get(manager) ?? new Set<number>();
    const sorted = [...new Set(ids)].filter((id) => !held.has(id)).sort((a, b) => a - b);
    if (sorted.length === 0) return;
    await manager.query(`SELECT id FROM terms WHERE id IN (${sorted.map(() => '?').join(', ')}) ORDER BY id FOR UPDATE`, sorted);
    for (const id of sorted) held.add(id);
    lockedForCount.set(manager, held);
  }

  /**
   * Moves the published-event counts of terms by `deltas` (term id → events more, or fewer), in one statement, in the
   * transaction that locked their rows (`lockForCount`); a term deleted meanwhile has no row to move. Answers the
   * terms moved.
   */
  async addToCounts(manager: EntityManager, deltas: Map<number, number>): Promise<number[]> {
    const ids = [...deltas].filter(([, delta]) => delta !== 0).map(([id]) => id).sort((a, b) => a - b);
    if (ids.length === 0) return [];
    await manager.query(`UPDATE terms SET event_count = event_count + CASE id ${ids.map(() => 'WHEN ? THEN ?').join(' ')} END WHERE id IN (${ids.map(() => '?').join(', ')})`, [
      ...ids.flatMap((id) => [id, deltas.get(id)]),
      ...ids,
    ]);
    return ids;
  }

  /** Sets the published-event counts of terms, computed by the owner of the event links; answers the terms whose count moved. */
  async setCounts(manager: EntityManager, counts: Map<number, number>): Promise<number[]> {
    if (counts.size === 0) return [];
    const moved = [...(await this.countsOf([...counts.keys()], manager))].filter(([id, count]) => count !== counts.get(id)).map(([id]) => id);
    for (const id of moved) await manager.getRepository(TermEntity).update({ id }, { eventCount: counts.get(id) as number });
    return moved;
  }
}
