import { BoundedMap, CacheRegistry, SeenKeys } from '@calendar/shared/cache';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { strongEtag } from './caching';
import { answerBody, TextAnswer } from './json-text';
import { renderList } from './list';
import { from, lastValueFrom, map, Observable, of, switchMap } from 'rxjs';

/**
 * The data version an answer is kept under (the port the response cache needs; the database library provides it
 * from the data versions it owns): the number of writes the read sees, read once per request into its holder.
 */
export abstract class CurrentVersion {
  abstract of(holder: VersionsHolder): Promise<number>;
}

/** Headers a cached list response must carry again. */
const KEPT_HEADERS = ['x-tec-total', 'x-tec-totalpages', 'x-wp-total', 'x-wp-totalpages', 'link'];

/** A cached answer: its serialised JSON (outside the JavaScript heap, and never serialised twice) and headers. */
interface Entry {
  payload: Buffer;
  headers: Record<string, string>;
}

/** What an entry costs besides its key and payload: the header strings, the map slot, the objects. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * The answers cached for anonymous GETs, shared by the Fastify hook that serves hits before the Nest pipeline
 * and the interceptor that stores misses. `maxBytes` bounds what it holds (0: no cache).
 *
 * An answer is looked up and kept only from the second request for its URL on (whatever the data version then):
 * a URL asked once (a crawler's walk, a new search, one event among thousands) is not worth a place that answers
 * asked for all the time would use, nor the version read, copy and hash it would cost its request.
 */
export class ResponseCache {
  readonly entries: BoundedMap<Entry>;
  /** Answers being computed: identical requests arriving meanwhile wait for the same one (no stampede). */
  readonly inFlight = new Map<string, Promise<{ body: unknown; entry: Entry | null }>>();
  /** The URLs asked for lately. */
  readonly seen = new SeenKeys();

  constructor(
    readonly version: CurrentVersion,
    maxBytes: number,
    /** Path prefixes never cached (liveness and readiness must not depend on the database). */
    private readonly skipped: string[] = [],
    registry: CacheRegistry = new CacheRegistry(),
  ) {
    // Keys are JavaScript strings: up to two bytes a character. An answer over a sixteenth of the budget is not
    // kept (one such answer would push out many small ones that are asked for more often).
    this.entries = registry.bounded<Entry>('responses', maxBytes, {
      unit: 'bytes',
      costOf: (entry, key) => key.length * 2 + entry.payload.length + ENTRY_OVERHEAD_BYTES,
      refreshOnRead: true,
      largestShare: 1 / 16,
    });
  }

  /**
   * Anonymous GETs only: a request that sends credentials is never answered from the cache, nor is a sync (SPEC
   * §16.2: its token says when it was given, and a sync gives the change log's positions).
   */
  applies(request: FastifyRequest): boolean {
    return (
      this.entries.capacity > 0 &&
      request.method === 'GET' &&
      request.headers.authorization === undefined &&
      !this.skipped.some((prefix) => request.url.startsWith(prefix)) &&
      !isSyncPath(request.url)
    );
  }

  /** Sets the cached headers on the reply and gives the payload to send as it is. */
  replay(reply: FastifyReply, entry: Entry): Buffer {
    for (const [name, value] of Object.entries(entry.headers)) reply.header(name, value);
    return entry.payload;
  }

  /**
   * Fastify `preHandler` hook: answers a cached request before the Nest pipeline runs, after reading the data
   * version once; the version is kept on the request for the interceptor when the answer is not cached. The first
   * request for a URL (as far as `seen` remembers) goes straight on: nothing can be cached for it, and its answer
   * will not be kept; it reads the version only if what it computes needs it.
   */
  async serveHit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (!this.applies(request) || !this.seen.seenBefore(`${request.headers.host ?? ''}|${request.originalUrl}`)) return undefined;
    const version = await this.version.of(versionsOf(request));
    const key = cacheKey(version, Date.now(), request);
    (request as { cacheKey?: string }).cacheKey = key;
    const hit = this.entries.get(key);
    // Returning the reply after sending ends the request here (Fastify's rule for async hooks).
    return hit ? reply.send(this.replay(reply, hit)) : undefined;
  }
}

/**
 * Where one read (a request, or a call from a job or the command line) keeps the data versions it is answered at:
 * read on first use and shared by everything kept per version. A read scope carries one; the edge makes one per
 * request (`versionsOf`), which the response cache's check shares with the services that answer a miss.
 */
export interface VersionsHolder {
  /** Filled by the database library's `dataVersionsFor` (its `DataVersions`); only `global` is read here. */
  dataVersions?: Promise<{ global: number }>;
}

/** The versions holder of a request, made on first use. */
/** Whether a URL asks a sync route (`.../events/sync`, SPEC §16.2). */
export function isSyncPath(url: string): boolean {
  const query = url.indexOf('?');
  return (query === -1 ? url : url.slice(0, query)).replace(/\/+$/, '').endsWith('/sync');
}

export function versionsOf(request: FastifyRequest): VersionsHolder {
  const holder = request as FastifyRequest & { readVersions?: VersionsHolder };
  holder.readVersions ??= {};
  return holder.readVersions;
}

/**
 * How long a cached answer may stand for the same data version. Answers depend on the clock only through day
 * boundaries in the service time zone (the default date window, whole-day bounds), which always fall on a
 * quarter hour of UTC; `only_with_upcoming` and `strict_dates` compare with the exact time, so they get the minute.
 */
export function timeBucket(url: string, now: number): string {
  return /[?&](only_with_upcoming|strict_dates)=/i.test(url) ? `m${Math.floor(now / 60_000)}` : `q${Math.floor(now / 900_000)}`;
}

/** The cache key: data version, time bucket, host and the whole original URL. */
export function cacheKey(version: number, now: number, request: Pick<FastifyRequest, 'originalUrl' | 'headers'>): string {
  // The original URL: the language base is part of it (routing strips it from `url`).
  return `${version}|${timeBucket(request.originalUrl, now)}|${request.headers.host ?? ''}|${request.originalUrl}`;
}

/** A TextAnswer is sent as its text with its own headers; every other body as it is. */
function sendable(reply: FastifyReply, body: unknown): unknown {
  if (!(body instanceof TextAnswer)) return body;
  reply.header('Content-Type', body.contentType);
  for (const [name, value] of Object.entries(body.headers)) reply.header(name, value);
  return body.text;
}

/**
 * The one global interceptor: turns what a handler returns into the answer sent (a `ListResult` into its envelope
 * and paging headers, a `TextAnswer` into its text and headers) and stores the answers to anonymous GETs that the
 * hook could not serve from the cache (SPEC §11.16). One interceptor rather than one per concern: each global Nest
 * interceptor costs every request an rxjs chain and an async resource (docs/benchmarks.md, "Interceptors").
 */
@Injectable()
export class AnswerInterceptor implements NestInterceptor {
  constructor(private readonly cache: ResponseCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const answer = () => next.handle().pipe(map((body) => renderList(reply, body)));
    const key = (request as { cacheKey?: string }).cacheKey;
    if (key === undefined || !this.cache.applies(request)) return answer().pipe(map((body) => sendable(reply, body)));
    const waited = this.cache.inFlight.get(key);
    if (!waited) {
      const result = lastValueFrom(answer(), { defaultValue: undefined })
        .then((body) => {
          if (body === undefined || Buffer.isBuffer(body) || typeof body === 'string') return { body, entry: null };
          const sent = body instanceof TextAnswer ? body.text : answerBody(body);
          const payload = typeof sent === 'string' ? Buffer.from(sent) : sent;
          const type = body instanceof TextAnswer ? body.contentType : 'application/json; charset=utf-8';
          const headers: Record<string, string> = { 'content-type': type, etag: strongEtag(payload), ...(body instanceof TextAnswer ? body.headers : {}) };
          for (const name of KEPT_HEADERS) {
            const value = reply.getHeader(name);
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
          }
          const entry = { payload, headers };
          this.cache.entries.set(key, entry);
          return { body: this.cache.replay(reply, entry), entry };
        })
        .finally(() => this.cache.inFlight.delete(key));
      this.cache.inFlight.set(key, result);
      // The request that computes the answer already carries its headers.
      return from(result).pipe(map((computed) => computed.body));
    }
    return from(waited).pipe(
      switchMap(({ entry }) => {
        // An answer that is not cached (HTML, files) is computed by each request itself.
        if (!entry) return answer().pipe(map((body) => sendable(reply, body)));
        return of(this.cache.replay(reply, entry));
      }),
    );
  }
}
