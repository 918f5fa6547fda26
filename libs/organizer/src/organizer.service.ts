import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { PresentOptions, RecordRepository, RecordService, RecordServiceDeps } from '@calendar/records';
import { UpdateOrganizerDto } from './dto/organizer.dto';
import { mapOrganizer, ORGANIZER_KIND, OrganizerResponse } from './dto/organizer.mapper';
import { OrganizerEntity, OrganizerTranslationEntity } from './entities/organizer.entity';

/** What an organizer search looks in besides its name and description (SPEC §5.3). */
export const ORGANIZER_SEARCH_FIELDS = ['phone', 'email', 'website'] as const;

@Injectable()
export class OrganizerService extends RecordService<OrganizerEntity, OrganizerTranslationEntity, OrganizerResponse, UpdateOrganizerDto> {
  protected readonly kind = ORGANIZER_KIND;
  protected readonly repository: RecordRepository<OrganizerEntity, OrganizerTranslationEntity>;

  constructor(deps: RecordServiceDeps) {
    super(deps);
    this.repository = new RecordRepository(deps.dataSource, ORGANIZER_KIND, [...ORGANIZER_SEARCH_FIELDS]);
  }

  protected applyFields(organizer: OrganizerEntity, input: UpdateOrganizerDto, isCreate: boolean): void {
    for (const field of ['phone', 'website', 'email'] as const) {
      const value = input[field];
      if (value !== undefined) organizer[field] = value;
      else if (isCreate) organizer[field] = '';
    }
  }

  protected present(organizer: OrganizerEntity, context: RequestContext, options: PresentOptions): OrganizerResponse {
    return mapOrganizer(organizer, context, this.deps, options.image, options.jsonLd);
  }
}
