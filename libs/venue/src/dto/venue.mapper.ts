import { RequestContext } from '@calendar/i18n';
import { ImageResponse, IMAGE_OR_FALSE, JSON_LD, mapRecordCommon, plainText, presentImage, RecordKind, RecordPresenter, RecordResponse } from '@calendar/records';
import { BOOLEAN, Field, nullable, NUMBER, STRING } from '@calendar/shared/http';
import type { MediaEntity } from '@calendar/records';
import { VenueEntity, VenueTranslationEntity } from '../entities/venue.entity';

export const VENUE_KIND: RecordKind<VenueEntity, VenueTranslationEntity> = {
  kind: 'venue',
  path: 'venues',
  sitePath: 'venue',
  nameKey: 'venue',
  entity: VenueEntity,
  translation: VenueTranslationEntity,
  ownerProperty: 'venueId',
  ownerColumn: 'venue_id',
  trashedCode: 'venue-not-accessible',
};

/** The venue object of SPEC §5.1: what `mapVenue` builds, and the model of the API description. */
export class VenueResponse extends RecordResponse {
  @Field({ ...STRING, description: 'The name' })
  venue: string;

  @Field({ ...STRING, description: 'Sanitised HTML' })
  description: string;

  @Field(STRING)
  slug: string;

  @Field(IMAGE_OR_FALSE)
  image: ImageResponse | false;

  @Field(STRING)
  address: string;

  @Field(STRING)
  city: string;

  @Field(STRING)
  country: string;

  @Field(STRING)
  province: string;

  @Field(STRING)
  state: string;

  @Field(STRING)
  zip: string;

  @Field(STRING)
  phone: string;

  @Field(STRING)
  stateprovince: string;

  @Field(STRING)
  website: string;

  @Field(BOOLEAN)
  show_map: boolean;

  @Field(BOOLEAN)
  show_map_link: boolean;

  @Field(nullable(NUMBER))
  geo_lat: number | null;

  @Field(nullable(NUMBER))
  geo_lng: number | null;

  @Field(JSON_LD, false)
  json_ld?: Record<string, unknown>;
}

/** The venue object of SPEC §5.1; `json_ld` (schema.org Place) only when asked for. */
export function mapVenue(venue: VenueEntity, context: RequestContext, presenter: RecordPresenter, image: MediaEntity | null, jsonLd: boolean): VenueResponse {
  const { common, texts, language } = mapRecordCommon(venue, VENUE_KIND, context, presenter);
  // Every member written out, none spread in, as in mapEvent: an object made of spreads with some thirty members ends
  // in dictionary mode, which costs a venue's or organizer's first rendering (made and serialised) several times more.
  const response: VenueResponse = {
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
    venue: texts.name,
    description: texts.description,
    slug: texts.slug,
    image: presentImage(image),
    address: venue.address,
    city: venue.city,
    country: venue.country,
    province: venue.province,
    state: venue.state,
    zip: venue.zip,
    phone: venue.phone,
    stateprovince: venue.stateprovince,
    website: venue.website,
    show_map: Boolean(venue.showMap),
    show_map_link: Boolean(venue.showMapLink),
    geo_lat: venue.geoLat === null ? null : Number(venue.geoLat),
    geo_lng: venue.geoLng === null ? null : Number(venue.geoLng),
    lang: language.lang,
    translations: language.translations,
  };
  if (jsonLd) response.json_ld = venueJsonLd(response);
  return response;
}

export function venueJsonLd(venue: VenueResponse): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Place',
    name: venue.venue,
    ...(venue.description ? { description: plainText(venue.description) } : {}),
    url: venue.url,
    address: {
      '@type': 'PostalAddress',
      streetAddress: venue.address,
      addressLocality: venue.city,
      addressRegion: venue.stateprovince,
      postalCode: venue.zip,
      addressCountry: venue.country,
    },
    ...(venue.geo_lat !== null && venue.geo_lng !== null ? { geo: { '@type': 'GeoCoordinates', latitude: venue.geo_lat, longitude: venue.geo_lng } } : {}),
    ...(venue.phone ? { telephone: venue.phone } : {}),
    ...(venue.website ? { sameAs: venue.website } : {}),
    ...(venue.image ? { image: venue.image.url } : {}),
  };
}
