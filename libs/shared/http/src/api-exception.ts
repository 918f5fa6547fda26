/**
 * An error the API answers with the envelope of SPEC §3.1: `{code, message, data: {status, ...}}`.
 * Services throw subclasses with their own codes; one filter renders them all.
 */
export class ApiException extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiException';
  }

  toBody(): { code: string; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }

  /** 400 `rest_invalid_param` naming every invalid parameter and what it allows. */
  static invalidParams(params: Record<string, string>): ApiException {
    return new ApiException(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });
  }

  /** 400 `rest_missing_callback_param` listing every absent required parameter. */
  static missingParams(params: string[]): ApiException {
    return new ApiException(400, 'rest_missing_callback_param', `Missing parameter(s): ${params.join(', ')}`, { params });
  }

  static noRoute(): ApiException {
    return new ApiException(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  static methodNotAllowed(allowed: string[]): ApiException {
    return new ApiException(405, 'rest_no_route', 'No route was found matching the URL and request method.', {}, { Allow: allowed.join(', ') });
  }

  /** A write (or any call that needs a login) without credentials: TEC's code and words (SPEC §3.1). */
  static notLoggedIn(): ApiException {
    return new ApiException(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.', {}, {
      'WWW-Authenticate': 'Bearer realm="calendar"',
    });
  }

  static invalidCredentials(): ApiException {
    return new ApiException(401, 'rest_invalid_credentials', 'The credentials sent are not valid.', {}, {
      'WWW-Authenticate': 'Bearer realm="calendar", error="invalid_token"',
    });
  }

  static forbidden(): ApiException {
    return new ApiException(403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
  }

  static archivePageNotFound(kind: string): ApiException {
    return new ApiException(404, `${kind}-archive-page-not-found`, `The requested ${kind} archive page does not exist`);
  }

  static serviceUnavailable(): ApiException {
    return new ApiException(503, 'service-unavailable', 'The service cannot reach its database; try again shortly.', {}, { 'Retry-After': '5' });
  }

  static internal(): ApiException {
    return new ApiException(500, 'internal-error', 'The server could not complete the request.');
  }
}
