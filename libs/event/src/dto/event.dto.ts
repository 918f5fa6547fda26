import { IntersectionType, OmitType, PickType } from '@nestjs/swagger';
import { RecordWriteDto, STATUSES, RecordStatus } from '@calendar/records';
import {
  BooleanParam,
  DateTimeParam,
  HtmlParam,
  IntegerListParam,
  IntegerParam,
  LocalizedDto,
  NumberParam,
  StringListParam,
  SearchParam,
  StringParam,
  SyncQueryDto,
  TimeZoneParam,
  UrlParam,
} from '@calendar/shared/http';
import { LinkItem, LinkListParam, RecurrenceParam, TermListParam } from './event-params';

/** The event's own write fields (SPEC §4.2); all optional here. */
class EventFieldsDto extends RecordWriteDto {
  @HtmlParam({ empty: 'empty-string', description: 'Excerpt (HTML)' })
  excerpt?: string;

  @TimeZoneParam({ description: 'Time zone of the event; the service time zone when absent' })
  timezone?: string;

  @BooleanParam({ description: 'Whether the event lasts whole days (default false)' })
  all_day?: boolean;

  @StringParam({ maxLength: 255, empty: 'empty-string', description: 'Cost as it should read ("15", "Free", "10 – 20 €")' })
  cost?: string;

  @UrlParam({ empty: 'empty-string', description: 'URL of the event site' })
  website?: string;

  @BooleanParam({ description: 'Whether the event shows a map (default true)' })
  show_map?: boolean;

  @BooleanParam({ description: 'Whether the event shows a map link (default true)' })
  show_map_link?: boolean;

  @BooleanParam({ description: 'Whether the event is left out of lists' })
  hide_from_listings?: boolean;

  @BooleanParam({ description: 'Whether the event is pinned' })
  sticky?: boolean;

  @BooleanParam({ description: 'Whether the event is featured' })
  featured?: boolean;

  @TermListParam({ empty: 'null', description: 'Category ids, slugs or names; empty for none' })
  categories?: (number | string)[];

  @TermListParam({ empty: 'null', description: 'Tag ids, slugs or names; empty for none' })
  tags?: (number | string)[];

  @LinkListParam({ description: 'Venue ids, {id} objects or new venues; empty or 0 for none' })
  venue?: LinkItem[];

  @LinkListParam({ description: 'Organizer ids, {id} objects or new organizers, in order; empty or 0 for none' })
  organizer?: LinkItem[];

  @IntegerParam({ empty: 'null', description: 'Id of the parent event; 0 or empty for none' })
  post_parent?: number | null;

  @RecurrenceParam({ description: 'RFC 5545 lines making the event a series: RRULE (FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, WKST), RDATE, EXDATE; empty for a single event' })
  recurrence?: string[];
}

export class CreateEventDto extends EventFieldsDto {
  @StringParam({ required: true, maxLength: 200, description: 'Event title' })
  title: string;

  @DateTimeParam({ required: true, description: 'Start; wall-clock time in the event time zone unless an offset is given' })
  start_date: string;

  @DateTimeParam({ required: true, description: 'End; wall-clock time in the event time zone unless an offset is given' })
  end_date: string;
}

export class UpdateEventDto extends EventFieldsDto {
  @StringParam({ maxLength: 200, description: 'Event title' })
  title?: string;

  @DateTimeParam({ description: 'Start; wall-clock time in the event time zone unless an offset is given' })
  start_date?: string;

  @DateTimeParam({ description: 'End; wall-clock time in the event time zone unless an offset is given' })
  end_date?: string;
}

/** Updates by id also set the password (SPEC §4.5); `""` removes it. */
export class UpdateEventByIdDto extends UpdateEventDto {
  @StringParam({ maxLength: 100, empty: 'empty-string', description: 'Event password; empty to remove it' })
  password?: string;
}

/** Reads and deletes by id may prove access to a protected event. */
export class EventItemDto extends LocalizedDto {
  @StringParam({ maxLength: 100, description: 'The event password' })
  password?: string;
}

export class EventSlugItemDto extends LocalizedDto {}

export class ListEventsQueryDto extends LocalizedDto {
  @IntegerParam({ min: 1, default: 1, description: 'The page of the collection to return' })
  page = 1;

  @IntegerParam({ min: 1, max: 100, default: 10, description: 'Events per page' })
  per_page = 10;

  @DateTimeParam({ description: 'Events starting at or after this date (default: now)' })
  start_date?: string;

  @DateTimeParam({ description: 'Events ending at or before this date (default: now + 2 years)' })
  end_date?: string;

  @DateTimeParam({ description: 'Events starting before this date' })
  starts_before?: string;

  @DateTimeParam({ description: 'Events starting after this date' })
  starts_after?: string;

  @DateTimeParam({ description: 'Events ending before this date' })
  ends_before?: string;

  @DateTimeParam({ description: 'Events ending after this date' })
  ends_after?: string;

  @BooleanParam({ default: false, description: 'Use the date parameters at their exact times instead of whole days' })
  strict_dates = false;

  @DateTimeParam({ description: 'Events whose modified_utc is after this date-time (exclusive; without an offset, in the service time zone)' })
  modified_after?: string;

  @DateTimeParam({ description: 'Events whose modified_utc is before this date-time (exclusive; without an offset, in the service time zone)' })
  modified_before?: string;

  @SearchParam({ description: 'Every word is a word, or the start of one, of the title, excerpt or description in the request language (case and accents ignored; Chinese runs by character pairs)' })
  search?: string;

  @TermListParam({ description: 'Events with any of these categories (ids or slugs); descendants included' })
  categories?: (number | string)[];

  @TermListParam({ description: 'Events with any of these tags (ids or slugs)' })
  tags?: (number | string)[];

  @IntegerListParam({ description: 'Events at any of these venue ids' })
  venue?: number[];

  @IntegerListParam({ description: 'Events with any of these organizer ids' })
  organizer?: number[];

  @BooleanParam({ description: 'true: only featured events; false: only the others' })
  featured?: boolean;

  @StringListParam({ values: STATUSES, description: 'Publication statuses to list' })
  status?: RecordStatus[];

  @BooleanParam({ description: 'true: only events whose venue has coordinates; false: the others' })
  geoloc?: boolean;

  @NumberParam({ min: -90, max: 90, description: 'Latitude of the point to search around (with geoloc_lng)' })
  geoloc_lat?: number;

  @NumberParam({ min: -180, max: 180, description: 'Longitude of the point to search around (with geoloc_lat)' })
  geoloc_lng?: number;

  @NumberParam({ min: 0, exclusiveMin: true, default: 50, description: 'Radius in kilometres around the point' })
  geoloc_radius?: number;

  @IntegerListParam({ description: 'Only these event ids; the date window is then ignored' })
  include?: number[];

  @IntegerParam({ description: 'Children of this event id' })
  post_parent?: number;

  @BooleanParam({ description: 'false: no effect; true is refused (the service sells no tickets)' })
  ticketed?: boolean;
}

/** `GET /events/ics` (SPEC §12): every parameter of the list, with pages of up to 1,000 events (100 by default). */
export class ListEventsFeedQueryDto extends OmitType(ListEventsQueryDto, ['per_page'] as const) {
  @IntegerParam({ min: 1, max: 1000, default: 100, description: 'Events per page of the feed' })
  per_page = 100;
}

/** `GET /events/sync` (SPEC §16.2): the filters of the list a sync of events takes. */
export class SyncEventsQueryDto extends IntersectionType(SyncQueryDto, PickType(ListEventsQueryDto, ['categories', 'tags', 'venue', 'organizer', 'featured', 'post_parent'] as const)) {
  @StringListParam({ values: STATUSES, description: 'Publication statuses to sync (never trash); by default every status the caller may read but trash' })
  status?: RecordStatus[];
}
