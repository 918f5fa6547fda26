import { CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import { map, Observable } from 'rxjs';
import { ApiException } from './api-exception';
import { strongEtag } from './caching';
import { answerText } from './json-text';

/**
 * What an update or delete asks of the record before it is written (SPEC §18, RFC 9110 §13.1): `match`, the
 * entity-tags of `If-Match` (or `*`: the record exists); `unmodifiedSince`, the time of `If-Unmodified-Since`
 * (milliseconds), which is looked at only without `If-Match`, as RFC 9110 says.
 */
export interface WritePrecondition {
  readonly match?: '*' | readonly string[];
  readonly unmodifiedSince?: number;
}

/** One entity-tag of RFC 9110 §8.8.3: optionally weak, quoted, of visible characters but the quote. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The preconditions of a request's headers; undefined when it sends none. A header that cannot be read is a 400
 * naming it (rather than ignored: a write the client meant to be conditional must not happen unconditionally).
 */
export function readPreconditions(headers: Record<string, string | string[] | undefined>): WritePrecondition | undefined {
  const ifMatch = headerText(headers['if-match'])?.trim();
  const ifUnmodifiedSince = headerText(headers['if-unmodified-since'])?.trim();
  const problems: Record<string, string> = {};
  let match: WritePrecondition['match'];
  if (ifMatch !== undefined) {
    if (ifMatch === '*') match = '*';
    else {
      const tags = ifMatch.split(',').map((tag) => tag.trim());
      if (tags.every((tag) => ENTITY_TAG.test(tag))) match = tags;
      else problems['If-Match'] = 'must be * or a comma-separated list of entity-tags, each in double quotes (an ETag this service answered)';
    }
  }
  let unmodifiedSince: number | undefined;
  if (ifUnmodifiedSince !== undefined) {
    const parsed = DateTime.fromHTTP(ifUnmodifiedSince, { zone: 'utc' });
    if (parsed.isValid) unmodifiedSince = parsed.toMillis();
    else problems['If-Unmodified-Since'] = 'must be an HTTP date, such as Tue, 15 Nov 1994 08:12:31 GMT';
  }
  if (Object.keys(problems).length > 0) throw ApiException.invalidParams(problems);
  if (match === undefined && unmodifiedSince === undefined) return undefined;
  return { ...(match !== undefined ? { match } : {}), ...(unmodifiedSince !== undefined ? { unmodifiedSince } : {}) };
}

/**
 * Whether the record's current representation (its `etag`, and its `modified_utc` in milliseconds, null for kinds
 * that have none) meets the precondition. `If-Match` compares strongly: a weak tag never matches (RFC 9110 §13.1.1).
 * `If-Unmodified-Since` compares to the second, and is ignored for a record without a modification date (§13.1.4).
 */
export function preconditionHolds(precondition: WritePrecondition, etag: string, modified: number | null): boolean {
  if (precondition.match !== undefined) return precondition.match === '*' || precondition.match.includes(etag);
  if (precondition.unmodifiedSince === undefined || modified === null) return true;
  return Math.floor(modified / 1000) <= Math.floor(precondition.unmodifiedSince / 1000);
}

/** The ETag a GET answering `answer` carries. */
export function etagOf(answer: unknown): string {
  return strongEtag(answerText(answer));
}

/** 412 `precondition-failed` (SPEC §18). */
export function preconditionFailed(): ApiException {
  return new ApiException(412, 'precondition-failed', 'The record has changed since the If-Match or If-Unmodified-Since it was sent with; read it again and send the write again.');
}

/** The preconditions of the request (`If-Match`, `If-Unmodified-Since`), read and checked; undefined for none. */
export const Preconditions = createParamDecorator((_data: unknown, context: ExecutionContext): WritePrecondition | undefined =>
  readPreconditions(context.switchToHttp().getRequest<FastifyRequest>().headers),
);

/** Gives a write's answer (a record's representation) the ETag a GET of it would answer (SPEC §18). */
@Injectable()
export class RecordEtagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((answer) => {
        reply.header('ETag', etagOf(answer));
        return answer;
      }),
    );
  }
}

/** The route answers with the record it wrote: the answer carries that record's ETag. */
export const AnswersWithEtag = (): MethodDecorator & ClassDecorator => UseInterceptors(RecordEtagInterceptor);
