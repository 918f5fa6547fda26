import { BoundedMap, BoundedMapOptions } from './bounded-map';

/**
 * Values kept under a revision (a number that changes with every write of the thing they are made from): a value
 * is given back only for the revision it was kept under, so a write makes it stale without telling the cache.
 * Bounded by approximate bytes (characters of text), oldest first out; a capacity of 0 keeps nothing. `admission`
 * as BoundedMap's: `second sight` keeps a key's value only when it is offered again (renderings of events most of
 * which are shown once: a wide calendar asked in windows that seldom repeat).
 */
export class RevisionCache<V> {
  readonly map: BoundedMap<{ revision: number; value: V }>;

  constructor(capacity: number, { admission = 'always' }: Pick<BoundedMapOptions<unknown>, 'admission'> = {}) {
    this.map = new BoundedMap(capacity, { unit: 'bytes', admission });
  }

  get capacity(): number {
    return this.map.capacity;
  }

  get(key: string, revision: number): V | undefined {
    return this.map.get(key, (entry) => entry.revision === revision)?.value;
  }

  /** Whether a value is kept under a key, at any revision. */
  holds(key: string): boolean {
    return this.map.peek(key) !== undefined;
  }

  set(key: string, revision: number, value: V, size: number): void {
    this.map.set(key, { revision, value }, size);
  }

  /** Entries held (for tests and diagnostics). */
  get count(): number {
    return this.map.size;
  }
}
