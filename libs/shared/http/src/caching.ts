import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/** A strong ETag: a digest of the exact body. */
export function strongEtag(payload: string | Buffer): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 32)}"`;
}

/**
 * Strong ETags on successful GETs, 304 for a matching If-None-Match, and the Cache-Control of SPEC §3.2 / §11.7.
 * The ETag is a digest of the exact body, so callers who see different bodies get different ETags.
 */
export function applyCaching(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  reply.header('Cache-Control', request.caller ? 'private, no-cache' : 'public, max-age=0, must-revalidate');
  if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
  if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
  // A cached answer brings the ETag of its payload along; others get one computed here. A text is encoded once,
  // and those bytes are both digested and sent (digesting the text would encode a copy of it only for the digest).
  const known = reply.getHeader('ETag');
  const body = typeof known !== 'string' && typeof payload === 'string' ? Buffer.from(payload) : payload;
  const etag = typeof known === 'string' ? known : strongEtag(body);
  reply.header('ETag', etag);
  if (matches(request.headers['if-none-match'], etag)) {
    reply.code(304);
    reply.removeHeader('Content-Type');
    reply.removeHeader('Content-Length');
    return '';
  }
  return body;
}
