import { approximateBytes, BoundedMap, CacheRegistry, ENTRY_OVERHEAD_BYTES, entryKey } from '@calendar/shared/cache';
import type { ReadScope } from '@calendar/shared/http';
import type { VersionsHolder } from '@calendar/shared/http';
import { assume, assumedVersions, assumptionsHold, dataVersionsFor, DataVersionSource, KeptPart, keptVersion } from './data-version';

/** Keys of records kept made once however few entries the cache holds yet. */
const KEYS_KEPT_AT_LEAST = 10_000;

/**
 * Responses of records embedded in other answers (the venues, organizers and terms of events), kept per version
 * of their part of the data (`DATA_PARTS`), language and origin: as long as no venue is written, a venue is
 * loaded and rendered once, not once for every event list it appears in, whatever is written to events. Every
 * write to a part moves its version on (in the write's transaction, seen by every instance), after which its
 * fragments are loaded again when next asked for, so an embedded record is never older than the data.
 * Bounded by bytes (each entry at `approximateBytes` of its value), oldest first out; 0 turns it off. Records'
 * renderings are kept as UTF-8 bytes (`RecordReader.presentByIds`), outside the collector's heap: at a million
 * events the venues and organizers a list embeds are some 30,000 texts, which the heap's old generation would
 * have to hold and mark.
 */
export class FragmentCache {
  private readonly entries: BoundedMap<{ version: number; value: unknown }>;
  /**
   * The keys of records' entries, made once per prefix (part, language, origin) and id: a page asks for about a
   * hundred records, and a key made anew per lookup is a new string to hash, where a kept one has its hash. Emptied
   * when it holds twice as many keys as the cache has entries (or as `KEYS_KEPT_AT_LEAST`).
   */
  private readonly keys = new Map<string, Map<number, string>>();
  private keyCount = 0;

  constructor(
    private readonly versions: DataVersionSource,
    /** Bytes (about) the entries may hold; 0 keeps none. */
    readonly capacity: number,
    registry: CacheRegistry = new CacheRegistry(),
  ) {
    this.entries = registry.bounded('embedded records', capacity, { unit: 'bytes' });
  }

  /**
   * The values of `ids` of a part in one language: kept ones of the part's current version, the others from
   * `compute`.
   */
  async many<T>(part: KeptPart, language: string, ids: number[], scope: Pick<ReadScope, 'origin' | 'versions'>, compute: (missing: number[]) => Promise<Map<number, T>>): Promise<Map<number, T>> {
    const unique = new Set(ids);
    if (this.capacity === 0 || unique.size === 0) return compute([...unique]);
    // Read before loading: what is loaded is then at least as new as the version it is kept under.
    const versions = await dataVersionsFor(scope.versions, this.versions);
    const version = keptVersion(versions, part);
    const keyOf = this.keysOf(entryKey(part, language, scope.origin, ''));
    const current = (kept: { version: number }) => kept.version === version;
    const found = new Map<number, T>();
    const missing: number[] = [];
    for (const id of unique) {
      const entry = this.entries.get(keyOf(id), current);
      if (entry) found.set(id, entry.value as T);
      else missing.push(id);
    }
    // All kept (what a list's venues, organizers and terms mostly are): found in the order asked.
    if (missing.length === 0) return found;
    for (const [id, value] of await compute(missing)) {
      this.keep(keyOf(id), version, value);
      found.set(id, value);
    }
    const ordered = new Map<number, T>();
    for (const id of unique) {
      const value = found.get(id);
      if (value !== undefined) ordered.set(id, value);
    }
    return ordered;
  }

  /**
   * Ends a read's assuming (`beginAssuming`): whether the kept values it took at assumed versions are those of the
   * versions it holds (see `assumptionsHold`).
   */
  assumptionsHold(read: VersionsHolder): Promise<boolean> {
    return assumptionsHold(read, this.versions);
  }

  /** One value derived from a part alone (whatever the language and origin), kept per version of the part. */
  async value<T>(part: KeptPart, key: string, read: VersionsHolder, compute: () => Promise<T>): Promise<T> {
    if (this.capacity === 0) return compute();
    const valueKey = entryKey(part, '', key);
    // A read that checks later (`beginAssuming`) takes a value kept at the part's version the process saw last.
    const assumed = assumedVersions(read, this.versions);
    if (assumed !== undefined) {
      const version = keptVersion(assumed, part);
      // Looked at first without counting a miss: a value not kept at that version is looked up as any other.
      const entry = this.entries.peek(valueKey)?.version === version ? this.entries.get(valueKey) : undefined;
      if (entry) {
        assume(read, part, version);
        return entry.value as T;
      }
    }
    const versions = await dataVersionsFor(read, this.versions);
    const version = keptVersion(versions, part);
    const entry = this.entries.get(valueKey, (kept) => kept.version === version);
    if (entry) return entry.value as T;
    const value = await compute();
    this.keep(valueKey, version, value);
    return value;
  }

  /** The entry key of an id under a prefix, the same string each time. */
  private keysOf(prefix: string): (id: number) => string {
    let byId = this.keys.get(prefix);
    if (!byId) this.keys.set(prefix, (byId = new Map()));
    const ids = byId;
    return (id) => {
      let key = ids.get(id);
      if (key === undefined) {
        if (this.keyCount >= 2 * Math.max(this.entries.size, KEYS_KEPT_AT_LEAST)) {
          // All go, this prefix's ids too (its map stays, as the caller holds it).
          this.keys.clear();
          ids.clear();
          this.keys.set(prefix, ids);
          this.keyCount = 0;
        }
        key = prefix + id;
        ids.set(id, key);
        this.keyCount += 1;
      }
      return key;
    };
  }

  /** Keeps a value as the newest entry, the oldest going beyond the capacity. */
  private keep(key: string, version: number, value: unknown): void {
    this.entries.set(key, { version, value }, ENTRY_OVERHEAD_BYTES + key.length + approximateBytes(value));
  }
}
