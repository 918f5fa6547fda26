import { FragmentCache } from './fragment-cache';
import { DataVersions, DataVersionSource } from './data-version';

class Versions extends DataVersionSource {
  version = 1;
  venues = 1;
  reads = 0;
  async read(): Promise<DataVersions> {
    this.reads += 1;
    return { global: this.version, parts: { venues: this.venues }, slots: [this.version] };
  }
}

/** A read scope's origin and versions holder, as the edge makes one per request. */
const request = (host = 'a.test') => ({ origin: `http://${host}`, versions: {} });

describe('FragmentCache', () => {
  it('renders each id once per version of its part, language and origin, and gives the ids asked in their order', async () => {
    const versions = new Versions();
    const cache = new FragmentCache(versions, 100);
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
    const cache = new FragmentCache(versions, 100);
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

  it('reads the data version once per request and keeps at most its capacity', async () => {
    const versions = new Versions();
    const cache = new FragmentCache(versions, 2);
    const asked = request();
    let renders = 0;
    const render = async (missing: number[]) => {
      renders += missing.length;
      return new Map(missing.map((id) => [id, id]));
    };
    await cache.many('terms', 'en', [1, 2, 3], asked, render);
    await cache.many('venues', 'en', [1], asked, render);
    expect(versions.reads).toBe(1);
    await cache.many('terms', 'en', [3], request(), render);
    await cache.many('terms', 'en', [1], request(), render);
    expect(renders).toBe(5);
  });

  it('renders every time when off', async () => {
    const cache = new FragmentCache(new Versions(), 0);
    let renders = 0;
    for (let i = 0; i < 2; i++) await cache.many('terms', 'en', [1], request(), async (missing) => new Map(missing.map((id) => [id, ++renders])));
    expect(renders).toBe(2);
  });

  it('keeps a value derived from a part per version of that part, whatever the language and origin', async () => {
    const versions = new Versions();
    const cache = new FragmentCache(versions, 10);
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
    const cache = new FragmentCache(versions, 100);
    const render = async (missing: number[]) => new Map(missing.map((id) => [id, `v:${id}`]));
    const one = request();
    await Promise.all([cache.many('venues', 'en', [1], one, render), cache.many('organizers', 'en', [2], one, render), cache.many('terms', 'en', [3], one, render)]);
    expect(versions.reads).toBe(1);
    await cache.many('venues', 'en', [1], request(), render);
    expect(versions.reads).toBe(2);
  });

  it('gives the right records while the keys it made are emptied, and keeps at most twice its capacity of them', async () => {
    const versions = new Versions();
    const cache = new FragmentCache(versions, 3);
    const render = async (missing: number[]) => new Map(missing.map((id) => [id, `r${id}`]));
    for (let round = 0; round < 20; round++) {
      const host = `h${round % 4}.test`;
      const ids = [round, round + 1, round % 3];
      expect([...(await cache.many('venues', 'en', ids, request(host), render))]).toEqual(ids.filter((id, at) => ids.indexOf(id) === at).map((id) => [id, `r${id}`]));
      // The memo of keys is private; its bound is what keeps memory flat under many origins and ids.
      const memo = cache as unknown as { keys: Map<string, Map<number, string>>; keyCount: number };
      expect(memo.keyCount).toBeLessThanOrEqual(6);
      expect([...memo.keys.values()].reduce((sum, ids) => sum + ids.size, 0)).toBe(memo.keyCount);
    }
  });
});
