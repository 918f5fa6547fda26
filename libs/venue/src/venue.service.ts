import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { PresentOptions, RecordRepository, RecordService, RecordServiceDeps } from '@calendar/records';
import { UpdateVenueDto } from './dto/venue.dto';
import { mapVenue, VENUE_KIND, VenueResponse } from './dto/venue.mapper';
import { VenueEntity, VenueTranslationEntity } from './entities/venue.entity';

const UNITED_STATES = new Set(['', 'us', 'usa', 'united states', 'united states of america']);

/** `stateprovince` when not given: the state in the United States (or with no country), else the province. */
export function deriveStateProvince(country: string, state: string, province: string): string {
  return UNITED_STATES.has(country.trim().toLowerCase()) ? state : province;
}

/** What a venue search looks in besides its name and description (SPEC §5.3). */
export const VENUE_SEARCH_FIELDS = ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone', 'country'] as const;

@Injectable()
export class VenueService extends RecordService<VenueEntity, VenueTranslationEntity, VenueResponse, UpdateVenueDto> {
  protected readonly kind = VENUE_KIND;
  protected readonly repository: RecordRepository<VenueEntity, VenueTranslationEntity>;

  constructor(deps: RecordServiceDeps) {
    super(deps);
    this.repository = new RecordRepository(deps.dataSource, VENUE_KIND, [...VENUE_SEARCH_FIELDS]);
  }

  protected applyFields(venue: VenueEntity, input: UpdateVenueDto, isCreate: boolean): void {
    for (const field of ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website'] as const) {
      const value = input[field];
      if (value !== undefined) venue[field] = value;
      else if (isCreate) venue[field] = '';
    }
    if (input.show_map !== undefined) venue.showMap = input.show_map;
    else if (isCreate) venue.showMap = true;
    if (input.show_map_link !== undefined) venue.showMapLink = input.show_map_link;
    else if (isCreate) venue.showMapLink = true;
    if (input.geo_lat !== undefined) venue.geoLat = input.geo_lat;
    else if (isCreate) venue.geoLat = null;
    if (input.geo_lng !== undefined) venue.geoLng = input.geo_lng;
    else if (isCreate) venue.geoLng = null;
    const given = input.stateprovince;
    if (given !== undefined) venue.stateprovince = given;
    else if (isCreate || input.state !== undefined || input.province !== undefined || input.country !== undefined) {
      venue.stateprovince = deriveStateProvince(venue.country, venue.state, venue.province);
    }
  }

  protected present(venue: VenueEntity, context: RequestContext, options: PresentOptions): VenueResponse {
    return mapVenue(venue, context, this.deps, options.image, options.jsonLd);
  }
}
