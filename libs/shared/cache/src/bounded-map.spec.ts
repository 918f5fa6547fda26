import { BoundedMap, entryKey } from './bounded-map';

describe('BoundedMap by bytes, least recently used out first (the response cache)', () => {
  const sized = (maxBytes: number) =>
    new BoundedMap<string>(maxBytes, { unit: 'bytes', costOf: (value, key) => key.length * 2 + value.length, refreshOnRead: true, largestShare: 1 / 16 });

  it('keeps the most recently used entries within its byte budget', () => {
    // Each entry costs 2 bytes of key and 100 of value: three fit in 320 bytes, four do not.
    const cache = sized(16 * 20);
    for (const key of ['a', 'b', 'c']) expect(cache.set(key, 'x'.repeat(18))).toBe(true);
    expect([cache.size, cache.used]).toEqual([3, 60]);
    // 102 bytes an entry in a budget of 16 × 102: sixteen fit; a seventeenth pushes out the least recently used.
    const big = sized(16 * 102);
    const keys = 'abcdefghijklmnop'.split('');
    for (const key of keys) big.set(key, 'x'.repeat(100));
    expect([big.size, big.used]).toEqual([16, 16 * 102]);
    expect(big.get('a')).toHaveLength(100);
    big.set('q', 'y'.repeat(100));
    expect([big.get('b'), big.size, big.used]).toEqual([undefined, 16, 16 * 102]);
    expect([big.get('a')?.length, big.get('c')?.length, big.get('q')?.length]).toEqual([100, 100, 100]);
  });

  it('counts a replaced entry once, and keeps nothing bigger than a sixteenth of its budget', () => {
    const cache = sized(1600);
    cache.set('k', 'x'.repeat(50));
    cache.set('k', 'x'.repeat(20));
    expect([cache.size, cache.used]).toEqual([1, 22]);
    expect(cache.set('huge', 'x'.repeat(100))).toBe(false);
    expect([cache.get('huge'), cache.size, cache.used]).toEqual([undefined, 1, 22]);
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
      expect(cache.used).toBeLessThanOrEqual(64 * 1024);
    }
  });
});

describe('BoundedMap by entries, oldest out first', () => {
  it('counts hits and misses, a stale entry as a miss, and keeps nothing once resized to 0', () => {
    const map = new BoundedMap<{ version: number }>(2, { unit: 'entries' });
    map.set(entryKey('venues', 'fr', 7), { version: 1 });
    map.set(entryKey('venues', 'fr', 8), { version: 1 });
    expect(map.get('venues|fr|7', (entry) => entry.version === 1)).toEqual({ version: 1 });
    expect(map.get('venues|fr|7', (entry) => entry.version === 2)).toBeUndefined();
    map.set('venues|fr|9', { version: 1 });
    expect([map.get('venues|fr|7'), map.get('venues|fr|8'), map.size]).toEqual([undefined, { version: 1 }, 2]);
    expect(map.stats('embedded records')).toEqual({ name: 'embedded records', entries: 2, used: 2, capacity: 2, unit: 'entries', hits: 2, misses: 2 });
    map.resize(0);
    expect([map.set('venues|fr|10', { version: 1 }), map.size, map.used]).toEqual([false, 0, 0]);
  });
});

describe('BoundedMap with admission on second sight (renderings of events)', () => {
  const seeing = (capacity: number) => new BoundedMap<string>(capacity, { unit: 'bytes', admission: 'second sight' });

  it('keeps a key the second time it is offered, and a held key at every new value', () => {
    const cache = seeing(100);
    expect([cache.set('a', 'one', 3), cache.get('a'), cache.size]).toEqual([false, undefined, 0]);
    // Asked for and missed again: asking does not count, offering does.
    expect(cache.get('a')).toBeUndefined();
    expect([cache.set('a', 'two', 3), cache.get('a'), cache.size, cache.used]).toEqual([true, 'two', 1, 3]);
    expect([cache.set('a', 'three', 5), cache.get('a'), cache.used]).toEqual([true, 'three', 5]);
    expect([cache.set('b', 'one', 3), cache.get('b'), cache.get('a')]).toEqual([false, undefined, 'three']);
  });

  it('still keeps nothing with a capacity of 0, and its byte budget once keys are admitted', () => {
    const off = seeing(0);
    expect([off.set('a', 'x', 1), off.set('a', 'x', 1), off.size]).toEqual([false, false, 0]);
    const cache = seeing(10);
    for (const key of ['a', 'b', 'c', 'a', 'b', 'c']) cache.set(key, key, 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.used]).toEqual([undefined, 'b', 'c', 8]);
  });

  it('forgets the keys it was offered when emptied', () => {
    const cache = seeing(100);
    cache.set('a', 'one', 3);
    cache.clear();
    expect([cache.set('a', 'two', 3), cache.size]).toEqual([false, 0]);
    expect([cache.set('a', 'three', 3), cache.get('a')]).toEqual([true, 'three']);
  });

  it('lets keys offered once pass through without pushing out the ones offered twice', () => {
    // Room for 60: the 30 offered twice, and the few offered once that the filter takes for seen (about 1 in 400).
    const cache = seeing(60 * 10);
    const often = Array.from({ length: 30 }, (_, index) => `often ${index}`);
    for (const key of [...often, ...often]) cache.set(key, key, 10);
    let kept = 0;
    for (let index = 0; index < 4_000; index += 1) if (cache.set(`once ${index}`, 'x', 10)) kept += 1;
    expect(often.filter((key) => cache.get(key) === key)).toEqual(often);
    expect(kept).toBeLessThan(30);
    expect(cache.size).toBe(30 + kept);
  });
});
