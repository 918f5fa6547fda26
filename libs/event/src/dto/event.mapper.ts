import { RequestContext } from '@calendar/i18n';
import { CommonFields, ImageResponse, LanguageFields, mapRecordCommon, plainText, presentImage, RecordKind, RecordPresenter } from '@calendar/records';
import type { MediaEntity } from '@calendar/records';
import { organizerJsonLd, OrganizerResponse } from '@calendar/organizer';
import type { TermResponse } from '@calendar/taxonomy';
import { utcWallClock, zonedWallClock } from '@calendar/shared/time';
import { venueJsonLd, VenueResponse } from '@calendar/venue';
import { DateTime } from 'luxon';
import { CostDetails, parseCost } from '../cost';
import { DateDetails, eventZone, timezoneAbbreviation, wallDetails } from '../event-dates';
import { EventEntity, EventTranslationEntity } from '../entities/event.entity';

export const EVENT_KIND: RecordKind<EventEntity, EventTranslationEntity> = {
  kind: 'event',
  path: 'events',
  sitePath: 'event',
  nameKey: 'title',
  entity: EventEntity,
  translation: EventTranslationEntity,
  ownerProperty: 'eventId',
  ownerColumn: 'event_id',
  trashedCode: 'event-no-longer-available',
  extraTexts: ['excerpt'],
  revised: true,
};

export type EventResponse = CommonFields & {
  title: string;
  description: string;
  excerpt: string;
  slug: string;
  image: ImageResponse | false;
  all_day: boolean;
  start_date: string;
  start_date_details: DateDetails;
  end_date: string;
  end_date_details: DateDetails;
  utc_start_date: string;
  utc_start_date_details: DateDetails;
  utc_end_date: string;
  utc_end_date_details: DateDetails;
  timezone: string;
  timezone_abbr: string;
  cost: string;
  cost_details: CostDetails;
  website: string;
  show_map: boolean;
  show_map_link: boolean;
  hide_from_listings: boolean;
  sticky: boolean;
  featured: boolean;
  categories: TermResponse[];
  tags: TermResponse[];
  venue: VenueResponse | VenueResponse[];
  organizer: OrganizerResponse[];
  post_parent: number;
} & LanguageFields & { json_ld?: Record<string, unknown> };

export interface EventEmbeds {
  image: MediaEntity | null;
  venues: VenueResponse[];
  organizers: OrganizerResponse[];
  categories: TermResponse[];
  tags: TermResponse[];
  /** The event is password-protected and the caller has not proven access (SPEC §4.7). */
  locked: boolean;
}

/** The event object of SPEC §4.1; protected fields blanked when locked; `json_ld` only when asked for. */
export function mapEvent(event: EventEntity, context: RequestContext, presenter: RecordPresenter, embeds: EventEmbeds, jsonLd: boolean): EventResponse {
  const { common, texts, language } = mapRecordCommon(event, EVENT_KIND, context, presenter);
  const zone = eventZone(event.timezone);
  const [startWall, endWall] = [zonedWallClock(event.startUtc, zone.zone), zonedWallClock(event.endUtc, zone.zone)];
  const [startUtc, endUtc] = [utcWallClock(event.startUtc), utcWallClock(event.endUtc)];
  const locked = embeds.locked;
  const excerpt = event.translations.find((row) => row.lang === context.language)?.excerpt || event.translations.find((row) => row.lang === event.originalLang)?.excerpt || '';
  const cost = locked ? '' : event.cost;
  const venues = locked ? [] : embeds.venues;
  const response: EventResponse = {
    ...common,
    title: texts.name,
    description: locked ? '' : texts.description,
    excerpt: locked ? '' : excerpt,
    slug: texts.slug,
    image: locked ? false : presentImage(embeds.image),
    all_day: Boolean(event.allDay),
    start_date: startWall,
    start_date_details: wallDetails(startWall),
    end_date: endWall,
    end_date_details: wallDetails(endWall),
    utc_start_date: startUtc,
    utc_start_date_details: wallDetails(startUtc),
    utc_end_date: endUtc,
    utc_end_date_details: wallDetails(endUtc),
    timezone: zone.name,
    timezone_abbr: timezoneAbbreviation(event.startUtc, zone),
    cost,
    cost_details: parseCost(cost),
    website: locked ? '' : event.website,
    show_map: Boolean(event.showMap),
    show_map_link: Boolean(event.showMapLink),
    hide_from_listings: Boolean(event.hideFromListings),
    sticky: Boolean(event.sticky),
    featured: Boolean(event.featured),
    categories: locked ? [] : embeds.categories,
    tags: locked ? [] : embeds.tags,
    venue: venues.length === 1 ? venues[0] : venues,
    organizer: locked ? [] : embeds.organizers,
    post_parent: event.postParent,
    ...language,
  };
  if (jsonLd && !locked) response.json_ld = eventJsonLd(eventJsonLdOwn(response, event), venues, embeds.organizers);
  return response;
}

function withoutContext(value: Record<string, unknown>): Record<string, unknown> {
  const { '@context': _context, ...rest } = value;
  return rest;
}

/** The members of an event's schema.org JSON-LD that come from the event alone: before and after its place and organizers. */
export interface EventJsonLdOwn {
  head: Record<string, unknown>;
  tail: Record<string, unknown>;
}

export function eventJsonLdOwn(event: EventResponse, entity: EventEntity): EventJsonLdOwn {
  const zone = eventZone(entity.timezone).zone;
  const [start, end] = [DateTime.fromJSDate(entity.startUtc, { zone }), DateTime.fromJSDate(entity.endUtc, { zone })];
  const text = plainText(event.excerpt || event.description);
  const offers = event.cost_details.values.length > 0;
  return {
    head: {
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: event.title,
      ...(text ? { description: text } : {}),
      url: event.url,
      startDate: start.toISO({ suppressMilliseconds: true }),
      endDate: end.toISO({ suppressMilliseconds: true }),
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    },
    tail: {
      ...(offers
        ? {
            offers: {
              '@type': 'Offer',
              price: event.cost_details.values[0],
              ...(event.cost_details.currency_code ? { priceCurrency: event.cost_details.currency_code } : {}),
              url: event.url,
            },
          }
        : {}),
      ...(event.image ? { image: event.image.url } : {}),
    },
  };
}

/** schema.org Event (SPEC §4.1, §11.9): the event's own members with its first venue as place and its organizers. */
export function eventJsonLd(own: EventJsonLdOwn, venues: VenueResponse[], organizers: OrganizerResponse[]): Record<string, unknown> {
  const venue = venues[0];
  return {
    ...own.head,
    ...(venue ? { location: withoutContext(venueJsonLd(venue)) } : {}),
    ...(organizers.length > 0 ? { organizer: organizers.map((organizer) => withoutContext(organizerJsonLd(organizer))) } : {}),
    ...own.tail,
  };
}
