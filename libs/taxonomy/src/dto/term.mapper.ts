import { pickTranslated, RequestContext, translationsKey } from '@calendar/i18n';
import { Field, INTEGER, LinkBuilder, ref, STRING, TRANSLATIONS, TranslationSummary, URI } from '@calendar/shared/http';
import { ApiExtraModels } from '@nestjs/swagger';
import type { TermEntity } from '../entities/term.entity';
import { TAXONOMIES } from '../taxonomy';

/** The links of a term (`urls`). */
export class TermUrls {
  @Field(URI)
  self: string;

  @Field(URI)
  collection: string;

  @Field({ ...URI, description: 'The parent category' }, false)
  up?: string;
}

/** The term object of SPEC §6.1 (categories and tags): what `mapTerm` builds, and the model of the API description. */
@ApiExtraModels(TermUrls, TranslationSummary)
export class TermResponse {
  @Field(INTEGER)
  id: number;

  @Field(STRING)
  name: string;

  @Field(STRING)
  slug: string;

  @Field(STRING)
  description: string;

  @Field({ type: 'string', enum: ['tribe_events_cat', 'post_tag'] })
  taxonomy: string;

  @Field({ ...INTEGER, description: 'Categories only: the parent category, 0 for none' }, false)
  parent?: number;

  @Field({ ...INTEGER, description: 'Published events in the term' })
  count: number;

  @Field(URI)
  url: string;

  @Field(URI)
  rest_url: string;

  @Field(ref(TermUrls))
  urls: TermUrls;

  @Field(STRING)
  lang: string;

  @Field(TRANSLATIONS)
  translations: Record<string, TranslationSummary>;
}

/** The term object of SPEC §6.1, presented in the request language. */
export function mapTerm(term: TermEntity, context: RequestContext, links: LinkBuilder, languages: readonly string[]): TermResponse {
  const info = TAXONOMIES[term.taxonomy];
  const { language, origin } = context;
  const texts = pickTranslated(term.translations, ['name', 'slug', 'description'], language, term.originalLang);
  const self = links.rest(origin, language, `${info.path}/${term.id}`);
  const slugIn = (lang: string) => term.translations.find((row) => row.lang === lang)?.slug ?? texts.slug ?? '';
  const response: TermResponse = {
    id: term.id,
    name: texts.name ?? '',
    slug: texts.slug ?? '',
    description: texts.description ?? '',
    taxonomy: info.wpName,
    ...(term.taxonomy === 'category' ? { parent: term.parentId } : {}),
    count: term.eventCount,
    url: links.site(origin, language, `${info.sitePath}/${slugIn(language)}`),
    rest_url: self,
    urls: {
      self,
      collection: links.rest(origin, language, info.path),
      ...(term.parentId !== 0 ? { up: links.rest(origin, language, `${info.path}/${term.parentId}`) } : {}),
    },
    lang: language,
    translations: translationsKey(term.translations, languages, (row) => ({
      slug: row.slug,
      title: row.name ?? texts.name ?? '',
      rest_url: links.rest(origin, row.lang, `${info.path}/${term.id}`),
    })),
  };
  return response;
}
