import { cacheKey, LruCache, SeenUrls, timeBucket } from './response-cache';

describe('LruCache', () => {
  const sized = (maxBytes: number) => new LruCache<string>(maxBytes, (value) => value.length);

  it('keeps the most recently used entries within its byte budget', () => {
    // Each entry costs 2 bytes of key and 100 of value: three fit in 320 bytes, four do not.
    const cache = sized(16 * 20);
    for (const key of ['a', 'b', 'c']) expect(cache.set(key, 'x'.repeat(18))).toBe(true);
    expect([cache.size, cache.bytes]).toEqual([3, 60]);
    // 102 bytes an entry in a budget of 16 × 102: sixteen fit; a seventeenth pushes out the least recently used.
    const big = sized(16 * 102);
    const keys = 'abcdefghijklmnop'.split('');
    for (const key of keys) big.set(key, 'x'.repeat(100));
    expect([big.size, big.bytes]).toEqual([16, 16 * 102]);
    expect(big.get('a')).toHaveLength(100);
    big.set('q', 'y'.repeat(100));
    expect([big.get('b'), big.size, big.bytes]).toEqual([undefined, 16, 16 * 102]);
    expect([big.get('a')?.length, big.get('c')?.length, big.get('q')?.length]).toEqual([100, 100, 100]);
  });

  it('counts a replaced entry once, and keeps nothing bigger than a sixteenth of its budget', () => {
    const cache = sized(1600);
    cache.set('k', 'x'.repeat(50));
    cache.set('k', 'x'.repeat(20));
    expect([cache.size, cache.bytes]).toEqual([1, 22]);
    expect(cache.set('huge', 'x'.repeat(100))).toBe(false);
    expect([cache.get('huge'), cache.size, cache.bytes]).toEqual([undefined, 1, 22]);
  });

  it('holds nothing with a budget of 0', () => {
    const cache = sized(0);
    expect(cache.set('a', '')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('never holds more than its budget, whatever passes through it', () => {
    const cache = sized(64 * 1024);
    for (let index = 0; index < 10_000; index += 1) {
      cache.set(`key-${index}`, 'z'.repeat((index * 7919) % 4000));
      expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    }
  });
});

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
