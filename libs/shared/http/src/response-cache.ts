import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { strongEtag } from './caching';
import { from, lastValueFrom, map, Observable, of, switchMap } from 'rxjs';

/** Where the current data version comes from (the database; every write transaction moves it on). */
export abstract class DataVersionSource {
  abstract current(): Promise<number>;
}

/** Headers a cached list response must carry again. */
const KEPT_HEADERS = ['x-tec-total', 'x-tec-totalpages', 'x-wp-total', 'x-wp-totalpages', 'link'];

/** A cached answer: its serialised JSON (smaller than the object, and never serialised twice) and headers. */
interface Entry {
  payload: string;
  headers: Record<string, string>;
}

/** A bounded least-recently-used map. */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The answers cached for anonymous GETs, shared by the Fastify hook that serves hits before the Nest pipeline
 * and the interceptor that stores misses.
 */
export class ResponseCache {
  readonly entries = new LruCache<Entry>(1000);
  /** Answers being computed: identical requests arriving meanwhile wait for the same one (no stampede). */
  readonly inFlight = new Map<string, Promise<{ body: unknown; entry: Entry | null }>>();

  constructor(
    readonly versions: DataVersionSource,
    /** Path prefixes never cached (liveness and readiness must not depend on the database). */
    private readonly skipped: string[] = [],
  ) {}

  /** Anonymous GETs only: a request that sends credentials is never answered from the cache. */
  applies(request: FastifyRequest): boolean {
    return request.method === 'GET' && request.headers.authorization === undefined && !this.skipped.some((prefix) => request.url.startsWith(prefix));
  }

  /** Sets the cached headers on the reply and gives the payload to send as it is. */
  replay(reply: FastifyReply, entry: Entry): string {
    for (const [name, value] of Object.entries(entry.headers)) reply.header(name, value);
    return entry.payload;
  }

  /**
   * Fastify `preHandler` hook: answers a cached request before the Nest pipeline runs, after reading the data
   * version once; the version is kept on the request for the interceptor when the answer is not cached.
   */
  async serveHit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (!this.applies(request)) return undefined;
    const key = cacheKey(await this.versions.current(), Date.now(), request);
    (request as { cacheKey?: string }).cacheKey = key;
    const hit = this.entries.get(key);
    // Returning the reply after sending ends the request here (Fastify's rule for async hooks).
    return hit ? reply.send(this.replay(reply, hit)) : undefined;
  }
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

/** Stores the answers to anonymous GETs that the hook could not serve from the cache (SPEC §11.16). */
@Injectable()
export class ResponseCacheInterceptor implements NestInterceptor {
  constructor(private readonly cache: ResponseCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const key = (request as { cacheKey?: string }).cacheKey;
    if (key === undefined || !this.cache.applies(request)) return next.handle();
    let pending = this.cache.inFlight.get(key);
    if (!pending) {
      pending = lastValueFrom(next.handle(), { defaultValue: undefined })
        .then((body) => {
          if (body === undefined || Buffer.isBuffer(body) || typeof body === 'string') return { body, entry: null };
          const payload = JSON.stringify(body);
          const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', etag: strongEtag(payload) };
          for (const name of KEPT_HEADERS) {
            const value = reply.getHeader(name);
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
          }
          const entry = { payload, headers };
          this.cache.entries.set(key, entry);
          return { body: this.cache.replay(reply, entry), entry };
        })
        .finally(() => this.cache.inFlight.delete(key));
      this.cache.inFlight.set(key, pending);
      // The request that computes the answer already carries its headers.
      return from(pending).pipe(map((result) => result.body));
    }
    return from(pending).pipe(
      switchMap(({ entry }) => {
        // An answer that is not cached (HTML, files) is computed by each request itself.
        if (!entry) return next.handle();
        return of(this.cache.replay(reply, entry));
      }),
    );
  }
}
