import { SeenKeys } from './seen-keys';

describe('SeenKeys (the URLs the response cache saw, the keys a map with admission on second sight was offered)', () => {
  const urls = (from: number, count: number) => Array.from({ length: count }, (_, index) => `localhost|/wp-json/calendar/events/v1/events?page=${from + index}`);

  it('says a key was seen before from its second time on', () => {
    const seen = new SeenKeys(1_000);
    expect(seen.seenBefore('localhost|/events/1')).toBe(false);
    expect(seen.seenBefore('localhost|/events/1')).toBe(true);
    expect(seen.seenBefore('localhost|/events/1')).toBe(true);
    expect(seen.seenBefore('localhost|/events/1?lang=fr')).toBe(false);
    expect(seen.seenBefore('other.example|/events/1')).toBe(false);
  });

  it('remembers up to its capacity of keys, with few new ones taken for seen ones', () => {
    const seen = new SeenKeys(10_000);
    const mistaken = urls(0, 9_000).filter((url) => seen.seenBefore(url)).length;
    expect(urls(0, 9_000).every((url) => seen.seenBefore(url))).toBe(true);
    // Nearly full: about 1.1 % of new URLs pass for asked ones (9 in 900 expected).
    const passed = urls(9_000, 900).filter((url) => seen.seenBefore(url)).length;
    expect(mistaken).toBeLessThan(60);
    expect(passed).toBeLessThan(30);
  });

  it('starts again empty once full, so that it never fills up', () => {
    const seen = new SeenKeys(100);
    expect(urls(0, 100).some((url) => seen.seenBefore(url))).toBe(false);
    expect(seen.seenBefore('localhost|/first-after-full')).toBe(false);
    // Cleared when the 101st URL came: the first hundred are new again.
    expect(urls(0, 100).filter((url) => seen.seenBefore(url)).length).toBeLessThan(5);
  });
});
