import { BoundedMap, CacheRegistry, SeenKeys } from '@calendar/shared/cache';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { strongEtag } from './caching';
import { answerBody, TextAnswer } from './json-text';
import { renderList } from './list';

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

/** An answer being computed for a key: the requests that ask the same meanwhile wait for `done`. */
interface Computing {
  key: string;
  done: Promise<Entry | null>;
  settle: (entry: Entry | null) => void;
  /** The entry the answer was kept as, once it is. */
  kept: Entry | null;
}

/** What the response cache keeps on a request it looked up and did not find: the answer it computes for the others. */
interface CachedRequest {
  computing?: Computing;
}

/**
 * The answers cached for anonymous GETs, and the Fastify hooks that serve and keep them: `serveHit` (preHandler)
 * answers from the cache before the Nest pipeline runs, `answer` (preSerialization) renders what a handler gives and
 * keeps it, `settle` (onSend) hands it to the requests that waited for it. Hooks rather than a Nest interceptor: an
 * interceptor costs every request an rxjs chain and an async resource (docs/benchmarks-notes.md, "Interceptors").
 * `maxBytes` bounds what it holds (0: no cache).
 *
 * An answer is looked up and kept only from the second request for its URL on (whatever the data version then):
 * a URL asked once (a crawler's walk, a new search, one event among thousands) is not worth a place that answers
 * asked for all the time would use, nor the version read, copy and hash it would cost its request.
 */
export class ResponseCache {
  readonly entries: BoundedMap<Entry>;
  /** Answers being computed: identical requests arriving meanwhile wait for the same one (no stampede). */
  readonly inFlight = new Map<string, Computing>();
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
   * version once; the version is kept on the request for the services when the answer is not cached. The first
   * request for a URL (as far as `seen` remembers) goes straight on: nothing can be cached for it, and its answer
   * will not be kept; it reads the version only if what it computes needs it. A request whose answer another one is
   * computing waits for it, and is answered with it when it was kept (else computes its own: an error, a page).
   */
  async serveHit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (!this.applies(request) || !this.seen.seenBefore(`${request.headers.host ?? ''}|${request.originalUrl}`)) return undefined;
    const version = await this.version.of(versionsOf(request));
    const key = cacheKey(version, Date.now(), request);
    const hit = this.entries.get(key);
    // Returning the reply after sending ends the request here (Fastify's rule for async hooks).
    if (hit) return reply.send(this.replay(reply, hit));
    const computing = this.inFlight.get(key);
    if (computing) {
      const entry = await computing.done;
      return entry ? reply.send(this.replay(reply, entry)) : undefined;
    }
    let settle: (entry: Entry | null) => void = () => undefined;
    const done = new Promise<Entry | null>((resolve) => (settle = resolve));
    const computed: Computing = { key, done, settle, kept: null };
    (request as CachedRequest).computing = computed;
    this.inFlight.set(key, computed);
    return undefined;
  }

  /**
   * Fastify `preSerialization` hook, for every answer given as a value (a handler's, the error filter's): a
   * `ListResult` becomes its envelope and paging headers, a `TextAnswer` its text and headers, and the answer to an
   * anonymous GET asked before is kept (SPEC §11.16) and sent as the kept bytes.
   */
  answer(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    const body = renderList(reply, payload);
    const computing = (request as CachedRequest).computing;
    if (computing === undefined || reply.statusCode !== 200) return sendable(reply, body);
    const sent = body instanceof TextAnswer ? body.text : answerBody(body);
    const bytes = typeof sent === 'string' ? Buffer.from(sent) : sent;
    const type = body instanceof TextAnswer ? body.contentType : 'application/json; charset=utf-8';
    const headers: Record<string, string> = { 'content-type': type, etag: strongEtag(bytes), ...(body instanceof TextAnswer ? body.headers : {}) };
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    computing.kept = { payload: bytes, headers };
    this.entries.set(computing.key, computing.kept);
    return this.replay(reply, computing.kept);
  }

  /**
   * Fastify `onSend` hook: the requests that waited for this one's answer get it (or, when it was not kept, compute
   * their own). Every answer sent passes here, a handler's error or a client gone meanwhile included.
   */
  settle(request: FastifyRequest): void {
    const computing = (request as CachedRequest).computing;
    if (computing === undefined) return;
    (request as CachedRequest).computing = undefined;
    if (this.inFlight.get(computing.key) === computing) this.inFlight.delete(computing.key);
    computing.settle(computing.kept);
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
  /**
   * While set (a read that checks later, `beginAssuming` of the database library): the versions of the parts whose
   * kept values the read used before holding any data versions, taken from the last versions the process saw.
   */
  assumed?: Map<string, number>;
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
 * The body Fastify sends for an answer given as a value (its reply serializer): what `answer` made of it (bytes, or a
 * `TextAnswer`'s text) as it is; a rendered text (`JsonText`) as it is; anything else as `JSON.stringify` gives it.
 * (Fastify sends a string or bytes that a handler gives without serialising them; only `answer` gives them here.)
 */
export function sentBody(payload: unknown): string | Buffer {
  return typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : answerBody(payload);
}
