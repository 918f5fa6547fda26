import { BoundedMap, CacheRegistry, entryKey } from '@calendar/shared/cache';
import type { ReadScope } from '@calendar/shared/http';
import type { VersionsHolder } from '@calendar/shared/http';
import { DataPart, dataVersionsFor, DataVersionSource } from './data-version';

/**
 * Responses of records embedded in other answers (the venues, organizers and terms of events), kept per version
 * of their part of the data (`DATA_PARTS`), language and origin: as long as no venue is written, a venue is
 * loaded and rendered once, not once for every event list it appears in, whatever is written to events. Every
 * write to a part moves its version on (in the write's transaction, seen by every instance), after which its
 * fragments are loaded again when next asked for, so an embedded record is never older than the data.
 * Bounded by entries, oldest first out; 0 turns it off.
 */
export class FragmentCache {
  private readonly entries: BoundedMap<{ version: number; value: unknown }>;

  constructor(
    private readonly versions: DataVersionSource,
    readonly capacity: number,
    registry: CacheRegistry = new CacheRegistry(),
  ) {
    this.entries = registry.bounded('embedded records', capacity, { unit: 'entries' });
  }

  /**
   * The values of `ids` of a part in one language: kept ones of the part's current version, the others from
   * `compute`.
   */
  async many<T>(part: DataPart, language: string, ids: number[], scope: Pick<ReadScope, 'origin' | 'versions'>, compute: (missing: number[]) => Promise<Map<number, T>>): Promise<Map<number, T>> {
    const unique = [...new Set(ids)];
    if (this.capacity === 0 || unique.length === 0) return compute(unique);
    // Read before loading: what is loaded is then at least as new as the version it is kept under.
    const versions = await dataVersionsFor(scope.versions, this.versions);
    const version = versions.parts[part] ?? versions.global;
    const prefix = entryKey(part, language, scope.origin, '');
    const found = new Map<number, T>();
    const missing: number[] = [];
    for (const id of unique) {
      const entry = this.entries.get(prefix + id, (kept) => kept.version === version);
      if (entry) found.set(id, entry.value as T);
      else missing.push(id);
    }
    if (missing.length > 0) {
      for (const [id, value] of await compute(missing)) {
        this.keep(prefix + id, version, value);
        found.set(id, value);
      }
    }
    return new Map(unique.filter((id) => found.has(id)).map((id) => [id, found.get(id) as T]));
  }

  /** One value derived from a part alone (whatever the language and origin), kept per version of the part. */
  async value<T>(part: DataPart, key: string, read: VersionsHolder, compute: () => Promise<T>): Promise<T> {
    if (this.capacity === 0) return compute();
    const versions = await dataVersionsFor(read, this.versions);
    const version = versions.parts[part] ?? versions.global;
    const valueKey = entryKey(part, '', key);
    const entry = this.entries.get(valueKey, (kept) => kept.version === version);
    if (entry) return entry.value as T;
    const value = await compute();
    this.keep(valueKey, version, value);
    return value;
  }

  /** Keeps a value as the newest entry, the oldest going beyond the capacity. */
  private keep(key: string, version: number, value: unknown): void {
    this.entries.set(key, { version, value });
  }
}
