import { recordController } from '@calendar/records';
import { CreateOrganizerDto, ListOrganizersQueryDto, UpdateOrganizerDto } from './dto/organizer.dto';
import { OrganizerResponse } from './dto/organizer.mapper';
import { OrganizerService } from './organizer.service';

/** `/organizers`: list, create, and read, update and trash by id and by slug (SPEC §5). */
export const OrganizerController = recordController({
  path: 'organizers',
  label: 'Organizer',
  service: OrganizerService,
  create: CreateOrganizerDto,
  update: UpdateOrganizerDto,
  model: OrganizerResponse,
  list: ListOrganizersQueryDto,
});
