import { BoundedMap, CacheRegistry } from '@calendar/shared/cache';
import type { VersionsHolder } from '@calendar/shared/http';
import { DataVersions, dataVersionsFor, DataVersionSource, holdDataVersions } from './data-version';

/**
 * A full count and the slots' counts of writes it was taken at (null: the version the read saw); `also`, other
 * totals the same statement counted, kept with it under their own keys (a list's total and its window's, say).
 */
export interface Counted {
  count: number;
  slots: readonly number[] | null;
  also?: { key: string; count: number }[];
  /** Every data version the count saw, when it was asked to read them (see `countSince`). */
  versions?: DataVersions;
}

/**
 * List totals kept per filter and data version. A total is exact for the data version it was counted at; every
 * write transaction moves the version on (on any instance, since the version lives in the database), so a
 * total read back under the current version is the count a new scan would give. Pages of one filter, and the
 * same filter asked again, then cost one primary-key read instead of a scan of every matching row.
 *
 * Identical counts asked at the same moment share one query (once a total was kept under their key: see
 * `countSince`). The map is bounded by entries, oldest first out.
 */
export class CountMemo {
  private readonly entries: BoundedMap<{ version: number; slots?: readonly number[]; count: number }>;
  private readonly pending = new Map<string, Promise<number>>();

  constructor(
    private readonly versions: DataVersionSource,
    readonly capacity: number,
    registry: CacheRegistry = new CacheRegistry(),
  ) {
    this.entries = registry.bounded('kept totals', capacity, { unit: 'entries' });
  }

  /**
   * `read`: the versions of the read that counts, read once and shared with the other per-version parts.
   * The version is read before counting: the count then sees at least that version's data.
   */
  async count(key: string, compute: () => Promise<number>, read: VersionsHolder = {}): Promise<number> {
    if (this.capacity === 0) return compute();
    return this.countSince(key, read, async () => ({ count: await compute(), slots: null }), async () => null, { readsVersions: false });
  }

  /**
   * A total that catches up with writes instead of being counted again after each: `counted` gives a count together
   * with the slots' counts of writes it was taken at (`DataVersions.slots`, read in the same statement so that the
   * two agree exactly; null: the version the read saw); after writes, `catchUp(from, to)` gives the change of
   * the total between the two states when it can be had without a full count (the writes only added events: count
   * those), or null, and the total is then counted again. `counted(true)` is asked when the read has no data
   * versions yet and nothing is kept under the key: the count then reads every data version in its statement
   * (`Counted.versions`), and they become the read's (`holdDataVersions`).
   */
  async countSince(
    key: string,
    read: VersionsHolder,
    counted: (withVersions: boolean) => Promise<Counted>,
    catchUp: (from: readonly number[], to: readonly number[]) => Promise<number | null>,
    /** Whether `counted(true)` reads every data version with the count (`Counted.versions`). */
    { readsVersions = true }: { readsVersions?: boolean } = {},
  ): Promise<number> {
    // Nothing kept under the key and no versions read yet for this read (a list never asked before): no version to
    // check against, so the count itself reads the versions, in its statement, and they become the read's. One round
    // trip fewer; the versions are exactly those the count is true at. Not shared with an identical count already
    // running: that one may have begun before this read was asked for, and its versions could miss a write the
    // caller committed just before (each read sees every write committed before it was asked for).
    if (readsVersions && read.dataVersions === undefined && (this.capacity === 0 || !this.entries.peek(key))) {
      const result = await counted(true);
      if (!result.versions) throw new Error(`The count of ${key} did not read the data versions it was asked for`);
      holdDataVersions(read, result.versions);
      this.versions.observe(result.versions);
      if (this.capacity > 0) {
        this.keep(key, { count: result.count, version: result.versions.global, slots: result.versions.slots });
        for (const other of result.also ?? []) this.keep(other.key, { count: other.count, version: result.versions.global, slots: result.versions.slots });
      }
      return result.count;
    }
    const current = await dataVersionsFor(read, this.versions);
    if (this.capacity === 0) return (await counted(false)).count;
    const version = current.global;
    const found = this.entries.peek(key);
    if (this.entries.get(key, (entry) => entry.version === version)) return (found as { count: number }).count;
    const flightKey = `${version}\u0000${key}`;
    const running = this.pending.get(flightKey);
    if (running) return running;
    const counting = (async () => {
      // Catching up needs the writes since the kept total: every slot's count then is at most the current one.
      const from = found && found.version < version && found.slots?.every((writes, slot) => writes <= (current.slots[slot] ?? 0)) ? found.slots : undefined;
      const change = from ? await catchUp(from, current.slots) : null;
      const result = found && change !== null ? { count: found.count + change, version, slots: current.slots } : await this.taken(() => counted(false), current.global);
      this.keep(key, result);
      for (const other of result.also ?? []) this.keep(other.key, { count: other.count, version: result.version, slots: result.slots });
      return result.count;
    })().finally(() => this.pending.delete(flightKey));
    this.pending.set(flightKey, counting);
    return counting;
  }

  /** Kept under the version it is exact for, unless a newer one is kept meanwhile. */
  private keep(key: string, entry: { version: number; slots?: readonly number[]; count: number }): void {
    const kept = this.entries.peek(key);
    if (!kept || kept.version <= entry.version) this.entries.set(key, entry);
  }

  /** A full count with the version it is exact for: the one it was taken at, else the one the request read. */
  private async taken(counted: () => Promise<Counted>, read: number): Promise<{ count: number; version: number; slots?: readonly number[]; also?: Counted['also'] }> {
    const { count, slots, also } = await counted();
    return slots ? { count, version: slots.reduce((sum, writes) => sum + writes, 0), slots, also } : { count, version: read, also };
  }
}
