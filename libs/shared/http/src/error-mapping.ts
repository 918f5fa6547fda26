import { HttpException } from '@nestjs/common';
import { ApiException } from './api-exception';

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  // 1047: a Galera node that is not (yet) part of the cluster's primary component takes no queries.
  'ER_UNKNOWN_COM_ERROR',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
]);

interface ErrorLike {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  /** The server's own message of a mysql2 error (`message` may be prefixed by TypeORM). */
  sqlMessage?: unknown;
  statusCode?: unknown;
  driverError?: ErrorLike;
  name?: string;
}

function driverError(error: ErrorLike): ErrorLike {
  return error.driverError ?? error;
}

export function isUniqueViolation(error: unknown): boolean {
  const cause = driverError(error as ErrorLike);
  return cause.errno === 1062 || cause.code === 'ER_DUP_ENTRY' || cause.code === 'SQLITE_CONSTRAINT_UNIQUE' || cause.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * A transaction the database gave up on for another's sake, which succeeds when run again whole: a lock cycle or a
 * Galera certification conflict (1213), a lock wait that timed out (1205), a Galera node not ready for use (1047),
 * or a SQLite file another connection (another instance) holds the write lock of.
 */
export function isDeadlock(error: unknown): boolean {
  const cause = driverError(error as ErrorLike);
  return (
    [1213, 1205, 1047].includes(Number(cause.errno)) ||
    ['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'ER_UNKNOWN_COM_ERROR', 'SQLITE_BUSY'].includes(String(cause.code))
  );
}

export function isForeignKeyViolation(error: unknown): boolean {
  const cause = driverError(error as ErrorLike);
  return cause.errno === 1452 || cause.code === 'ER_NO_REFERENCED_ROW_2' || cause.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * A commit a Galera node could not replicate, typically because it has just left the cluster's primary component
 * (1180, ER_ERROR_DURING_COMMIT; MariaDB words every replication failure at commit as "Error while appending
 * streaming replication fragment", with the provider's status when it has one): nothing was committed, and the node
 * takes no writes until it rejoins, as with 1047. Other commit errors stay unexpected.
 */
function isCommitOutsidePrimary(cause: ErrorLike): boolean {
  return (
    (Number(cause.errno) === 1180 || cause.code === 'ER_ERROR_DURING_COMMIT') &&
    /replication fragment|provider status|primary component/i.test(String(cause.sqlMessage ?? cause.message ?? ''))
  );
}

export function isConnectionError(error: unknown): boolean {
  const cause = driverError(error as ErrorLike);
  return (
    (typeof cause.code === 'string' && CONNECTION_ERRORS.has(cause.code)) ||
    isCommitOutsidePrimary(cause) ||
    ['CannotExecuteNotConnectedError', 'ConnectionIsNotSetError'].includes(String((error as ErrorLike).name)) ||
    // Matched by message, not `instanceof`: driver errors may come from another realm (native addons, test VMs).
    // mysql2 on a pooled connection the server dropped meanwhile: "Can't add new command when connection is in closed state".
    /pool is closed|connection is not (yet )?established|database connection is not open|connection is in closed state/i.test(String((error as { message?: unknown })?.message ?? ''))
  );
}

/**
 * Maps any error to the API's envelope, in one ordered chain: API errors, framework and parser errors,
 * database errors, then a generic 500. Returns `undefined` for 404s so that the caller can look for a 405.
 */
export function toApiException(error: unknown): ApiException | 'not-found' {
  if (error instanceof ApiException) return error;
  const err = error as ErrorLike;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404) return 'not-found';
    if (status === 413) return tooLarge();
    if (status === 415) return unsupportedMediaType();
    if (status === 400) return /json/i.test(error.message) ? invalidJson() : new ApiException(400, 'rest_bad_request', 'The request could not be read.');
    if (status < 500) return new ApiException(status, 'rest_bad_request', 'The request could not be read.');
    return ApiException.internal();
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalidJson();
  }
  if (error instanceof SyntaxError && err.statusCode === 400) return invalidJson();
  if (isConnectionError(error)) return ApiException.serviceUnavailable();
  // Still conflicting after the write's own retries (TransactionRunner): the client may try again.
  if (isDeadlock(error)) return new ApiException(503, 'write-conflict', 'The write met concurrent writes and was not made; try again.', {}, { 'Retry-After': '1' });
  if (isForeignKeyViolation(error)) {
    return new ApiException(400, 'rest_invalid_param', 'A referenced record does not exist.', { params: {} });
  }
  if (isUniqueViolation(error)) {
    return new ApiException(409, 'rest_conflict', 'The record conflicts with an existing one; retry the request.');
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 && typeof err.code === 'string' && err.code.startsWith('FST_')) {
    return new ApiException(err.statusCode, 'rest_bad_request', 'The request could not be read.');
  }
  return ApiException.internal();
}

function tooLarge(): ApiException {
  return new ApiException(413, 'rest_request_too_large', 'The request body is larger than 1 MiB.');
}

function unsupportedMediaType(): ApiException {
  return new ApiException(415, 'rest_unsupported_media_type', 'Send parameters as JSON, form fields or in the query string.');
}

function invalidJson(): ApiException {
  return new ApiException(400, 'rest_invalid_json', 'Invalid JSON body passed.');
}
