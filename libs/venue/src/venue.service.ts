import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { ListRecordsQueryDto, SyncRecordsQueryDto, PresentOptions, RecordReader, RecordRepository, RecordResource, RecordServiceDeps, RecordTarget, RecordWriter } from '@calendar/records';
import { linkCellsUpdate, WriteCondition } from '@calendar/shared/database';
import { JsonText, ListResult, VersionsHolder, WritePrecondition } from '@calendar/shared/http';
import { EntityManager } from 'typeorm';
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
export class VenueService implements RecordResource<VenueResponse, UpdateVenueDto>, OnModuleInit {
  private readonly reader: RecordReader<VenueEntity, VenueTranslationEntity, VenueResponse>;
  private readonly writer: RecordWriter<VenueEntity, VenueTranslationEntity, UpdateVenueDto>;

  constructor(private readonly deps: RecordServiceDeps) {
    const repository = new RecordRepository(deps.dataSource, VENUE_KIND, [...VENUE_SEARCH_FIELDS]);
    this.reader = new RecordReader(deps, VENUE_KIND, repository, (record, scope, options) => this.present(record, scope, options));
    this.writer = new RecordWriter(deps, VENUE_KIND, repository, {
      applyFields: (record, input, isCreate) => this.applyFields(record, input, isCreate),
      afterWrite: (manager, record, input, _scope, isCreate) => this.afterWrite(manager, record, input, isCreate),
    });
  }

  onModuleInit(): void {
    this.writer.registerEffects();
  }

  list(query: ListRecordsQueryDto, scope: RequestContext): Promise<ListResult<VenueResponse>> {
    return this.reader.list(query, scope);
  }

  sync(query: SyncRecordsQueryDto, raw: Record<string, unknown>, scope: RequestContext): Promise<JsonText> {
    return this.reader.sync(query, raw, scope);
  }

  get(target: RecordTarget, scope: RequestContext): Promise<VenueResponse> {
    return this.reader.get(target, scope);
  }

  async create(input: UpdateVenueDto, scope: RequestContext): Promise<VenueResponse> {
    return this.reader.written(await this.writer.create(input, scope), scope);
  }

  /** Creates inside a transaction the caller holds (an event write that creates its venues). */
  createWith(manager: EntityManager, input: UpdateVenueDto, scope: RequestContext): Promise<number> {
    return this.writer.createWith(manager, input, scope);
  }

  async update(target: RecordTarget, input: UpdateVenueDto, scope: RequestContext, precondition?: WritePrecondition): Promise<VenueResponse> {
    return this.reader.written(await this.writer.update(target, input, scope, this.condition(target, precondition)), scope);
  }

  async remove(target: RecordTarget, scope: RequestContext, precondition?: WritePrecondition): Promise<VenueResponse> {
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

  /** The venues an event embeds, as the caller may read them, by id: their kept JSON texts. */
  presentByIds(ids: number[], scope: RequestContext): Promise<Map<number, JsonText<VenueResponse>>> {
    return this.reader.presentByIds(ids, scope);
  }

  /**
   * A write that gives a venue coordinates: its events' links take the cell of the coordinates its row now holds
   * (`geo_cell`, which lists within a radius read), in the write's transaction. A new venue has no links yet.
   */
  private async afterWrite(manager: EntityManager, venue: VenueEntity, input: UpdateVenueDto, isCreate: boolean): Promise<void> {
    if (isCreate || (input.geo_lat === undefined && input.geo_lng === undefined)) return;
    await manager.query(linkCellsUpdate('venue_id = ?'), [venue.id]);
  }

  private applyFields(venue: VenueEntity, input: UpdateVenueDto, isCreate: boolean): void {
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

  private present(venue: VenueEntity, context: RequestContext, options: PresentOptions): VenueResponse {
    return mapVenue(venue, context, this.deps, options.image, options.jsonLd);
  }
}
