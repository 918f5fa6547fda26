import {
  BooleanParam,
  DateTimeParam,
  EnumParam,
  HtmlParam,
  IntegerParam,
  LocalizedDto,
  StringListParam,
  SearchParam,
  StringParam,
  SyncQueryDto,
} from '@calendar/shared/http';
import { ImageParam } from '../media/image.param';
import { RecordStatus, STATUSES, WRITABLE_STATUSES } from '../record-status';

/** The list parameters venues and organizers share (SPEC §5.3). */
export class ListRecordsQueryDto extends LocalizedDto {
  @IntegerParam({ min: 1, default: 1, description: 'The page of the collection to return' })
  page = 1;

  @IntegerParam({ min: 1, max: 100, default: 10, description: 'Records per page' })
  per_page = 10;

  @SearchParam({ description: 'Every word is a word, or the start of one, of the name, description or another searchable field (case and accents ignored; Chinese runs by character pairs)' })
  search?: string;

  @IntegerParam({ description: 'Only those linked to this event id' })
  event?: number;

  @BooleanParam({ description: 'true: linked to at least one event that is not a draft, pending or trashed; false: the others' })
  has_events?: boolean;

  @BooleanParam({ default: false, description: 'true: linked to at least one visible event that has not ended yet' })
  only_with_upcoming = false;

  @StringListParam({ values: STATUSES, description: 'Publication statuses to list' })
  status?: RecordStatus[];

  @DateTimeParam({ description: 'Records whose modified_utc is after this date-time (exclusive; without an offset, in the service time zone)' })
  modified_after?: string;

  @DateTimeParam({ description: 'Records whose modified_utc is before this date-time (exclusive; without an offset, in the service time zone)' })
  modified_before?: string;
}

/** `GET /venues/sync`, `/organizers/sync` (SPEC §16.2): a sync of records takes their status and the language. */
export class SyncRecordsQueryDto extends SyncQueryDto {
  @StringListParam({ values: STATUSES, description: 'Publication statuses to sync (never trash); by default every status the caller may read but trash' })
  status?: RecordStatus[];
}

/** The write fields every record kind shares (SPEC §4.2, §5.2). */
export class RecordWriteDto extends LocalizedDto {
  @IntegerParam({ description: 'Id of the owner; only editors and administrators may name another user' })
  author?: number;

  @DateTimeParam({ description: 'Publication date, in the service time zone' })
  date?: string;

  @DateTimeParam({ description: 'Publication date in UTC' })
  date_utc?: string;

  @HtmlParam({ empty: 'empty-string', description: 'Description (HTML)' })
  description?: string;

  @EnumParam(WRITABLE_STATUSES, { description: 'Publication status' })
  status?: RecordStatus;

  @StringParam({ maxLength: 200, empty: 'empty-string', description: 'Slug, unique per language; made from the name when absent' })
  slug?: string;

  @ImageParam({ description: 'Id or URL of the featured image; empty to remove it' })
  image?: number | string | null;
}

/** Read and delete take no parameters but the language. */
export class RecordItemDto extends LocalizedDto {}
