import { ApiException } from './api-exception';
import { preconditionHolds, readPreconditions } from './preconditions';

describe('readPreconditions', () => {
  it('reads If-Match as *, or as a list of entity-tags, weak ones kept as sent', () => {
    expect(readPreconditions({ 'if-match': '*' })).toEqual({ match: '*' });
    expect(readPreconditions({ 'if-match': ' "a" ,W/"b","" ' })).toEqual({ match: ['"a"', 'W/"b"', '""'] });
    expect(readPreconditions({ 'if-match': ['"a"', '"b"'] })).toEqual({ match: ['"a"', '"b"'] });
  });

  it('reads If-Unmodified-Since in the three HTTP date forms', () => {
    const at = Date.UTC(1994, 10, 15, 8, 12, 31);
    for (const text of ['Tue, 15 Nov 1994 08:12:31 GMT', 'Tuesday, 15-Nov-94 08:12:31 GMT', 'Tue Nov 15 08:12:31 1994']) {
      expect(readPreconditions({ 'if-unmodified-since': text })).toEqual({ unmodifiedSince: at });
    }
  });

  it('gives nothing for a request without them', () => {
    expect(readPreconditions({ 'if-none-match': '"a"' })).toBeUndefined();
  });

  it.each([['abc'], ['"a", b'], ['"a"b"'], ['W/a'], ['*, "a"'], ['']])('names a malformed If-Match %j in a 400', (value) => {
    let thrown: unknown;
    try {
      readPreconditions({ 'if-match': value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiException);
    expect((thrown as ApiException).toBody()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): If-Match',
      data: { status: 400, params: { 'If-Match': 'must be * or a comma-separated list of entity-tags, each in double quotes (an ETag this service answered)' } },
    });
  });

  it.each([['2024-01-01'], ['yesterday'], ['Tue, 15 Nov 1994 08:12:31 +0100']])('names a malformed If-Unmodified-Since %j in a 400', (value) => {
    expect(() => readPreconditions({ 'if-unmodified-since': value })).toThrow('Invalid parameter(s): If-Unmodified-Since');
  });
});

describe('preconditionHolds', () => {
  const modified = Date.UTC(2030, 0, 1, 12, 0, 0);

  it('matches If-Match strongly: the ETag itself or *, never its weak form', () => {
    expect(preconditionHolds({ match: ['"x"', '"e"'] }, '"e"', modified)).toBe(true);
    expect(preconditionHolds({ match: '*' }, '"e"', modified)).toBe(true);
    expect(preconditionHolds({ match: ['W/"e"'] }, '"e"', modified)).toBe(false);
    expect(preconditionHolds({ match: ['"x"'] }, '"e"', modified)).toBe(false);
  });

  it('compares If-Unmodified-Since to the second, and ignores it with If-Match or without a modification time', () => {
    expect(preconditionHolds({ unmodifiedSince: modified + 999 }, '"e"', modified + 500)).toBe(true);
    expect(preconditionHolds({ unmodifiedSince: modified }, '"e"', modified)).toBe(true);
    expect(preconditionHolds({ unmodifiedSince: modified - 1000 }, '"e"', modified)).toBe(false);
    expect(preconditionHolds({ match: '*', unmodifiedSince: 0 }, '"e"', modified)).toBe(true);
    expect(preconditionHolds({ unmodifiedSince: 0 }, '"e"', null)).toBe(true);
  });
});
