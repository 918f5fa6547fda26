import type { FastifyRequest } from 'fastify';
import type { VersionsHolder } from './response-cache';

export type Role = 'administrator' | 'editor' | 'author' | 'contributor';

/**
 * What a read or write is answered for, without HTTP: who asks, in which language, on which origin its links are
 * built, and the data versions it is answered at. The edge makes one per request (`Context`, in libs/i18n); a job,
 * the command line or a test makes its own (`{ caller: null, language: 'en', origin: SITE_URL, versions: {} }`).
 * A scope is one read's: its `versions` keep the data versions first read through it, so a scope used again after
 * writes answers at the old versions (kept totals, embedded records); make a new one per read.
 */
export interface ReadScope {
  caller: Caller | null;
  language: string;
  /** `scheme://host[:port]` */
  origin: string;
  versions: VersionsHolder;
}

/** The caller, when the request carried valid credentials. */
export interface Caller {
  id: number;
  login: string;
  role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Language named by the URL's language base (`/fr/wp-json/...`), if any. */
    urlLanguage?: string;
    /** The language of the request (SPEC §2.3), set once parameters are known. */
    language?: string;
    /** The authenticated caller, or null for anonymous requests. */
    caller?: Caller | null;
    /** The caller the credentials name, when looked up before the auth guard (rate limits); null: none or not valid. */
    authenticated?: Caller | null;
    /** Parameters from path, body and query merged with that precedence. */
    params_?: Record<string, unknown>;
  }
}

/** Each request's origin, worked out once (answers build many links). */
const origins = new WeakMap<FastifyRequest, string>();

export function requestOrigin(request: FastifyRequest): string {
  const known = origins.get(request);
  if (known !== undefined) return known;
  const origin = originOf(request);
  origins.set(request, origin);
  return origin;
}

function originOf(request: FastifyRequest): string {
  const host = request.headers['x-forwarded-host'] ?? request.headers.host ?? 'localhost';
  const proto = request.headers['x-forwarded-proto'] ?? request.protocol ?? 'http';
  return `${String(proto).split(',')[0].trim()}://${String(host).split(',')[0].trim()}`;
}
