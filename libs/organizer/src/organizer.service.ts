import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { EventLinkRegistry, MediaService, PresentOptions, RecordRepository, RecordService } from '@calendar/records';
import { UserService } from '@calendar/shared/auth';
import { AppConfig } from '@calendar/shared/config';
import { TransactionRunner } from '@calendar/shared/database';
import { LinkBuilder } from '@calendar/shared/http';
import { DataSource } from 'typeorm';
import { UpdateOrganizerDto } from './dto/organizer.dto';
import { mapOrganizer, ORGANIZER_KIND, OrganizerResponse } from './dto/organizer.mapper';
import { OrganizerEntity, OrganizerTranslationEntity } from './entities/organizer.entity';

@Injectable()
export class OrganizerService extends RecordService<OrganizerEntity, OrganizerTranslationEntity, OrganizerResponse, UpdateOrganizerDto> {
  protected readonly kind = ORGANIZER_KIND;
  protected readonly repository: RecordRepository<OrganizerEntity, OrganizerTranslationEntity>;

  constructor(dataSource: DataSource, transactions: TransactionRunner, links: LinkBuilder, config: AppConfig, media: MediaService, users: UserService, eventLinks: EventLinkRegistry) {
    super({ transactions, links, config, media, users, eventLinks });
    this.repository = new RecordRepository(dataSource, ORGANIZER_KIND, ['r.phone', 'r.email', 'r.website']);
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
