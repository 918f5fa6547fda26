import { cacheKey, LruCache } from './response-cache';

describe('LruCache', () => {
  it('keeps the most recently used entries within its capacity', () => {
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.size]).toEqual([1, 3, 2]);
  });
});

describe('cacheKey', () => {
  const request = { originalUrl: '/fr/wp-json/calendar/events/v1/events?page=2', headers: { host: 'a.example' } };
  it('changes with the data version, the minute, the host and the whole original URL', () => {
    const key = cacheKey(7, 120_000, request);
    expect(key).toBe('7|2|a.example|/fr/wp-json/calendar/events/v1/events?page=2');
    expect(cacheKey(8, 120_000, request)).not.toBe(key);
    expect(cacheKey(7, 180_000, request)).not.toBe(key);
    expect(cacheKey(7, 120_000, { ...request, originalUrl: '/wp-json/calendar/events/v1/events?page=2' })).not.toBe(key);
  });
});
