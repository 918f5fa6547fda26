import type { FastifyRequest } from 'fastify';

export type Role = 'administrator' | 'editor' | 'author' | 'contributor';

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
