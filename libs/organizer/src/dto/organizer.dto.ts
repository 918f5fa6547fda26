import { ListRecordsQueryDto, RecordWriteDto } from '@calendar/records';
import { EmailParam, StringParam, UrlParam } from '@calendar/shared/http';

/** The organizer's own fields (SPEC §5.2); every one optional. */
class OrganizerFieldsDto extends RecordWriteDto {
  @StringParam({ maxLength: 60, empty: 'empty-string', description: 'Phone number' })
  phone?: string;

  @UrlParam({ empty: 'empty-string', description: 'Organizer site URL' })
  website?: string;

  @EmailParam({ empty: 'empty-string', description: 'E-mail address' })
  email?: string;
}

export class CreateOrganizerDto extends OrganizerFieldsDto {
  @StringParam({ required: true, maxLength: 200, description: 'Organizer name' })
  organizer: string;
}

export class UpdateOrganizerDto extends OrganizerFieldsDto {
  @StringParam({ maxLength: 200, description: 'Organizer name' })
  organizer?: string;
}

export class ListOrganizersQueryDto extends ListRecordsQueryDto {}
