import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { ListRecordsQueryDto, SyncRecordsQueryDto, PresentOptions, RecordReader, RecordRepository, RecordResource, RecordServiceDeps, RecordTarget, RecordWriter } from '@calendar/records';
import { WriteCondition } from '@calendar/shared/database';
import { JsonText, ListResult, VersionsHolder, WritePrecondition } from '@calendar/shared/http';
import { EntityManager } from 'typeorm';
import { UpdateOrganizerDto } from './dto/organizer.dto';
import { mapOrganizer, ORGANIZER_KIND, OrganizerResponse } from './dto/organizer.mapper';
import { OrganizerEntity, OrganizerTranslationEntity } from './entities/organizer.entity';

/** What an organizer search looks in besides its name and description (SPEC §5.3). */
export const ORGANIZER_SEARCH_FIELDS = ['phone', 'email', 'website'] as const;

@Injectable()
export class OrganizerService implements RecordResource<OrganizerResponse, UpdateOrganizerDto>, OnModuleInit {
  private readonly reader: RecordReader<OrganizerEntity, OrganizerTranslationEntity, OrganizerResponse>;
  private readonly writer: RecordWriter<OrganizerEntity, OrganizerTranslationEntity, UpdateOrganizerDto>;

  constructor(private readonly deps: RecordServiceDeps) {
    const repository = new RecordRepository(deps.dataSource, ORGANIZER_KIND, [...ORGANIZER_SEARCH_FIELDS]);
    this.reader = new RecordReader(deps, ORGANIZER_KIND, repository, (record, scope, options) => this.present(record, scope, options));
    this.writer = new RecordWriter(deps, ORGANIZER_KIND, repository, { applyFields: (record, input, isCreate) => this.applyFields(record, input, isCreate) });
  }

  onModuleInit(): void {
    this.writer.registerEffects();
  }

  list(query: ListRecordsQueryDto, scope: RequestContext): Promise<ListResult<OrganizerResponse>> {
    return this.reader.list(query, scope);
  }

  sync(query: SyncRecordsQueryDto, raw: Record<string, unknown>, scope: RequestContext): Promise<JsonText> {
    return this.reader.sync(query, raw, scope);
  }

  get(target: RecordTarget, scope: RequestContext): Promise<OrganizerResponse> {
    return this.reader.get(target, scope);
  }

  async create(input: UpdateOrganizerDto, scope: RequestContext): Promise<OrganizerResponse> {
    return this.reader.written(await this.writer.create(input, scope), scope);
  }

  /** Creates inside a transaction the caller holds (an event write that creates its organizers). */
  createWith(manager: EntityManager, input: UpdateOrganizerDto, scope: RequestContext): Promise<number> {
    return this.writer.createWith(manager, input, scope);
  }

  async update(target: RecordTarget, input: UpdateOrganizerDto, scope: RequestContext, precondition?: WritePrecondition): Promise<OrganizerResponse> {
    return this.reader.written(await this.writer.update(target, input, scope, this.condition(target, precondition)), scope);
  }

  async remove(target: RecordTarget, scope: RequestContext, precondition?: WritePrecondition): Promise<OrganizerResponse> {
    return this.reader.written(await this.writer.remove(target, scope, this.condition(target, precondition)), scope);
  }

  /** A write's precondition, checked against what a GET of the same target answers (SPEC §18). */
  private condition(target: RecordTarget, precondition: WritePrecondition | undefined): WriteCondition {
    return { precondition, current: (scope) => this.reader.get(target, scope) };
  }

  /** Which of `ids` exist, whatever their status. */
  existing(ids: number[], read: VersionsHolder): Promise<Set<number>> {
    return this.reader.existing(ids, read);
  }

  /** The organizers an event embeds, as the caller may read them, by id. */
  presentByIds(ids: number[], scope: RequestContext): Promise<Map<number, JsonText<OrganizerResponse>>> {
    return this.reader.presentByIds(ids, scope);
  }

  private applyFields(organizer: OrganizerEntity, input: UpdateOrganizerDto, isCreate: boolean): void {
    for (const field of ['phone', 'website', 'email'] as const) {
      const value = input[field];
      if (value !== undefined) organizer[field] = value;
      else if (isCreate) organizer[field] = '';
    }
  }

  private present(organizer: OrganizerEntity, context: RequestContext, options: PresentOptions): OrganizerResponse {
    return mapOrganizer(organizer, context, this.deps, options.image, options.jsonLd);
  }
}
