import { SeenKeys } from './seen-keys';

/** What a cache holds and how well it serves, as `CacheRegistry.stats` reports it. */
export interface CacheStats {
  name: string;
  entries: number;
  /** What the entries are counted at, in the cache's unit. */
  used: number;
  capacity: number;
  unit: 'bytes' | 'entries';
  hits: number;
  misses: number;
}

export interface BoundedMapOptions<V> {
  /** Bounded by `bytes` (each entry costs what `costOf` says) or by `entries` (each costs 1). */
  unit: 'bytes' | 'entries';
  costOf?: (value: V, key: string) => number;
  /** Reads move an entry to the back of the line (least recently used out first); else oldest kept out first. */
  refreshOnRead?: boolean;
  /** An entry costing more than this share of the capacity is not kept (one would push out many small ones). */
  largestShare?: number;
  /**
   * `second sight`: a key is kept only when it was offered once before, recently (or is held at another value):
   * what is made once and never asked again (an event of a window no one lists twice) does not push out what is asked
   * often, nor costs the collector an entry that dies old. Default `always`.
   */
  admission?: 'always' | 'second sight';
}

/**
 * The one bounded map every cache of the service is built on: bounded by bytes or by entries, the oldest (or least
 * recently read) out first, counting its hits and misses. A capacity of 0 keeps nothing (the cache is off).
 */
export class BoundedMap<V> {
  private readonly entries = new Map<string, { value: V; cost: number }>();
  private usedCost = 0;
  private hitCount = 0;
  private missCount = 0;
  /** With admission on second sight: the keys offered lately. */
  private readonly seen?: SeenKeys;

  constructor(
    private capacityValue: number,
    private readonly options: BoundedMapOptions<V>,
  ) {
    if (options.admission === 'second sight') this.seen = new SeenKeys(16_384);
  }

  get capacity(): number {
    return this.capacityValue;
  }

  get unit(): 'bytes' | 'entries' {
    return this.options.unit;
  }

  /** The value of a key, if kept and `current` (when given) accepts it; counted as a hit or a miss. */
  get(key: string, current?: (value: V) => boolean): V | undefined {
    const found = this.entries.get(key);
    if (found === undefined || (current !== undefined && !current(found.value))) {
      this.missCount += 1;
      return undefined;
    }
    this.hitCount += 1;
    if (this.options.refreshOnRead) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found.value;
  }

  /** The value of a key as kept, without counting a hit or a miss or moving it in the line. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * Keeps a value as the newest entry, the oldest going beyond the capacity; says whether it was kept. With
   * admission on second sight, a key neither held nor seen lately is only remembered this time.
   */
  set(key: string, value: V, cost?: number): boolean {
    const held = this.entries.has(key);
    this.delete(key);
    const paid = this.options.unit === 'entries' ? 1 : (cost ?? this.options.costOf?.(value, key) ?? 1);
    if (this.capacityValue === 0 || paid > this.capacityValue * (this.options.largestShare ?? 1)) return false;
    if (this.seen && !held && !this.seen.seenBefore(key)) return false;
    this.entries.set(key, { value, cost: paid });
    this.usedCost += paid;
    while (this.usedCost > this.capacityValue) this.delete(this.entries.keys().next().value as string);
    return true;
  }

  delete(key: string): void {
    const found = this.entries.get(key);
    if (found === undefined) return;
    this.entries.delete(key);
    this.usedCost -= found.cost;
  }

  /** Empties the map and forgets the keys it saw: what comes next is kept as by a new map. */
  clear(): void {
    this.entries.clear();
    this.usedCost = 0;
    this.seen?.clear();
  }

  /** A new capacity (0 turns the cache off); what no longer fits goes, oldest first. */
  resize(capacity: number): void {
    this.capacityValue = capacity;
    while (this.usedCost > this.capacityValue && this.entries.size > 0) this.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the entries are counted at, in the unit of the capacity. */
  get used(): number {
    return this.usedCost;
  }

  stats(name: string): CacheStats {
    return { name, entries: this.entries.size, used: this.usedCost, capacity: this.capacityValue, unit: this.options.unit, hits: this.hitCount, misses: this.missCount };
  }
}

/** The key of an entry made of several parts (an id, a language, an origin…): joined with `|`, which no part holds. */
export function entryKey(...parts: (string | number)[]): string {
  return parts.join('|');
}
