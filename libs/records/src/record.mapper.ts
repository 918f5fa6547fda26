import { pickTranslated, RequestContext, translationsKey } from '@calendar/i18n';
import { AppConfig } from '@calendar/shared/config';
import { LinkBuilder, TranslationSummary } from '@calendar/shared/http';
import { formatWpDateTime } from '@calendar/shared/time';
import type { RecordEntity, RecordTranslationEntity } from './entities/record.entity';
import type { RecordKind } from './record-kind';

export interface RecordTexts {
  name: string;
  slug: string;
  description: string;
}

export interface CommonFields {
  id: number;
  global_id: string;
  author: string;
  status: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  url: string;
  rest_url: string;
}

export interface LanguageFields {
  lang: string;
  translations: Record<string, TranslationSummary>;
}

/** Everything a record mapper needs besides the record. */
export interface RecordPresenter {
  links: LinkBuilder;
  config: AppConfig;
}

/** The common fields of SPEC §3.4 and the presented texts of a record, in the request language. */
export function mapRecordCommon<E extends RecordEntity, T extends RecordTranslationEntity>(
  record: E,
  kind: RecordKind<E, T>,
  context: RequestContext,
  { links, config }: RecordPresenter,
): { common: CommonFields; texts: RecordTexts; language: LanguageFields } {
  const { origin, language } = context;
  const picked = pickTranslated(record.translations, ['name', 'slug', 'description'], language, record.originalLang);
  const texts = { name: picked.name ?? '', slug: picked.slug ?? '', description: picked.description ?? '' };
  const ownSlug = record.translations.find((row) => row.lang === language)?.slug ?? texts.slug;
  const zone = config.timezone.zone;
  return {
    common: {
      id: record.id,
      global_id: links.globalId(origin, record.id),
      author: String(record.authorId),
      status: record.status,
      date: formatWpDateTime(record.publishedAt, zone),
      date_utc: formatWpDateTime(record.publishedAt),
      modified: formatWpDateTime(record.modifiedAt, zone),
      modified_utc: formatWpDateTime(record.modifiedAt),
      url: links.site(origin, language, `${kind.sitePath}/${ownSlug}`),
      rest_url: links.rest(origin, language, `${kind.path}/${record.id}`),
    },
    texts,
    language: {
      lang: language,
      translations: translationsKey(record.translations, config.languages, (row) => ({
        slug: row.slug,
        title: row.name ?? texts.name,
        rest_url: links.rest(origin, row.lang, `${kind.path}/${record.id}`),
      })),
    },
  };
}

/** Plain text of HTML, for JSON-LD. */
export function plainText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/blockquote)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
