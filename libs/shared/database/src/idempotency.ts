import { createHash } from 'node:crypto';
import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ApiHeader } from '@nestjs/swagger';
import { answerText, ApiException, isUniqueViolation, JsonText, requestOrigin } from '@calendar/shared/http';
import { parseUtcWallClock, utcWallClock } from '@calendar/shared/time';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DataSource, EntityManager } from 'typeorm';
import { ScopedStore } from './scoped-store';

/** How long a key answers its first answer again (SPEC §15). */
export const IDEMPOTENCY_HOURS = 24;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The claim of the create that runs under a key: its write transaction marks it committed (see `markCommitted`). */
const scope = new ScopedStore<{ claim: number }>();

/**
 * Called at the end of every write transaction (TransactionRunner): when the write is a create made under an
 * `Idempotency-Key`, its claim is marked committed in the same transaction, so that the key never stands for a
 * create that did not happen, nor lets one that did happen run again.
 */
export async function markCommitted(manager: EntityManager, result: unknown): Promise<void> {
  const claim = scope.get()?.claim;
  if (claim === undefined) return;
  // A create's work gives the new record's id.
  const recordId = typeof result === 'number' ? result : null;
  await manager.query(`UPDATE idempotency_keys SET state = 'committed', record_id = ? WHERE id = ? AND state = 'running'`, [recordId, claim]);
  // The claim was given up meanwhile (its request looked abandoned): this write must not happen too.
  const [row] = await manager.query('SELECT state FROM idempotency_keys WHERE id = ?', [claim]);
  if (row?.state !== 'committed') throw new ApiException(409, 'idempotency-key-in-flight', 'Another request with this Idempotency-Key took it over; its answer is the one that counts.', {}, { 'Retry-After': '1' });
}

interface StoredAnswer {
  status: number;
  body: string;
  location: string | null;
}

type Row = { id: number; fingerprint: string; state: string; status: number | null; body: string | null; location: string | null; record_id: number | null; created_at: Date | string };

/** A claim still running after this long belongs to a request that was cut off (its process or node stopped). */
const CLAIM_SECONDS = 10;


/** JSON with object keys in order: two bodies that say the same say it in the same words. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The keys of creates: claimed before the create runs, answered after, forgotten after 24 hours. */
@Injectable()
export class IdempotencyStore {
  private begun = 0;

  constructor(private readonly dataSource: DataSource) {}

  /** Claims the key for a new create, or gives the first answer again; 422 and 409 as SPEC §15 says. */
  async begin(callerId: number, key: string, fingerprint: string, now = new Date()): Promise<{ claim: number } | { replay: StoredAnswer } | { made: number; claim: number }> {
    if (++this.begun % 1000 === 0) await this.forget(now);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const [row]: Row[] = await this.dataSource.query('SELECT id, fingerprint, state, status, body, location, record_id, created_at FROM idempotency_keys WHERE caller_id = ? AND idem_key = ?', [
        callerId,
        key,
      ]);
      if (row && this.expired(row, now)) {
        await this.dataSource.query('DELETE FROM idempotency_keys WHERE id = ?', [row.id]);
        continue;
      }
      if (row) {
        if (row.fingerprint !== fingerprint) throw new ApiException(422, 'idempotency-key-reused', 'This Idempotency-Key was used for another request; use a new key for a new request.');
        if (row.state === 'done' && row.status !== null && row.body !== null) return { replay: { status: Number(row.status), body: row.body, location: row.location } };
        // Made, but its answer was lost with the request that made it: answered from the record as it is.
        if (row.state === 'committed' && row.record_id !== null) return { made: Number(row.record_id), claim: Number(row.id) };
        if (row.state === 'running' && this.age(row, now) > CLAIM_SECONDS * 1000) {
          // Cut off before its write committed (the write checks its claim at commit and gives way).
          await this.dataSource.query(`DELETE FROM idempotency_keys WHERE id = ? AND state = 'running'`, [row.id]);
          continue;
        }
        throw new ApiException(409, 'idempotency-key-in-flight', 'A request with this Idempotency-Key is still being answered; try again shortly.', {}, { 'Retry-After': '1' });
      }
      try {
        await this.dataSource.query(`INSERT INTO idempotency_keys (caller_id, idem_key, fingerprint, state, created_at) VALUES (?, ?, ?, 'running', ?)`, [callerId, key, fingerprint, utcWallClock(now)]);
      } catch (error) {
        // Another request claimed it meanwhile: answer as to a second request.
        if (isUniqueViolation(error)) continue;
        throw error;
      }
      const [claimed]: Row[] = await this.dataSource.query('SELECT id FROM idempotency_keys WHERE caller_id = ? AND idem_key = ?', [callerId, key]);
      return { claim: Number(claimed.id) };
    }
    throw new ApiException(409, 'idempotency-key-in-flight', 'A request with this Idempotency-Key is still being answered; try again shortly.', {}, { 'Retry-After': '1' });
  }

  /** Keeps the answer of a create that was made. */
  async finish(claim: number, answer: StoredAnswer): Promise<void> {
    await this.dataSource.query(`UPDATE idempotency_keys SET state = 'done', status = ?, body = ?, location = ? WHERE id = ?`, [answer.status, answer.body, answer.location, claim]);
  }

  /** A create that failed before its write committed leaves nothing: the key may be used again. */
  async abandon(claim: number): Promise<void> {
    await this.dataSource.query(`DELETE FROM idempotency_keys WHERE id = ? AND state = 'running'`, [claim]);
  }

  private age(row: Row, now: Date): number {
    return now.getTime() - parseUtcWallClock(row.created_at).getTime();
  }

  private expired(row: Row, now: Date): boolean {
    return this.age(row, now) > IDEMPOTENCY_HOURS * 3_600_000;
  }

  private async forget(now: Date): Promise<void> {
    await this.dataSource.query('DELETE FROM idempotency_keys WHERE created_at < ?', [utcWallClock(new Date(now.getTime() - IDEMPOTENCY_HOURS * 3_600_000))]);
  }
}

/**
 * `Idempotency-Key` on creates (SPEC §15): the same key, caller and request within 24 hours answer the first answer
 * again (status, body, `Location`) and write nothing; another request under a used key is 422; a key whose first
 * request is still running is 409. The create's write transaction marks the key committed (`markCommitted`), so a
 * create answered 503 either did not happen (its key is free again) or is answered again under its key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const header = request.headers['idempotency-key'];
    if (header === undefined) return next.handle();
    const key = Array.isArray(header) ? header.join(',') : header;
    if (!KEY_PATTERN.test(key)) throw ApiException.invalidParams({ 'Idempotency-Key': 'must be 1 to 255 visible ASCII characters' });
    const caller = request.caller;
    if (!caller) return next.handle();
    const fingerprint = createHash('sha256').update(`${request.method} ${request.originalUrl}\n${canonical(request.body ?? null)}`).digest('hex');
    return from(
      (async () => {
        const begun = await this.store.begin(caller.id, key, fingerprint);
        if ('made' in begun) {
          // The record as the route's own read gives it, at the address the first answer would have named.
          const path = `${request.originalUrl.split('?')[0].replace(/\/$/, '')}/${begun.made}`;
          const location = `${requestOrigin(request)}${path}`;
          // The same credentials and the same origin (behind a proxy, its forwarded host and scheme).
          const headers = Object.fromEntries(
            ['authorization', 'host', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'].flatMap((name) => (request.headers[name] === undefined ? [] : [[name, String(request.headers[name])]])),
          );
          const read = await request.server.inject({ method: 'GET', url: path, headers });
          if (read.statusCode !== 200) throw new ApiException(409, 'idempotency-key-in-flight', 'The create made under this Idempotency-Key cannot be read now; try again shortly.', {}, { 'Retry-After': '1' });
          const status = Number(Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) ?? 201);
          await this.store.finish(begun.claim, { status, body: read.body, location });
          void reply.header('Location', location);
          return new JsonText(read.body);
        }
        if ('replay' in begun) {
          void reply.status(begun.replay.status);
          if (begun.replay.location) void reply.header('Location', begun.replay.location);
          return new JsonText(begun.replay.body);
        }
        let body: unknown;
        try {
          body = await scope.run({ claim: begun.claim }, () => lastValueFrom(next.handle(), { defaultValue: undefined }));
        } catch (error) {
          await this.store.abandon(begun.claim);
          throw error;
        }
        const location = reply.getHeader('Location');
        const text = answerText(body);
        // The status the route answers with (`@HttpCode`), which Nest sets on the reply only when it sends it.
        const status = Number(Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) ?? reply.statusCode);
        await this.store.finish(begun.claim, { status, body: text, location: location === undefined ? null : String(location) });
        return body;
      })(),
    );
  }
}

/** Marks a create route as taking an `Idempotency-Key` (and documents the header). */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'Up to 255 visible ASCII characters: the same key and request within 24 hours answer the first answer again and create nothing more',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
    }),
  );
}
