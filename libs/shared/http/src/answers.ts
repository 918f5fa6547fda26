import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { AnswersWithEtag } from './preconditions';

/** A property of a response model declared by its JSON schema (OpenAPI 3.1). */
export function Field(schema: Record<string, unknown>, required = true): PropertyDecorator {
  return ApiProperty({ ...schema, required } as never);
}

export const STRING = { type: 'string' };
export const INTEGER = { type: 'integer' };
export const NUMBER = { type: 'number' };
export const BOOLEAN = { type: 'boolean' };
export const URI = { type: 'string', format: 'uri' };
/** `YYYY-MM-DD HH:MM:SS` (SPEC §4.1). */
export const WALL_CLOCK = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' };
export const FREE_OBJECT = { type: 'object', additionalProperties: true };

export const ref = (model: Type<unknown>) => ({ $ref: getSchemaPath(model) });
export const nullable = (schema: Record<string, unknown>) => ({ oneOf: [schema, { type: 'null' }] });
export const arrayOf = (schema: Record<string, unknown>) => ({ type: 'array', items: schema });
export const mapOf = (schema: Record<string, unknown>) => ({ type: 'object', additionalProperties: schema });

/** A record's address in one language (`translations`, SPEC §7). */
export class TranslationSummary {
  @Field(STRING)
  slug: string;

  @Field(STRING)
  title: string;

  @Field(URI)
  rest_url: string;
}

export const TRANSLATIONS = { ...mapOf(ref(TranslationSummary)), description: 'The record in each language it has a text in, by language code' };

/** Every `code` of the error envelope (SPEC §3.1), by HTTP status. */
export const ERROR_CODES: Record<number, string[]> = {
  400: ['rest_invalid_param', 'rest_missing_callback_param', 'rest_invalid_json', 'rest_bad_request', 'rest_bad_url', 'tickets-not-supported', 'invalid-sync-token'],
  401: ['rest_forbidden', 'rest_invalid_credentials'],
  403: [
    'rest_forbidden',
    'event-not-accessible',
    'venue-not-accessible',
    'organizer-not-accessible',
    'event-no-longer-available',
    'event-password-protected',
  ],
  404: [
    'rest_no_route',
    'rest-event-not-found',
    'rest-venue-not-found',
    'rest-organizer-not-found',
    'rest-category-not-found',
    'rest-tag-not-found',
    'event-archive-page-not-found',
    'venue-archive-page-not-found',
    'organizer-archive-page-not-found',
    'category-archive-page-not-found',
    'tag-archive-page-not-found',
    'rest-webhook-not-found',
    'rest-delivery-not-found',
    'webhook-archive-page-not-found',
    'delivery-archive-page-not-found',
  ],
  405: ['rest_no_route'],
  409: ['term-exists', 'slug-exists', 'rest_conflict', 'idempotency-key-in-flight'],
  410: ['event-is-in-trash', 'venue-is-in-trash', 'organizer-is-in-trash', 'sync-token-expired'],
  413: ['rest_request_too_large'],
  414: ['rest_uri_too_long'],
  415: ['rest_unsupported_media_type'],
  412: ['precondition-failed'],
  422: ['idempotency-key-reused'],
  429: ['rest_rate_limited'],
  500: ['internal-error'],
  503: ['service-unavailable', 'write-conflict'],
};

/** The error envelope of SPEC §3.1. */
export class ErrorEnvelope {
  @Field({ type: 'string', enum: [...new Set(Object.values(ERROR_CODES).flat())] })
  code: string;

  @Field({ ...STRING, description: 'Human text in English' })
  message: string;

  @Field({
    type: 'object',
    properties: {
      status: { ...INTEGER, description: 'The HTTP status' },
      params: { description: 'Invalid parameters and what is allowed (rest_invalid_param), or the missing ones (rest_missing_callback_param)', oneOf: [mapOf(STRING), arrayOf(STRING)] },
    },
    required: ['status'],
    additionalProperties: true,
  })
  data: { status: number; params?: Record<string, string> | string[]; [key: string]: unknown };
}

const HEADER = (description: string) => ({ description, schema: STRING });
const PAGING_HEADERS = {
  'X-WP-Total': { description: 'Number of matching records', schema: INTEGER },
  'X-WP-TotalPages': { description: 'Number of pages', schema: INTEGER },
  'X-TEC-Total': { description: 'Same as X-WP-Total', schema: INTEGER },
  'X-TEC-TotalPages': { description: 'Same as X-WP-TotalPages', schema: INTEGER },
  Link: HEADER('rel="prev"/"next" pages, and the API root (rel="https://api.w.org/")'),
};
const READ_HEADERS = { ETag: HEADER('Strong validator of the body (If-None-Match gives 304)') };
const WRITTEN_HEADERS = { ETag: HEADER("The ETag of the record as written: what a GET of it answers, for the If-Match of the next write") };
/** The request headers of a conditional write (SPEC §18). */
const PRECONDITION_HEADERS = [
  ApiHeader({ name: 'If-Match', required: false, description: 'Write only if the record\'s current ETag is one of these entity-tags (or *: the record exists); otherwise 412 precondition-failed' }),
  ApiHeader({ name: 'If-Unmodified-Since', required: false, description: 'Write only if modified_utc is not later than this HTTP date (ignored with If-Match, and for categories and tags, which have no modified_utc); otherwise 412 precondition-failed' }),
];
const CREATED_HEADERS = { Location: HEADER('The rest_url of the record created') };
/** Headers of error answers: when to try again. */
const ERROR_HEADERS: Record<number, Record<string, unknown>> = {
  409: { 'Retry-After': { description: 'Seconds to wait before sending again (idempotency-key-in-flight)', schema: INTEGER } },
  429: {
    'Retry-After': { description: 'Seconds until the limit allows requests again', schema: INTEGER },
    'RateLimit-Policy': HEADER('The limit that applies (IETF RateLimit headers): "anonymous";q=600;w=60'),
    RateLimit: HEADER('What is left of it: "anonymous";r=0;t=12 (requests remaining, seconds until the window ends)'),
  },
  503: { 'Retry-After': { description: 'Seconds to wait before sending again', schema: INTEGER } },
};

export interface AnswerOptions {
  /** The success status (200 unless said). */
  status?: number;
  /** A list answer: the envelope key holding the items (`events`). */
  list?: string;
  /** A sync answer (SPEC §16.2): the envelope key holding the items and tombstones. */
  sync?: string;
  /** The error statuses the route can answer besides those every route can (400, 401 for bad credentials, 414, 429 when rate limits are on, 500, 503). */
  errors?: number[];
  /** A write: its answer is never a 304, and carries no ETag unless `etag` says it does. */
  write?: boolean;
  /** A write answered with the record it wrote: the answer carries the ETag a GET of the record gives (SPEC §18). */
  etag?: boolean;
  /** An update or delete that honours `If-Match` and `If-Unmodified-Since` (SPEC §18). */
  conditional?: boolean;
  description?: string;
}

/** The list envelope of SPEC §3.3 around items of `model`. */
export function listSchema(key: string, model: Type<unknown>): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      [key]: arrayOf(ref(model)),
      rest_url: URI,
      next_rest_url: URI,
      previous_rest_url: URI,
      total: INTEGER,
      total_pages: INTEGER,
    },
    required: [key, 'rest_url', 'total', 'total_pages'],
    additionalProperties: false,
  };
}

/** A record that left the caller's view or the sync's filter since the token (SPEC §16.2). */
export class SyncTombstone {
  @Field({ ...INTEGER, description: 'The id of the record to drop from the copy' })
  id: number;

  @Field({ ...BOOLEAN, const: true, description: 'Always true' })
  removed: true;
}

/** The body of a sync page: `key` holds current objects of `model` and tombstones. */
export function syncSchema(key: string, model: Type<unknown>): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      [key]: arrayOf({ oneOf: [ref(model), ref(SyncTombstone)] }),
      rest_url: URI,
      next_rest_url: { ...URI, description: 'The next page (an opaque cursor); present until the last page' },
      sync_token: { ...STRING, description: 'On the last page only: the token to sync from next time' },
    },
    required: [key, 'rest_url'],
    additionalProperties: false,
  };
}

/**
 * Declares what a route answers: its success body (the model class its answers are built as, or the list
 * envelope of it), headers, and each error status with the envelope of SPEC §3.1.
 */
export function ApiAnswers(model: Type<unknown> | { schema: Record<string, unknown>; type?: string }, options: AnswerOptions = {}): MethodDecorator & ClassDecorator {
  const status = options.status ?? 200;
  const read = !options.write;
  const errors = [...new Set([400, 401, ...(options.errors ?? []), 414, 429, 500, 503])].sort((a, b) => a - b);
  const given = 'schema' in model ? model : null;
  const schema = given ? given.schema : options.list ? listSchema(options.list, model as Type<unknown>) : options.sync ? syncSchema(options.sync, model as Type<unknown>) : ref(model as Type<unknown>);
  return applyDecorators(
    ...(given ? [ApiExtraModels(ErrorEnvelope)] : [ApiExtraModels(model as Type<unknown>, ErrorEnvelope, SyncTombstone)]),
    ApiResponse({
      status,
      description: options.description ?? (options.list ? `A page of ${options.list}` : options.sync ? `A page of a sync of ${options.sync}` : 'The record'),
      content: { [given?.type ?? 'application/json']: { schema } },
      headers: { ...(options.list ? PAGING_HEADERS : {}), ...(read ? READ_HEADERS : {}), ...(options.etag ? WRITTEN_HEADERS : {}), ...(status === 201 ? CREATED_HEADERS : {}) },
    } as never),
    ...(options.etag ? [AnswersWithEtag()] : []),
    ...(options.conditional ? PRECONDITION_HEADERS : []),
    ...(read ? [ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag)' })] : []),
    ...errors.map((code) =>
      ApiResponse({
        status: code,
        description: (ERROR_CODES[code] ?? []).join(', '),
        schema: { allOf: [ref(ErrorEnvelope), { properties: { code: { enum: ERROR_CODES[code] } } }] },
        ...(ERROR_HEADERS[code] ? { headers: ERROR_HEADERS[code] } : {}),
      } as never),
    ),
  );
}
