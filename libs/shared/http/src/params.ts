import type { FastifyRequest } from 'fastify';
import { parse as parseBrackets } from 'qs';
import { ApiException } from './api-exception';

type Bag = Record<string, unknown>;

/**
 * The keys of a query string or a form body read as PHP builds them (`http_build_query`): `categories[0]=5&
 * categories[1]=jazz` is the list `categories`, `venue[venue]=Hall&venue[city]=Paris` the object `venue`, and
 * `name[]=a&name[]=b` the list `name`. Keys without brackets are left as they are; prototype keys are dropped.
 */
export function readBracketKeys(source: Bag): Bag {
  if (!Object.keys(source).some((key) => key.includes('['))) return source;
  return parseBrackets(source as Record<string, string>, { depth: 5, arrayLimit: 100, parameterLimit: 1000, allowPrototypes: false }) as Bag;
}

/** `name[]` is the same parameter as `name` (repeated keys). */
function normalizeKeys(source: unknown, brackets: boolean): Bag {
  const bag: Bag = {};
  if (!source || typeof source !== 'object') return bag;
  const keyed = brackets ? readBracketKeys(source as Bag) : (source as Bag);
  for (const [rawKey, value] of Object.entries(keyed)) {
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
  // Form and multipart fields are text with PHP's bracket keys; a JSON body's keys are names as they are.
  const jsonBody = /\bjson\b/i.test(String(request.headers['content-type'] ?? ''));
  const merged: Bag = { ...normalizeKeys(request.query, true), ...normalizeKeys(body, !jsonBody) };
  request.params_ = merged;
  (request as { query: unknown }).query = merged;
  (request as { body: unknown }).body = merged;
}
