import { NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ApiException } from './api-exception';
import { toApiException } from './error-mapping';

const body = (error: unknown) => {
  const mapped = toApiException(error);
  return mapped === 'not-found' ? mapped : mapped.toBody();
};

describe('toApiException', () => {
  it('keeps API errors and leaves 404s to the route lookup', () => {
    const error = ApiException.forbidden();
    expect(toApiException(error)).toBe(error);
    expect(body(new NotFoundException())).toBe('not-found');
  });

  it('maps database errors of both engines', () => {
    expect(body({ driverError: { errno: 1062, code: 'ER_DUP_ENTRY' } })).toMatchObject({ code: 'rest_conflict', data: { status: 409 } });
    expect(body({ driverError: { code: 'SQLITE_CONSTRAINT_UNIQUE' } })).toMatchObject({ code: 'rest_conflict' });
    expect(body({ driverError: { errno: 1452 } })).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    expect(body({ driverError: { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' } })).toMatchObject({ code: 'rest_invalid_param' });
    const unavailable = toApiException({ code: 'ECONNREFUSED' }) as ApiException;
    expect(unavailable.toBody()).toEqual({ code: 'service-unavailable', message: 'The service cannot reach its database; try again shortly.', data: { status: 503 } });
    expect(unavailable.headers).toEqual({ 'Retry-After': '5' });
    // A pooled connection the server dropped while a node went down.
    for (const dropped of [{ code: 'EPIPE' }, new Error("Can't add new command when connection is in closed state")]) {
      expect(body(dropped)).toEqual(unavailable.toBody());
    }
  });

  it('answers 503 with Retry-After, never 500, for conflicts that outlasted the retries and for a node not ready', () => {
    for (const driverError of [{ errno: 1213, code: 'ER_LOCK_DEADLOCK' }, { errno: 1205, code: 'ER_LOCK_WAIT_TIMEOUT' }]) {
      const conflict = toApiException({ driverError }) as ApiException;
      expect([conflict.toBody(), conflict.headers]).toEqual([
        { code: 'write-conflict', message: 'The write met concurrent writes and was not made; try again.', data: { status: 503 } },
        { 'Retry-After': '1' },
      ]);
    }
    const notReady = toApiException({ driverError: { errno: 1047, code: 'ER_UNKNOWN_COM_ERROR' } }) as ApiException;
    expect([notReady.toBody().code, notReady.headers]).toEqual(['service-unavailable', { 'Retry-After': '5' }]);
    // A commit cut off as its node left the primary component (seen while a node of the cluster was killed).
    const cutOff = {
      errno: 1180,
      code: 'ER_ERROR_DURING_COMMIT',
      sqlMessage: 'Error while appending streaming replication fragment(provider status: Not connected to Primary Component)',
    };
    const lost = toApiException({ name: 'QueryFailedError', message: cutOff.sqlMessage, driverError: cutOff }) as ApiException;
    expect([lost.toBody().code, lost.headers]).toEqual(['service-unavailable', { 'Retry-After': '5' }]);
    // The same failure when the provider gave no status.
    const bare = { ...cutOff, sqlMessage: 'Error while appending streaming replication fragment' };
    expect(body({ message: bare.sqlMessage, driverError: bare })).toMatchObject({ code: 'service-unavailable', data: { status: 503 } });
    // Any other failed commit is not explained by the cluster: a 500, logged.
    const other = { errno: 1180, code: 'ER_ERROR_DURING_COMMIT', sqlMessage: 'Got error 28 "No space left on device" during COMMIT' };
    expect(body({ message: other.sqlMessage, driverError: other })).toMatchObject({ code: 'internal-error', data: { status: 500 } });
  });

  it('maps framework errors and hides everything else behind a generic 500', () => {
    expect(body(new PayloadTooLargeException())).toMatchObject({ code: 'rest_request_too_large', data: { status: 413 } });
    expect(body({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' })).toMatchObject({ code: 'rest_unsupported_media_type', data: { status: 415 } });
    expect(body(new Error('SELECT * FROM secrets failed at /srv/app.js:12'))).toEqual({
      code: 'internal-error',
      message: 'The server could not complete the request.',
      data: { status: 500 },
    });
  });
});
