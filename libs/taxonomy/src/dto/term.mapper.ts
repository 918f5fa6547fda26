import { pickTranslated, RequestContext, translationsKey } from '@calendar/i18n';
import { LinkBuilder } from '@calendar/shared/http';
import type { TermEntity } from '../entities/term.entity';
import { TAXONOMIES } from '../taxonomy';

export interface TermResponse {
  id: number;
  name: string;
  slug: string;
  description: string;
  taxonomy: string;
  parent?: number;
  count: number;
  url: string;
  rest_url: string;
  urls: { self: string; collection: string; up?: string };
  lang: string;
  translations: Record<string, Record<string, unknown>>;
}

/** The term object of SPEC §6.1, presented in the request language. */
export function mapTerm(term: TermEntity, context: RequestContext, links: LinkBuilder, languages: readonly string[]): TermResponse {
  const info = TAXONOMIES[term.taxonomy];
  const { language, request } = context;
  const texts = pickTranslated(term.translations, ['name', 'slug', 'description'], language, term.originalLang);
  const self = links.rest(request, language, `${info.path}/${term.id}`);
  const slugIn = (lang: string) => term.translations.find((row) => row.lang === lang)?.slug ?? texts.slug ?? '';
  const response: TermResponse = {
    id: term.id,
    name: texts.name ?? '',
    slug: texts.slug ?? '',
    description: texts.description ?? '',
    taxonomy: info.wpName,
    ...(term.taxonomy === 'category' ? { parent: term.parentId } : {}),
    count: term.eventCount,
    url: links.site(request, language, `${info.sitePath}/${slugIn(language)}`),
    rest_url: self,
    urls: {
      self,
      collection: links.rest(request, language, info.path),
      ...(term.parentId !== 0 ? { up: links.rest(request, language, `${info.path}/${term.parentId}`) } : {}),
    },
    lang: language,
    translations: translationsKey(term.translations, languages, (row) => ({
      slug: row.slug,
      title: row.name ?? texts.name ?? '',
      rest_url: links.rest(request, row.lang, `${info.path}/${term.id}`),
    })),
  };
  return response;
}
