import { approximateBytes, CacheRegistry, ENTRY_OVERHEAD_BYTES } from '@calendar/shared/cache';
import { FragmentCache } from './fragment-cache';
import type { VersionsHolder } from '@calendar/shared/http';
import { beginAssuming, DataVersions, DataVersionSource } from './data-version';

class Versions extends DataVersionSource {
  version = 1;
  venues = 1;
  reads = 0;
  async read(): Promise<DataVersions> {
    this.reads += 1;
    return { global: this.version, parts: { venues: this.venues }, slots: [this.version] };
  }
}

/** Versions noted as the database's source notes them, at each read. */
class ObservedVersions extends Versions {
  override async read(): Promise<DataVersions> {
    const versions = await super.read();
    this.observe(versions);
    return versions;
  }
}

/** A read scope's origin and versions holder, as the edge makes one per request. */
const request = (host = 'a.test') => ({ origin: `http://${host}`, versions: {} });

/** Room for every entry the tests make. */
const PLENTY = 1024 * 1024;

/** What an entry of an id costs the cache: its key (part, language, origin, id), its slot, its value. */
const costOf = (part: string, id: number, value: unknown, host = 'a.test') => ENTRY_OVERHEAD_BYTES + `${part}|en|http://${host}|${id}`.length + approximateBytes(value);

describe('FragmentCache', () => {
  it('renders each id once per version of its part, language and origin, and gives the ids asked in their order', async () => {
    const versions = new Versions();
    const cache = new FragmentCache(versions, PLENTY);
    const rendered: number[][] = [];
    const render = async (missing: number[]) => {
      rendered.push(missing);
      return new Map(missing.filter((id) => id !== 404).map((id) => [id, `v${versions.venues}:${id}`]));
    };
    expect([...(await cache.many('venues', 'en', [2, 1, 2, 404], request(), render))]).toEqual([
      [2, 'v1:2'],
      [1, 'v1:1'],
    ]);
    expect([...(await cache.many('venues', 'en', [1, 3], request(), render))]).toEqual([
      [1, 'v1:1'],
      [3, 'v1:3'],
    ]);
    await cache.many('venues', 'fr', [1], request(), render);
    await cache.many('venues', 'en', [1], request('b.test'), render);
    // A write elsewhere (the global version) leaves venues as they were; a write to venues renders them anew.
    versions.version = 2;
    expect([...(await cache.many('venues', 'en', [1], request(), render))]).toEqual([[1, 'v1:1']]);
    versions.venues = 2;
    expect([...(await cache.many('venues', 'en', [1], request(), render))]).toEqual([[1, 'v2:1']]);
    // A part without a version of its own follows the global one.
    expect([...(await cache.many('terms', 'en', [7], request(), render))]).toEqual([[7, 'v2:7']]);
    versions.version = 3;
    await cache.many('terms', 'en', [7], request(), render);
    expect(rendered).toEqual([[2, 1, 404], [3], [1], [1], [1], [7], [7]]);
  });

  it('keeps term counts per write (the global version), apart from the terms, which only their own writes make stale', async () => {
    class WithTerms extends Versions {
      terms = 1;
      override async read(): Promise<DataVersions> {
        return { ...(await super.read()), parts: { venues: this.venues, terms: this.terms } };
      }
    }
    const versions = new WithTerms();
    const cache = new FragmentCache(versions, PLENTY);
    const read: string[] = [];
    const terms = async (missing: number[]) => (read.push(`terms ${missing}`), new Map(missing.map((id) => [id, `term ${id}`])));
    const counts = async (missing: number[]) => (read.push(`counts ${missing}`), new Map(missing.map((id) => [id, versions.version])));
    const page = async () => [...(await cache.many('terms', 'en', [4, 5], request(), terms))].concat([...(await cache.many('term counts', '', [4, 5], request(), counts))].map(([id, count]) => [id, `count ${count}`]));
    expect(await page()).toEqual([[4, 'term 4'], [5, 'term 5'], [4, 'count 1'], [5, 'count 1']]);
    // A write of an event moves the global version: the counts are read again, the terms stay.
    versions.version = 2;
    expect(await page()).toEqual([[4, 'term 4'], [5, 'term 5'], [4, 'count 2'], [5, 'count 2']]);
    await page();
    // A write of a term moves both.
    versions.version = 3;
    versions.terms = 2;
    await page();
    expect(read).toEqual(['terms 4,5', 'counts 4,5', 'counts 4,5', 'terms 4,5', 'counts 4,5']);
  });

  it('reads the data version once per request and keeps at most its capacity in bytes', async () => {
    const versions = new Versions();
    // Room for two entries of a number under these keys, not three.
    const cache = new FragmentCache(versions, costOf('terms', 1, 1) + costOf('venues', 1, 1));
    const asked = request();
    let renders = 0;
    const render = async (missing: number[]) => {
      renders += missing.length;
      return new Map(missing.map((id) => [id, id]));
    };
    await cache.many('terms', 'en', [1, 2, 3], asked, render);
    await cache.many('venues', 'en', [1], asked, render);
    expect(versions.reads).toBe(1);
    // Terms 1 and 2 went, oldest first: 3 is kept beside venue 1.
    await cache.many('terms', 'en', [3], request(), render);
    await cache.many('terms', 'en', [1], request(), render);
    expect(renders).toBe(5);
  });

  it('counts renderings kept as bytes at their length, and never holds more than its capacity', async () => {
    const registry = new CacheRegistry();
    const capacity = 64 * 1024;
    const cache = new FragmentCache(new Versions(), capacity, registry);
    const text = (id: number) => Buffer.from(JSON.stringify({ id, venue: 'v'.repeat((id * 7919) % 3000) }));
    for (let from = 0; from < 2000; from += 20) {
      const ids = Array.from({ length: 20 }, (_, index) => from + index);
      const found = await cache.many('venues', 'en', ids, request(), async (missing) => new Map(missing.map((id) => [id, text(id)])));
      expect([...found.keys()]).toEqual(ids);
      const [stats] = registry.stats();
      expect(stats.used).toBeLessThanOrEqual(capacity);
    }
    const [stats] = registry.stats();
    // The newest entries are kept, each counted at its bytes and its key.
    const newest = Array.from({ length: stats.entries }, (_, index) => 1999 - index);
    expect(stats.used).toBe(newest.reduce((sum, id) => sum + costOf('venues', id, text(id)), 0));
    expect(stats.used + costOf('venues', 1999 - stats.entries, text(1999 - stats.entries))).toBeGreaterThan(capacity);
  });

  it('renders every time when off', async () => {
    const cache = new FragmentCache(new Versions(), 0);
    let renders = 0;
    for (let i = 0; i < 2; i++) await cache.many('terms', 'en', [1], request(), async (missing) => new Map(missing.map((id) => [id, ++renders])));
    expect(renders).toBe(2);
  });

  it('keeps a value derived from a part per version of that part, whatever the language and origin', async () => {
    const versions = new Versions();
    const cache = new FragmentCache(versions, PLENTY);
    let computed = 0;
    const compute = async () => `v${versions.venues}:${++computed}`;
    expect(await cache.value('venues', 'known', request().versions, compute)).toBe('v1:1');
    expect(await cache.value('venues', 'known', request('b.test').versions, compute)).toBe('v1:1');
    expect(await cache.value('venues', 'other', request().versions, compute)).toBe('v1:2');
    versions.version = 2;
    expect(await cache.value('venues', 'known', request().versions, compute)).toBe('v1:1');
    versions.venues = 2;
    expect(await cache.value('venues', 'known', request().versions, compute)).toBe('v2:3');
    expect(await new FragmentCache(versions, 0).value('venues', 'known', request().versions, compute)).toBe('v2:4');
  });

  it('reads the data versions once per request, even for parts asked for at the same time', async () => {
    const versions = new Versions();
    const cache = new FragmentCache(versions, PLENTY);
    const render = async (missing: number[]) => new Map(missing.map((id) => [id, `v:${id}`]));
    const one = request();
    await Promise.all([cache.many('venues', 'en', [1], one, render), cache.many('organizers', 'en', [2], one, render), cache.many('terms', 'en', [3], one, render)]);
    expect(versions.reads).toBe(1);
    await cache.many('venues', 'en', [1], request(), render);
    expect(versions.reads).toBe(2);
  });

  it('gives the right records while the keys it made are emptied, and keeps at most 20,000 of them', async () => {
    const versions = new Versions();
    const cache = new FragmentCache(versions, 3 * costOf('venues', 1, 'r1'));
    const render = async (missing: number[]) => new Map(missing.map((id) => [id, `r${id}`]));
    const memo = cache as unknown as { keys: Map<string, Map<number, string>>; keyCount: number };
    let most = 0;
    for (let round = 0; round < 12_000; round++) {
      const host = `h${round % 4}.test`;
      const ids = [round, round + 1, round % 3];
      expect([...(await cache.many('venues', 'en', ids, request(host), render))]).toEqual(ids.filter((id, at) => ids.indexOf(id) === at).map((id) => [id, `r${id}`]));
      // The memo of keys is private; its bound is what keeps memory flat under many origins and ids.
      most = Math.max(most, memo.keyCount);
      expect(memo.keyCount).toBeLessThanOrEqual(20_000);
      if (round % 100 === 0) expect([...memo.keys.values()].reduce((sum, ids) => sum + ids.size, 0)).toBe(memo.keyCount);
    }
    expect(most).toBeGreaterThan(19_000);
  });

  it('lets a read that checks later take a value kept at the versions seen last, and tells whether they held', async () => {
    const versions = new ObservedVersions();
    const cache = new FragmentCache(versions, PLENTY);
    let made = 0;
    const make = async () => `venues ${versions.venues} #${(made += 1)}`;
    // Nothing seen yet: read as any other, then kept at venues version 1.
    const first: VersionsHolder = {};
    beginAssuming(first);
    expect(await cache.value('venues', 'near', first, make)).toBe('venues 1 #1');
    expect([versions.reads, first.assumed?.size]).toEqual([1, 0]);
    expect(await cache.assumptionsHold(first)).toBe(true);
    // Taken without reading the versions; the check reads them, and the value held.
    const second: VersionsHolder = {};
    beginAssuming(second);
    expect(await cache.value('venues', 'near', second, make)).toBe('venues 1 #1');
    expect([versions.reads, second.dataVersions, [...(second.assumed ?? [])]]).toEqual([1, undefined, [['venues', 1]]]);
    expect(await cache.assumptionsHold(second)).toBe(true);
    expect([versions.reads, second.assumed]).toEqual([2, undefined]);
    // A venue written since (through another instance): taken at the version seen last, it does not hold...
    versions.venues = 2;
    versions.version = 2;
    const third: VersionsHolder = {};
    beginAssuming(third);
    expect(await cache.value('venues', 'near', third, make)).toBe('venues 1 #1');
    expect(await cache.assumptionsHold(third)).toBe(false);
    // ... and, the read now holding versions, it is made again at them.
    expect(await cache.value('venues', 'near', third, make)).toBe('venues 2 #2');
    // A read that holds versions already assumes nothing.
    const fourth: VersionsHolder = { dataVersions: versions.read() };
    beginAssuming(fourth);
    expect(fourth.assumed).toBeUndefined();
    expect(await cache.value('venues', 'near', fourth, make)).toBe('venues 2 #2');
    expect(await cache.assumptionsHold(fourth)).toBe(true);
  });
});
