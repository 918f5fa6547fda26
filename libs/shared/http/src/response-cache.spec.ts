import { cacheKey, timeBucket } from './response-cache';

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
