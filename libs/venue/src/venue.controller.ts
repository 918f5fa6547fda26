import { recordController } from '@calendar/records';
import { CreateVenueDto, ListVenuesQueryDto, UpdateVenueDto } from './dto/venue.dto';
import { VenueResponse } from './dto/venue.mapper';
import { VenueService } from './venue.service';

/** `/venues`: list, create, and read, update and trash by id and by slug (SPEC §5). */
export const VenueController = recordController({
  path: 'venues',
  label: 'Venue',
  service: VenueService,
  create: CreateVenueDto,
  update: UpdateVenueDto,
  model: VenueResponse,
  list: ListVenuesQueryDto,
});
