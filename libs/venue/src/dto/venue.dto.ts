import { ListRecordsQueryDto, RecordWriteDto } from '@calendar/records';
import { BooleanParam, NumberParam, StringParam, UrlParam } from '@calendar/shared/http';

/** The venue's own fields (SPEC §5.2); every one optional. */
class VenueFieldsDto extends RecordWriteDto {
  @StringParam({ maxLength: 255, empty: 'empty-string', description: 'Street address' })
  address?: string;

  @StringParam({ maxLength: 120, empty: 'empty-string', description: 'City' })
  city?: string;

  @StringParam({ maxLength: 120, empty: 'empty-string', description: 'Country' })
  country?: string;

  @StringParam({ maxLength: 120, empty: 'empty-string', description: 'Province' })
  province?: string;

  @StringParam({ maxLength: 120, empty: 'empty-string', description: 'State' })
  state?: string;

  @StringParam({ maxLength: 40, empty: 'empty-string', description: 'Postal code' })
  zip?: string;

  @StringParam({ maxLength: 60, empty: 'empty-string', description: 'Phone number' })
  phone?: string;

  @StringParam({ maxLength: 120, empty: 'empty-string', description: 'State or province; derived from state/province and country when absent' })
  stateprovince?: string;

  @UrlParam({ empty: 'empty-string', description: 'Venue site URL' })
  website?: string;

  @BooleanParam({ description: 'Whether events at the venue show a map (default true)' })
  show_map?: boolean;

  @BooleanParam({ description: 'Whether events at the venue show a map link (default true)' })
  show_map_link?: boolean;

  @NumberParam({ min: -90, max: 90, empty: 'null', description: 'Latitude' })
  geo_lat?: number | null;

  @NumberParam({ min: -180, max: 180, empty: 'null', description: 'Longitude' })
  geo_lng?: number | null;
}

export class CreateVenueDto extends VenueFieldsDto {
  @StringParam({ required: true, maxLength: 200, description: 'Venue name' })
  venue: string;
}

export class UpdateVenueDto extends VenueFieldsDto {
  @StringParam({ maxLength: 200, description: 'Venue name' })
  venue?: string;
}

export class ListVenuesQueryDto extends ListRecordsQueryDto {}
