import { encodePath, toQueryString } from './links';

describe('links', () => {
  it('percent-encodes each path segment once', () => {
    expect(encodePath('events/by-slug/café')).toBe('events/by-slug/caf%C3%A9');
    expect(encodePath('events/by-slug/caf%C3%A9')).toBe('events/by-slug/caf%C3%A9');
    expect(encodePath('音乐')).toBe('%E9%9F%B3%E4%B9%90');
  });

  it('serialises filters with lists comma-joined and empty values left out', () => {
    expect(toQueryString({ include: [3, 1], search: 'a b', skipped: undefined, none: null, flag: false })).toBe('include=3%2C1&search=a%20b&flag=false');
  });
});
