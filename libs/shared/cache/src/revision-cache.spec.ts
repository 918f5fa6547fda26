import { RevisionCache } from './revision-cache';

describe('RevisionCache', () => {
  it('gives a value only for the revision it was kept under', () => {
    const cache = new RevisionCache<string>(100);
    cache.set('event 1', 7, 'seven', 5);
    expect(cache.get('event 1', 7)).toBe('seven');
    expect(cache.get('event 1', 8)).toBeUndefined();
    expect(cache.get('event 2', 7)).toBeUndefined();
    cache.set('event 1', 8, 'eight', 5);
    expect(cache.get('event 1', 7)).toBeUndefined();
    expect(cache.get('event 1', 8)).toBe('eight');
    expect(cache.count).toBe(1);
  });

  it('tells whether it holds a key, at any revision', () => {
    const cache = new RevisionCache<string>(8);
    cache.set('a', 1, 'a', 4);
    cache.set('b', 1, 'b', 4);
    expect([cache.holds('a'), cache.holds('b'), cache.holds('c')]).toEqual([true, true, false]);
    cache.set('b', 2, 'b2', 4);
    expect(cache.holds('b')).toBe(true);
    cache.set('c', 1, 'c', 4);
    expect([cache.holds('a'), cache.holds('b'), cache.holds('c')]).toEqual([false, true, true]);
  });

  it('holds at most its capacity, oldest out first, and nothing larger than it or when it is 0', () => {
    const cache = new RevisionCache<string>(10);
    cache.set('a', 1, 'a', 4);
    cache.set('b', 1, 'b', 4);
    cache.set('c', 1, 'c', 4);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, 'b', 'c']);
    cache.set('b', 2, 'b2', 4);
    cache.set('d', 1, 'd', 4);
    expect([cache.get('b', 2), cache.get('c', 1), cache.get('d', 1)]).toEqual(['b2', undefined, 'd']);
    cache.set('huge', 1, 'huge', 11);
    expect(cache.get('huge', 1)).toBeUndefined();
    const none = new RevisionCache<string>(0);
    none.set('a', 1, 'a', 1);
    expect([none.get('a', 1), none.count]).toEqual([undefined, 0]);
  });
});
