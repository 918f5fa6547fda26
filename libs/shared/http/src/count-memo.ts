import { dataVersionFor, DataVersionSource } from './response-cache';

/**
 * List totals kept per filter and data version. A total is exact for the data version it was counted at; every
 * write transaction moves the version on (on any instance, since the version lives in the database), so a
 * total read back under the current version is the count a new scan would give. Pages of one filter, and the
 * same filter asked again, then cost one primary-key read instead of a scan of every matching row.
 *
 * Identical counts asked at the same moment share one query. The map is bounded by entries, oldest first out.
 */
export class CountMemo {
  private readonly entries = new Map<string, { version: number; count: number }>();
  private readonly pending = new Map<string, Promise<number>>();

  constructor(
    private readonly versions: DataVersionSource,
    readonly capacity: number,
  ) {}

  /**
   * `request`: the request counting, whose data version is read once and shared with the other per-version parts.
   * The version is read before counting: the count then sees at least that version's data.
   */
  async count(key: string, compute: () => Promise<number>, request: object = {}): Promise<number> {
    if (this.capacity === 0) return compute();
    return this.countSince(key, request, async (version) => ({ count: await compute(), version }), async () => null);
  }

  /**
   * A total that catches up with writes instead of being counted again after each: `counted` gives a count together
   * with the global version it was taken at (one statement, so that the two agree exactly); after writes,
   * `catchUp(from, to)` gives the change of the total between the two versions when it can be had without a full
   * count (the writes only added events: count those), or null, and the total is then counted again. `counted`
   * is given the version the request read.
   */
  async countSince(
    key: string,
    request: object,
    counted: (requestVersion: number) => Promise<{ count: number; version: number }>,
    catchUp: (from: number, to: number) => Promise<number | null>,
  ): Promise<number> {
    const version = await dataVersionFor(request, this.versions);
    if (this.capacity === 0) return (await counted(version)).count;
    const found = this.entries.get(key);
    if (found?.version === version) return found.count;
    const flightKey = `${version}\u0000${key}`;
    const running = this.pending.get(flightKey);
    if (running) return running;
    const counting = (async () => {
      const change = found && found.version < version ? await catchUp(found.version, version) : null;
      const result = found && change !== null ? { count: found.count + change, version } : await counted(version);
      // Kept under the version it is exact for, unless a newer one is kept meanwhile.
      const kept = this.entries.get(key);
      if (!kept || kept.version <= result.version) {
        this.entries.delete(key);
        this.entries.set(key, { version: result.version, count: result.count });
        if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
      }
      return result.count;
    })().finally(() => this.pending.delete(flightKey));
    this.pending.set(flightKey, counting);
    return counting;
  }
}
