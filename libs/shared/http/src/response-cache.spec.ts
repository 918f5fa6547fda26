import { cacheKey, SeenUrls, timeBucket } from './response-cache';

describe('cacheKey', () => {
  const request = { originalUrl: '/fr/wp-json/calendar/events/v1/events?page=2', headers: { host: 'a.example' } };
  it('changes with the data version, the quarter hour, the host and the whole original URL', () => {
    const key = cacheKey(7, 1_000_000, request);
    expect(key).toBe('7|q1|a.example|/fr/wp-json/calendar/events/v1/events?page=2');
    expect(cacheKey(8, 1_000_000, request)).not.toBe(key);
    expect(cacheKey(7, 1_700_000, request)).toBe(key);
    expect(cacheKey(7, 1_800_000, request)).not.toBe(key);
    expect(cacheKey(7, 1_000_000, { ...request, originalUrl: '/wp-json/calendar/events/v1/events?page=2' })).not.toBe(key);
  });

  it('keeps answers compared with the exact time for a minute only', () => {
    expect(timeBucket('/venues?only_with_upcoming=1', 125_000)).toBe('m2');
    expect(timeBucket('/events?starts_after=now&strict_dates=true', 125_000)).toBe('m2');
    expect(timeBucket('/events?start_date=2030-01-01', 125_000)).toBe('q0');
  });
});

describe('SeenUrls', () => {
  const urls = (from: number, count: number) => Array.from({ length: count }, (_, index) => `localhost|/wp-json/calendar/events/v1/events?page=${from + index}`);

  it('says a URL was asked before from its second time on', () => {
    const seen = new SeenUrls(1_000);
    expect(seen.askedBefore('localhost|/events/1')).toBe(false);
    expect(seen.askedBefore('localhost|/events/1')).toBe(true);
    expect(seen.askedBefore('localhost|/events/1')).toBe(true);
    expect(seen.askedBefore('localhost|/events/1?lang=fr')).toBe(false);
    expect(seen.askedBefore('other.example|/events/1')).toBe(false);
  });

  it('remembers up to its capacity of URLs, with few new ones taken for asked ones', () => {
    const seen = new SeenUrls(10_000);
    const mistaken = urls(0, 9_000).filter((url) => seen.askedBefore(url)).length;
    expect(urls(0, 9_000).every((url) => seen.askedBefore(url))).toBe(true);
    // Nearly full: about 1.1 % of new URLs pass for asked ones (9 in 900 expected).
    const passed = urls(9_000, 900).filter((url) => seen.askedBefore(url)).length;
    expect(mistaken).toBeLessThan(60);
    expect(passed).toBeLessThan(30);
  });

  it('starts again empty once full, so that it never fills up', () => {
    const seen = new SeenUrls(100);
    expect(urls(0, 100).some((url) => seen.askedBefore(url))).toBe(false);
    expect(seen.askedBefore('localhost|/first-after-full')).toBe(false);
    // Cleared when the 101st URL came: the first hundred are new again.
    expect(urls(0, 100).filter((url) => seen.askedBefore(url)).length).toBeLessThan(5);
  });
});
