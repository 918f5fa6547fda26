import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@calendar/i18n';
import { UserService } from '@calendar/shared/auth';
import { AppConfig } from '@calendar/shared/config';
import { ChangeLog, ConditionalWrites, CountMemo, FragmentCache, TransactionRunner } from '@calendar/shared/database';
import { JsonText, LinkBuilder, ListResult, WritePrecondition } from '@calendar/shared/http';
import { DataSource } from 'typeorm';
import type { ListRecordsQueryDto, RecordWriteDto, SyncRecordsQueryDto } from './dto/record.dto';
import { MediaEntity } from './media/media.entity';
import { MediaService } from './media/media.service';
import { EventLinkRegistry } from './record-links';

/** The services every kind's reader and writer use, injected once for all kinds. */
@Injectable()
export class RecordServiceDeps {
  constructor(
    readonly dataSource: DataSource,
    readonly transactions: TransactionRunner,
    readonly links: LinkBuilder,
    readonly config: AppConfig,
    readonly media: MediaService,
    readonly users: UserService,
    readonly eventLinks: EventLinkRegistry,
    readonly counts: CountMemo,
    readonly fragments: FragmentCache,
    readonly changes: ChangeLog,
    readonly conditional: ConditionalWrites,
  ) {}
}

export interface PresentOptions {
  /** Single reads carry `json_ld`; lists and embedded records do not. */
  jsonLd: boolean;
  image: MediaEntity | null;
}

/** The record to act on: by id or by slug. */
export type RecordTarget = { id: number } | { slug: string };

/**
 * What the HTTP side of a record kind asks of its service (SPEC §5): the same five operations for venues and
 * organizers; answers are response objects the edge turns into JSON.
 */
export interface RecordResource<R, W extends RecordWriteDto = RecordWriteDto> {
  list(query: ListRecordsQueryDto, scope: RequestContext): Promise<ListResult<R>>;
  get(target: RecordTarget, scope: RequestContext): Promise<R>;
  create(input: W, scope: RequestContext): Promise<R>;
  /** `precondition`: the request's `If-Match` / `If-Unmodified-Since` (SPEC §18). */
  update(target: RecordTarget, input: W, scope: RequestContext, precondition?: WritePrecondition): Promise<R>;
  remove(target: RecordTarget, scope: RequestContext, precondition?: WritePrecondition): Promise<R>;
  /** A page of a sync (SPEC §16.2) as its JSON answer; `raw` is the query as sent. */
  sync(query: SyncRecordsQueryDto, raw: Record<string, unknown>, scope: RequestContext): Promise<JsonText>;
}
