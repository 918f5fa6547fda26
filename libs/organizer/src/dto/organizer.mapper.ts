import { RequestContext } from '@calendar/i18n';
import { ImageResponse, IMAGE_OR_FALSE, JSON_LD, mapRecordCommon, plainText, presentImage, RecordKind, RecordPresenter, RecordResponse } from '@calendar/records';
import { Field, STRING } from '@calendar/shared/http';
import type { MediaEntity } from '@calendar/records';
import { OrganizerEntity, OrganizerTranslationEntity } from '../entities/organizer.entity';

export const ORGANIZER_KIND: RecordKind<OrganizerEntity, OrganizerTranslationEntity> = {
  kind: 'organizer',
  path: 'organizers',
  sitePath: 'organizer',
  nameKey: 'organizer',
  entity: OrganizerEntity,
  translation: OrganizerTranslationEntity,
  ownerProperty: 'organizerId',
  ownerColumn: 'organizer_id',
  trashedCode: 'organizer-not-accessible',
};

/** The organizer object of SPEC §5.1: what `mapOrganizer` builds, and the model of the API description. */
export class OrganizerResponse extends RecordResponse {
  @Field({ ...STRING, description: 'The name' })
  organizer: string;

  @Field({ ...STRING, description: 'Sanitised HTML' })
  description: string;

  @Field(STRING)
  slug: string;

  @Field(IMAGE_OR_FALSE)
  image: ImageResponse | false;

  @Field(STRING)
  phone: string;

  @Field(STRING)
  website: string;

  @Field(STRING)
  email: string;

  @Field(JSON_LD, false)
  json_ld?: Record<string, unknown>;
}

/** The organizer object of SPEC §5.1; `json_ld` (schema.org Organization) only when asked for. */
export function mapOrganizer(
  organizer: OrganizerEntity,
  context: RequestContext,
  presenter: RecordPresenter,
  image: MediaEntity | null,
  jsonLd: boolean,
): OrganizerResponse {
  const { common, texts, language } = mapRecordCommon(organizer, ORGANIZER_KIND, context, presenter);
  // Every member written out, none spread in, as in mapEvent: an object made of spreads with some thirty members ends
  // in dictionary mode, which costs a venue's or organizer's first rendering (made and serialised) several times more.
  const response: OrganizerResponse = {
    id: common.id,
    global_id: common.global_id,
    author: common.author,
    status: common.status,
    date: common.date,
    date_utc: common.date_utc,
    modified: common.modified,
    modified_utc: common.modified_utc,
    url: common.url,
    rest_url: common.rest_url,
    organizer: texts.name,
    description: texts.description,
    slug: texts.slug,
    image: presentImage(image),
    phone: organizer.phone,
    website: organizer.website,
    email: organizer.email,
    lang: language.lang,
    translations: language.translations,
  };
  if (jsonLd) response.json_ld = organizerJsonLd(response);
  return response;
}

export function organizerJsonLd(organizer: OrganizerResponse): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: organizer.organizer,
    ...(organizer.description ? { description: plainText(organizer.description) } : {}),
    url: organizer.website || organizer.url,
    ...(organizer.phone ? { telephone: organizer.phone } : {}),
    ...(organizer.email ? { email: organizer.email } : {}),
    ...(organizer.image ? { image: organizer.image.url } : {}),
  };
}
