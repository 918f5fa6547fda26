import { createHash } from 'node:crypto';
import { ApiException } from '@calendar/shared/http';

/** What a sync token or cursor belongs to (SPEC §16.2): a kind, a filter (with the language) and a caller. */
export interface SyncScope {
  kind: string;
  /** A digest of the sync's filter and language. */
  filter: string;
  /** The caller's user id, 0 for anonymous callers. */
  caller: number;
}

/** Where a finished sync left a client: the position it covers, and when it was given (for the retention). */
export interface SyncToken extends SyncScope {
  seq: number;
  issuedAt: number;
}

/**
 * Where a sync in progress goes on: a full sync after the record `afterId` (records in id order), or the changes
 * after (`afterSeq`, `afterId`) among those between the positions `from` and `to`; `to` becomes the token's position
 * once the last page is read.
 */
export interface SyncCursor extends SyncScope {
  mode: 'full' | 'changes';
  from: number;
  to: number;
  afterSeq: number;
  afterId: number;
  issuedAt: number;
}

const VERSION = 1;

/** The digest that binds a token to its filter: the same for the same filter, whatever the order of its values. */
export function filterDigest(kind: string, filter: Record<string, unknown>): string {
  const canonical = Object.keys(filter)
    .filter((key) => filter[key] !== undefined)
    .sort()
    .map((key) => {
      const value = filter[key];
      return [key, Array.isArray(value) ? [...value].map(String).sort() : value];
    });
  return createHash('sha256').update(JSON.stringify([kind, canonical])).digest('base64url').slice(0, 16);
}

function checksum(body: string): string {
  return createHash('sha256').update(`calendar-sync:${body}`).digest('base64url').slice(0, 12);
}

function encode(payload: unknown[]): string {
  const body = Buffer.from(JSON.stringify([VERSION, ...payload])).toString('base64url');
  return `${body}.${checksum(body)}`;
}

function decode(text: string, length: number): unknown[] | null {
  const [body, sum, ...rest] = text.split('.');
  if (rest.length > 0 || !body || sum !== checksum(body)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== length + 1 || parsed[0] !== VERSION) return null;
    return parsed.slice(1);
  } catch {
    return null;
  }
}

const isWhole = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export function invalidSyncToken(why: string): ApiException {
  return new ApiException(400, 'invalid-sync-token', `The sync token cannot be used: ${why}. Start again with a full sync (no sync_token).`, { params: { sync_token: why } });
}

export function syncTokenExpired(): ApiException {
  return new ApiException(410, 'sync-token-expired', 'The sync token is older than the change log reaches. Drop the copy and run a full sync (no sync_token).');
}

export function encodeToken(token: SyncToken): string {
  return encode(['t', token.kind, token.filter, token.caller, token.seq, token.issuedAt]);
}

export function encodeCursor(cursor: SyncCursor): string {
  return encode(['c', cursor.kind, cursor.filter, cursor.caller, cursor.mode, cursor.from, cursor.to, cursor.afterSeq, cursor.afterId, cursor.issuedAt]);
}

/** Checks that a token or cursor was made by this service for this scope; 400 `invalid-sync-token` otherwise. */
function checkScope(parts: unknown[], scope: SyncScope, what: string): void {
  const [kind, filter, caller] = parts;
  if (kind !== scope.kind) throw invalidSyncToken(`the ${what} belongs to another kind of record`);
  if (filter !== scope.filter) throw invalidSyncToken(`the ${what} belongs to another filter or language`);
  if (caller !== scope.caller) throw invalidSyncToken(`the ${what} belongs to another caller`);
}

export function decodeToken(text: string, scope: SyncScope): SyncToken {
  const parts = decode(text, 6);
  if (!parts || parts[0] !== 't' || !isWhole(parts[4]) || !isWhole(parts[5]) || !isWhole(parts[3])) throw invalidSyncToken('it is malformed');
  checkScope(parts.slice(1), scope, 'token');
  return { ...scope, seq: parts[4] as number, issuedAt: parts[5] as number };
}

export function decodeCursor(text: string, scope: SyncScope): SyncCursor {
  const parts = decode(text, 10);
  if (!parts || parts[0] !== 'c' || !['full', 'changes'].includes(parts[4] as string) || !parts.slice(5).every(isWhole) || !isWhole(parts[3])) throw invalidSyncToken('the cursor is malformed');
  checkScope(parts.slice(1), scope, 'cursor');
  const [from, to, afterSeq, afterId, issuedAt] = parts.slice(5) as number[];
  return { ...scope, mode: parts[4] as SyncCursor['mode'], from, to, afterSeq, afterId, issuedAt };
}
