import { RequestContext } from '@calendar/i18n';
import { CommonFields, ImageResponse, LanguageFields, mapRecordCommon, plainText, presentImage, RecordKind, RecordPresenter } from '@calendar/records';
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

export type VenueResponse = CommonFields & {
  venue: string;
  description: string;
  slug: string;
  image: ImageResponse | false;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  stateprovince: string;
  website: string;
  show_map: boolean;
  show_map_link: boolean;
  geo_lat: number | null;
  geo_lng: number | null;
} & LanguageFields & { json_ld?: Record<string, unknown> };

/** The venue object of SPEC §5.1; `json_ld` (schema.org Place) only when asked for. */
export function mapVenue(venue: VenueEntity, context: RequestContext, presenter: RecordPresenter, image: MediaEntity | null, jsonLd: boolean): VenueResponse {
  const { common, texts, language } = mapRecordCommon(venue, VENUE_KIND, context, presenter);
  const response: VenueResponse = {
    ...common,
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
    ...language,
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
