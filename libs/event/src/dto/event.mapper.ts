import { RequestContext } from '@calendar/i18n';
import { ImageResponse, IMAGE_OR_FALSE, JSON_LD, mapRecordCommon, plainText, presentImage, RecordKind, RecordPresenter, RecordResponse } from '@calendar/records';
import { arrayOf, BOOLEAN, Field, INTEGER, ref, STRING, WALL_CLOCK } from '@calendar/shared/http';
import { ApiExtraModels } from '@nestjs/swagger';
import type { MediaEntity } from '@calendar/records';
import { organizerJsonLd, OrganizerResponse } from '@calendar/organizer';
import { TermResponse } from '@calendar/taxonomy';
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

/** The event object of SPEC §4.1: what `mapEvent` builds, and the model of the API description. */
@ApiExtraModels(DateDetails, CostDetails, TermResponse, VenueResponse, OrganizerResponse)
export class EventResponse extends RecordResponse {
  @Field(STRING)
  title: string;

  @Field({ ...STRING, description: 'Sanitised HTML; empty while the event is locked by its password' })
  description: string;

  @Field(STRING)
  excerpt: string;

  @Field(STRING)
  slug: string;

  @Field(IMAGE_OR_FALSE)
  image: ImageResponse | false;

  @Field(BOOLEAN)
  all_day: boolean;

  @Field({ ...WALL_CLOCK, description: 'Wall-clock time in the time zone of the event' })
  start_date: string;

  @Field(ref(DateDetails))
  start_date_details: DateDetails;

  @Field({ ...WALL_CLOCK, description: 'Wall-clock time in the time zone of the event' })
  end_date: string;

  @Field(ref(DateDetails))
  end_date_details: DateDetails;

  @Field({ ...WALL_CLOCK, description: 'Wall-clock time in UTC' })
  utc_start_date: string;

  @Field(ref(DateDetails))
  utc_start_date_details: DateDetails;

  @Field({ ...WALL_CLOCK, description: 'Wall-clock time in UTC' })
  utc_end_date: string;

  @Field(ref(DateDetails))
  utc_end_date_details: DateDetails;

  @Field({ ...STRING, description: 'IANA name or UTC±H[:MM]' })
  timezone: string;

  @Field(STRING)
  timezone_abbr: string;

  @Field(STRING)
  cost: string;

  @Field(ref(CostDetails))
  cost_details: CostDetails;

  @Field(STRING)
  website: string;

  @Field(BOOLEAN)
  show_map: boolean;

  @Field(BOOLEAN)
  show_map_link: boolean;

  @Field(BOOLEAN)
  hide_from_listings: boolean;

  @Field(BOOLEAN)
  sticky: boolean;

  @Field(BOOLEAN)
  featured: boolean;

  @Field(arrayOf(ref(TermResponse)))
  categories: TermResponse[];

  @Field(arrayOf(ref(TermResponse)))
  tags: TermResponse[];

  @Field({ oneOf: [ref(VenueResponse), arrayOf(ref(VenueResponse))], description: 'The venue, or a list when the event has none or several' })
  venue: VenueResponse | VenueResponse[];

  @Field(arrayOf(ref(OrganizerResponse)))
  organizer: OrganizerResponse[];

  @Field({ ...INTEGER, description: 'The parent event, 0 for none; an occurrence\'s is its series\' head' })
  post_parent: number;

  @Field({ ...arrayOf(STRING), description: 'The series\' RFC 5545 lines (RRULE, RDATE, EXDATE) as normalised; empty for an event that does not recur' })
  recurrence: string[];

  @Field(JSON_LD, false)
  json_ld?: Record<string, unknown>;
}

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
  // Every member written out, none spread in: V8 then makes the object at once from the literal's shape. Spread in,
  // the object is a copy of `common` to which the other 30 members are added one by one, its property store grown
  // as they come: about six times slower to make (docs/benchmarks-notes.md).
  const response: EventResponse = {
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
    recurrence: event.recurrence ? event.recurrence.split('\n') : [],
    lang: language.lang,
    translations: language.translations,
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

/** The JSON texts of an event's own JSON-LD members: `head` without its closing brace, `tail` without its opening one. */
export interface EventJsonLdOwnTexts {
  head: string;
  tail: string;
}

export function eventJsonLdOwnTexts(own: EventJsonLdOwn): EventJsonLdOwnTexts {
  return { head: JSON.stringify(own.head).slice(0, -1), tail: JSON.stringify(own.tail).slice(1) };
}

/** The JSON text of a venue's schema.org Place as an event's `location` (without its own `@context`). */
export function placeJsonLdText(venue: VenueResponse): string {
  return JSON.stringify(withoutContext(venueJsonLd(venue)));
}

/** The JSON text of an organizer's schema.org Organization as one of an event's `organizer` (without `@context`). */
export function organizerJsonLdText(organizer: OrganizerResponse): string {
  return JSON.stringify(withoutContext(organizerJsonLd(organizer)));
}

/**
 * `JSON.stringify(eventJsonLd(own, venues, organizers))` made from the JSON texts of its parts, which a caller may
 * keep with what they come from: `place` is the first venue's (`placeJsonLdText`), `organizers` the organizers'.
 */
export function eventJsonLdText(own: EventJsonLdOwnTexts, place: string | undefined, organizers: string[]): string {
  const location = place === undefined ? '' : `,"location":${place}`;
  const organizer = organizers.length > 0 ? `,"organizer":[${organizers.join(',')}]` : '';
  return `${own.head}${location}${organizer}${own.tail === '}' ? '}' : `,${own.tail}`}`;
}
