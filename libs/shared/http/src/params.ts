import type { FastifyRequest } from 'fastify';
import { ApiException } from './api-exception';

type Bag = Record<string, unknown>;

/** `name[]` is the same parameter as `name` (PHP-style repeated keys). */
function normalizeKeys(source: unknown): Bag {
  const bag: Bag = {};
  if (!source || typeof source !== 'object') return bag;
  for (const [rawKey, value] of Object.entries(source as Bag)) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    const previous = bag[key];
    if (previous === undefined) bag[key] = value;
    else bag[key] = [...(Array.isArray(previous) ? previous : [previous]), ...(Array.isArray(value) ? value : [value])];
  }
  return bag;
}

/**
 * Merges the query and body parameters of a request (the body wins, SPEC §2.1) and hands the same bag to
 * `@Query()` and `@Body()`, so a write sent entirely in the query string works like its JSON form. Path
 * parameters stay apart and are read with `@Param()`: they identify the record, so a body `id` can never
 * retarget a write, and on by-slug routes a body `slug` renames while the path `slug` finds the record.
 */
export function mergeRequestParams(request: FastifyRequest): void {
  const body = request.body;
  // An empty body is no body (undefined); a JSON `null`, array, string or number is no set of parameters.
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body))) {
    throw new ApiException(400, 'rest_invalid_json', 'The request body must be a JSON object or form fields.');
  }
  const merged: Bag = { ...normalizeKeys(request.query), ...normalizeKeys(body) };
  request.params_ = merged;
  (request as { query: unknown }).query = merged;
  (request as { body: unknown }).body = merged;
}
