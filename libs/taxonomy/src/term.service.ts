import { Injectable } from '@nestjs/common';
import { cleanExplicitSlug, firstFreeSlug, I18nService, RequestContext, slugFromText } from '@calendar/i18n';
import { can } from '@calendar/shared/auth';
import { ChangeLog, ConditionalWrites, filterDigest, FragmentCache, RecordGuard, SyncSource, TransactionRunner, WriteEffects } from '@calendar/shared/database';
import { ApiException, assertPageExists, isUniqueViolation, JsonTemplate, JsonText, LinkBuilder, ListResult, refuseNonSyncParams, syncBody, SyncQueryDto, VersionsHolder, WritePrecondition } from '@calendar/shared/http';
import { EntityManager } from 'typeorm';
import { ListTermsQuery } from './dto/list-terms.dto';
import { mapTerm, TermResponse } from './dto/term.mapper';
import { TermWrite } from './dto/write-term.dto';
import { TermTranslationEntity } from './entities/term-translation.entity';
import { TermEntity } from './entities/term.entity';
import { TermException } from './term.exception';
import { TermLinkRegistry } from './term-links';
import { TermFilter, TermRepository } from './term.repository';
import { TAXONOMIES, Taxonomy } from './taxonomy';

/** A term as events embed it: its kept JSON text, and its taxonomy as the answer names it. */
export interface EmbeddedTerm {
  taxonomy: string;
  json: JsonText<TermResponse>;
}

/** The rules of categories and tags (SPEC §6, §7). */
@Injectable()
export class TermService {
  constructor(
    private readonly repository: TermRepository,
    private readonly transactions: TransactionRunner,
    private readonly links: LinkBuilder,
    private readonly i18n: I18nService,
    private readonly termLinks: TermLinkRegistry,
    private readonly fragments: FragmentCache,
    private readonly changes: ChangeLog,
    private readonly conditional: ConditionalWrites,
  ) {}

  /**
   * A page of a sync of one taxonomy (SPEC §16.2): every term, as lists show it (empty ones too), in pages of the
   * primary key; then, from the token, the terms changed since (a name, a parent, a count) and tombstones for the
   * deleted ones.
   */
  async sync(taxonomy: Taxonomy, query: SyncQueryDto, raw: Record<string, unknown>, context: RequestContext): Promise<JsonText> {
    refuseNonSyncParams(raw, ['per_page', 'sync_token', 'cursor', 'translation_language'], ['exclude', 'hide_empty', 'post', 'event', 'slug', 'parent']);
    if (query.sync_token !== undefined && query.cursor !== undefined) throw ApiException.invalidParams({ cursor: 'is given alone: it carries the sync_token of the sync it goes on with' });
    const base: TermFilter = { taxonomy, language: context.language, hideEmpty: false, orderBy: 'id', order: 'asc' };
    const present = (terms: TermEntity[]) => terms.map((term) => ({ id: term.id, item: this.present(term, context) }));
    const source: SyncSource<TermResponse> = {
      full: async (afterId, limit) => {
        const terms = await this.repository.page({ ...base, afterId }, 0, limit + 1);
        const shown = terms.slice(0, limit);
        return { items: present(shown), lastId: shown.at(-1)?.id ?? null, more: terms.length > limit };
      },
      changes: async (range) => ({
        ...(await this.changes.changedRecords([taxonomy], range)),
        current: async (ids) => present(await this.repository.page({ ...base, ids }, 0, ids.length)),
      }),
    };
    const scope = { kind: taxonomy, filter: filterDigest(taxonomy, { language: context.language }), caller: context.caller?.id ?? 0 };
    const page = await this.changes.sync(scope, { token: query.sync_token, cursor: query.cursor }, query.per_page, source, context.versions);
    const path = TAXONOMIES[taxonomy].path;
    const address = (extra: Record<string, unknown>) => this.links.rest(context.origin, context.language, `${path}/sync`, { per_page: query.per_page, ...extra });
    return syncBody(path, page.items, address({ sync_token: query.sync_token, cursor: query.cursor }), {
      nextUrl: page.cursor === undefined ? undefined : address({ cursor: page.cursor }),
      token: page.token,
    });
  }

  private present(term: TermEntity, context: RequestContext): TermResponse {
    return mapTerm(term, context, this.links, this.i18n.languages);
  }

  async list(taxonomy: Taxonomy, query: ListTermsQuery, context: RequestContext): Promise<ListResult<TermResponse>> {
    const problems: Record<string, string> = {};
    const filter: TermFilter = {
      taxonomy,
      language: context.language,
      search: query.search,
      include: query.include,
      exclude: query.exclude,
      slug: query.slug,
      hideEmpty: query.hide_empty,
      orderBy: query.orderby,
      order: query.order,
    };
    for (const key of ['include', 'exclude'] as const) {
      const ids = query[key];
      if (!ids) continue;
      const known = await this.repository.existingIds(taxonomy, ids);
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) problems[key] = `must list ids of existing ${TAXONOMIES[taxonomy].path}; unknown: ${unknown.join(', ')}`;
    }
    if (query.parent !== undefined) {
      if (query.parent !== 0 && (await this.repository.existingIds('category', [query.parent])).size === 0) {
        problems['parent'] = 'must be 0 or the id of an existing category';
      }
      filter.parent = query.parent;
    }
    const eventParam = query.event !== undefined ? 'event' : query.post !== undefined ? 'post' : null;
    if (eventParam) {
      const ids = await this.termLinks.termIdsForEvent(query[eventParam] as number);
      if (ids === null) problems[eventParam] = 'must be the id of an existing event';
      else filter.ids = ids;
    }
    if (Object.keys(problems).length > 0) throw ApiException.invalidParams(problems);

    const total = await this.repository.count(filter);
    assertPageExists(TAXONOMIES[taxonomy].kind, query, total);
    const terms = await this.repository.page(filter, (query.page - 1) * query.per_page, query.per_page);
    const { translation_language: _language, page: _page, ...filters } = query;
    const path = TAXONOMIES[taxonomy].path;
    return new ListResult(
      path,
      terms.map((term) => this.present(term, context)),
      total,
      query,
      (page) => this.links.rest(context.origin, context.language, path, { ...filters, page }),
    );
  }

  async get(taxonomy: Taxonomy, id: number, context: RequestContext): Promise<TermResponse> {
    return this.present(await this.require(taxonomy, id), context);
  }

  async create(taxonomy: Taxonomy, input: TermWrite, context: RequestContext): Promise<TermResponse> {
    this.assertMayManage(context);
    const term = await this.write(async (manager) => {
      const parent = taxonomy === 'category' ? await this.checkParent(manager, 0, input.parent ?? 0) : 0;
      const term = manager.getRepository(TermEntity).create({ taxonomy, parentId: parent, originalLang: context.language, eventCount: 0, translations: [] });
      await manager.getRepository(TermEntity).insert(term);
      const translation = manager.getRepository(TermTranslationEntity).create({ termId: term.id, taxonomy, lang: context.language });
      await this.applyTexts(manager, term, translation, input, input.name as string);
      WriteEffects.of(manager).record(taxonomy, term.id, 'created');
      return term.id;
    }, taxonomy);
    return this.get(taxonomy, term, context);
  }

  /** `precondition`: the request's `If-Match` / `If-Unmodified-Since` (SPEC §18). */
  async update(taxonomy: Taxonomy, id: number, input: TermWrite, context: RequestContext, precondition?: WritePrecondition): Promise<TermResponse> {
    await this.conditionally(taxonomy, id, context, precondition, (guard) => this.updateNow(taxonomy, id, input, context, guard));
    return this.get(taxonomy, id, context);
  }

  private async updateNow(taxonomy: Taxonomy, id: number, input: TermWrite, context: RequestContext, guard: RecordGuard | undefined): Promise<void> {
    await this.require(taxonomy, id);
    this.assertMayManage(context);
    await this.write(async (manager) => {
      await guard?.hold(manager);
      const term = (await this.repository.findOne(taxonomy, id, manager)) as TermEntity;
      const changes: Partial<TermEntity> = { modifiedAt: new Date() };
      if (taxonomy === 'category' && input.parent !== undefined) {
        term.parentId = changes.parentId = await this.checkParent(manager, term.id, input.parent ?? 0);
      }
      const touchesTexts = input.name !== undefined || input.description !== undefined || input.slug !== undefined;
      let translation = term.translations.find((row) => row.lang === context.language);
      if (touchesTexts || (changes.parentId !== undefined && translation)) {
        const fallbackName = translation?.name ?? term.translations.find((row) => row.lang === term.originalLang)?.name ?? '';
        translation ??= manager.getRepository(TermTranslationEntity).create({ termId: term.id, taxonomy, lang: context.language, name: null, description: null });
        await this.applyTexts(manager, term, translation, input, input.name ?? fallbackName);
      }
      await manager.getRepository(TermEntity).update({ id }, changes);
      const effects = WriteEffects.of(manager).record(taxonomy, id, 'updated');
      // A category moved in the tree moves its descendants with it: the events under them leave or join the syncs
      // filtered by its old and new ancestors (SPEC §16.2).
      if (changes.parentId !== undefined) effects.touch('category', (await this.repository.withDescendants([id], manager)).filter((other) => other !== id));
    }, taxonomy);
  }

  /**
   * Deletes for good: the term leaves its events, its children move up to its parent. Under `precondition`, only
   * if it holds (SPEC §18).
   */
  remove(taxonomy: Taxonomy, id: number, context: RequestContext, precondition?: WritePrecondition): Promise<TermResponse> {
    return this.conditionally(taxonomy, id, context, precondition, (guard) => this.removeNow(taxonomy, id, context, guard));
  }

  private async removeNow(taxonomy: Taxonomy, id: number, context: RequestContext, guard: RecordGuard | undefined): Promise<TermResponse> {
    const term = await this.require(taxonomy, id);
    this.assertMayManage(context);
    const response = this.present(term, context);
    await this.write(async (manager) => {
      await guard?.hold(manager);
      const effects = WriteEffects.of(manager);
      // The events that carried the term change (SPEC §16.2), and so do the children that move up.
      effects.touch('event', await this.termLinks.eventIdsForTerm(manager, id));
      if (taxonomy === 'category') {
        const children = await manager.getRepository(TermEntity).find({ select: { id: true }, where: { taxonomy: 'category', parentId: id } });
        effects.touch('category', children.map((child) => child.id));
        await manager.getRepository(TermEntity).update({ taxonomy: 'category', parentId: id }, { parentId: term.parentId });
      }
      await manager.getRepository(TermTranslationEntity).delete({ termId: id });
      await manager.getRepository(TermEntity).delete({ id });
      WriteEffects.of(manager).record(taxonomy, id, 'deleted');
    }, taxonomy);
    return response;
  }

  /**
   * The terms a list filter names by id or slug (any language), for categories with their descendants (`named`:
   * the terms named, without them), and the items that name no term, for the 400; kept per version of the terms.
   */
  resolveFilter(taxonomy: Taxonomy, items: (number | string)[], read: VersionsHolder): Promise<{ ids: number[]; named: number[]; unknown: (number | string)[] }> {
    return this.fragments.value('terms', `filter ${taxonomy} ${JSON.stringify(items)}`, read, async () => {
      const { ids, unknown } = await this.lookUp(taxonomy, items);
      return { ids: taxonomy === 'category' ? await this.repository.withDescendants(ids) : ids, named: ids, unknown };
    });
  }

  /** The ids of the terms that items (ids or slugs) name, each once, and the items that name none. */
  private async lookUp(taxonomy: Taxonomy, items: (number | string)[]): Promise<{ ids: number[]; unknown: (number | string)[] }> {
    const numbers = items.filter((item): item is number => typeof item === 'number');
    const texts = items.filter((item): item is string => typeof item === 'string');
    const known = await this.repository.existingIds(taxonomy, numbers);
    const bySlug = await this.repository.findByTexts(taxonomy, texts, null);
    const unknown = [...numbers.filter((id) => !known.has(id)), ...texts.filter((text) => !bySlug.some((row) => row.slug === text))];
    return { ids: [...new Set([...known, ...bySlug.map((row) => row.id)])], unknown };
  }

  /** The names, in the request's language, of the terms a filter names (ids or slugs; descendants not added). */
  namesOf(taxonomy: Taxonomy, items: (number | string)[], context: RequestContext): Promise<string[]> {
    // Kept per version of the terms, as the filters are.
    return this.fragments.value('terms', `names ${taxonomy} ${context.language} ${JSON.stringify(items)}`, context.versions, async () => {
      const { ids } = await this.lookUp(taxonomy, items);
      const terms = await this.presentByIds(ids, context);
      return ids.flatMap((id) => {
        const term = terms.get(id);
        return term ? [term.json.toJSON().name] : [];
      });
    });
  }

  /**
   * The term ids of a write (SPEC §4.2): ids, slugs or names; an unknown name creates the term when the caller
   * may manage terms. Throws a 400 naming `param` otherwise.
   */
  async resolveForWrite(manager: EntityManager, taxonomy: Taxonomy, items: (number | string)[], context: RequestContext, param: string): Promise<number[]> {
    const numbers = items.filter((item): item is number => typeof item === 'number');
    const known = await this.repository.existingIds(taxonomy, numbers, manager);
    const missingIds = numbers.filter((id) => !known.has(id));
    if (missingIds.length > 0) throw ApiException.invalidParams({ [param]: `must name existing ${TAXONOMIES[taxonomy].path}; unknown ids: ${missingIds.join(', ')}` });
    const texts = items.filter((item): item is string => typeof item === 'string');
    const rows = await this.repository.findByTexts(taxonomy, texts, context.language, manager);
    const ids: number[] = [];
    for (const item of items) {
      if (typeof item === 'number') {
        ids.push(item);
        continue;
      }
      const match = rows.find((row) => row.slug === item) ?? rows.find((row) => row.lang === context.language && row.name?.toLowerCase() === item.toLowerCase());
      if (match) {
        ids.push(match.id);
        continue;
      }
      if (!can.manageTerms(context.caller)) throw ApiException.invalidParams({ [param]: `must name existing ${TAXONOMIES[taxonomy].path}; unknown: ${item}` });
      const term = manager.getRepository(TermEntity).create({ taxonomy, parentId: 0, originalLang: context.language, eventCount: 0, translations: [] });
      await manager.getRepository(TermEntity).insert(term);
      const translation = manager.getRepository(TermTranslationEntity).create({ termId: term.id, taxonomy, lang: context.language });
      await this.applyTexts(manager, term, translation, { name: item }, item);
      // Made for the event being written: its own change, and term answers' version moves on.
      WriteEffects.of(manager).record(taxonomy, term.id, 'created').movePart('terms');
      ids.push(term.id);
    }
    return [...new Set(ids)];
  }

  /**
   * Terms rendered for embedding, once per version of the terms and language (FragmentCache), kept as their JSON
   * text with the count open, and their taxonomy (`tribe_events_cat` or `post_tag`, which the event member they go
   * in depends on). The counts move with writes of events, not of terms: they are kept apart, per write (one
   * statement reads those of a page's terms after a write), and filled in, so that a write of an event renders no
   * term again.
   */
  async presentByIds(ids: number[], context: RequestContext): Promise<Map<number, EmbeddedTerm>> {
    const kept = await this.fragments.many('terms', context.language, ids, context, async (missing) => {
      const terms = await this.repository.findByIds(missing);
      return new Map(
        terms.map((term) => {
          const response = this.present(term, context);
          const template = JsonTemplate.of<'count'>(response, ['count']);
          // The text at the count last filled in, made at once: kept with the template (counted in its size twice
          // over), it is filled again only when the count moves.
          return [term.id, { taxonomy: response.taxonomy, template, filled: { count: response.count, json: new JsonText<TermResponse>(template.fill({ count: String(response.count) })) } }];
        }),
      );
    });
    const counts = await this.fragments.many('term counts', '', [...kept.keys()], context, (missing) => this.repository.countsOf(missing));
    const embedded = new Map<number, EmbeddedTerm>();
    for (const [id, rendering] of kept) {
      const count = counts.get(id);
      // A term deleted since its rendering was kept has no count: it is gone.
      if (count === undefined) continue;
      if (rendering.filled.count !== count) rendering.filled = { count, json: new JsonText<TermResponse>(rendering.template.fill({ count: String(count) })) };
      embedded.set(id, { taxonomy: rendering.taxonomy, json: rendering.filled.json });
    }
    return embedded;
  }

  private async require(taxonomy: Taxonomy, id: number): Promise<TermEntity> {
    const term = await this.repository.findOne(taxonomy, id);
    if (!term) throw TermException.notFound(taxonomy);
    return term;
  }

  private assertMayManage(context: RequestContext): void {
    if (!can.manageTerms(context.caller)) throw ApiException.forbidden();
  }

  /** One transaction; a slug or name taken by a concurrent write is reported as the conflict it is. */
  private async write<T>(work: (manager: EntityManager) => Promise<T>, taxonomy: Taxonomy): Promise<T> {
    try {
      return await this.transactions.run((manager) => {
        WriteEffects.of(manager).movePart('terms');
        return work(manager);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new TermException(409, 'term-exists', `A ${taxonomy} with that name or slug already exists.`);
      throw error;
    }
  }

  /** Runs a write of the term under its precondition, checked against what a GET of the term answers (SPEC §18). */
  private conditionally<T>(taxonomy: Taxonomy, id: number, context: RequestContext, precondition: WritePrecondition | undefined, write: (guard?: RecordGuard) => Promise<T>): Promise<T> {
    const condition = { precondition, current: (scope: RequestContext) => this.get(taxonomy, id, scope) };
    return this.conditional.run(condition, { kind: { kind: taxonomy, table: 'terms' }, id, scope: context }, write);
  }

  /** A parent must be 0 or an existing category that is not the term itself nor one of its descendants. */
  private async checkParent(manager: EntityManager, termId: number, parent: number): Promise<number> {
    if (parent === 0) return 0;
    const exists = (await this.repository.existingIds('category', [parent], manager)).size > 0;
    if (!exists) throw ApiException.invalidParams({ parent: 'must be 0 or the id of an existing category' });
    if (termId !== 0 && (parent === termId || (await this.repository.ancestors(manager, [parent]))(parent).includes(termId))) {
      throw ApiException.invalidParams({ parent: 'must not be the category itself or one of its descendants' });
    }
    return parent;
  }

  /** Writes the texts of one language: uniqueness of name (same parent) and slug in that language, slug made when needed. */
  private async applyTexts(manager: EntityManager, term: TermEntity, translation: TermTranslationEntity, input: TermWrite, effectiveName: string): Promise<void> {
    const language = translation.lang;
    if (input.name !== undefined) translation.name = input.name;
    if (input.description !== undefined) translation.description = input.description;
    const ownName = translation.name;
    if (ownName) {
      const clash = await this.repository.findByName(manager, term.taxonomy, language, term.parentId, ownName, term.id);
      if (clash !== null) throw TermException.exists(clash, 'name');
    }
    if (input.slug !== undefined && input.slug !== '') {
      const slug = cleanExplicitSlug(input.slug);
      if (slug === '') throw ApiException.invalidParams({ slug: 'must contain at least one letter or digit' });
      const clash = await this.repository.findBySlug(manager, term.taxonomy, language, slug, term.id);
      if (clash !== null) throw TermException.exists(clash, 'slug');
      translation.slug = slug;
    } else if (input.slug === '' || !translation.slug) {
      // A slug is made once, from the name in its own language; renaming keeps it, so URLs stay stable.
      const base = slugFromText(effectiveName) || String(term.id);
      translation.slug = firstFreeSlug(base, await this.repository.slugsLike(manager, term.taxonomy, language, base, term.id));
    }
    await manager.getRepository(TermTranslationEntity).save(translation);
  }
}
