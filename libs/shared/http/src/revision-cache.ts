/**
 * Renderings of records kept under the revision of the row they were made from (a value that every write to the
 * row replaces, read with the row). A rendering is used only while the row that was just read still carries its
 * revision, so it is never older than the data, on any instance, whatever else is written meanwhile. Bounded by
 * the approximate size of what it holds, oldest first out; a capacity of 0 keeps nothing.
 */
export class RevisionCache<V> {
  private readonly entries = new Map<string, { revision: number; value: V; size: number }>();
  private used = 0;

  constructor(
    /** Approximate bytes (characters of text) the cache may hold. */
    readonly capacity: number,
  ) {}

  get(key: string, revision: number): V | undefined {
    const entry = this.entries.get(key);
    return entry?.revision === revision ? entry.value : undefined;
  }

  set(key: string, revision: number, value: V, size: number): void {
    if (this.capacity === 0 || size > this.capacity) return;
    this.remove(key);
    this.entries.set(key, { revision, value, size });
    this.used += size;
    while (this.used > this.capacity) this.remove(this.entries.keys().next().value as string);
  }

  /** Entries held (for tests and diagnostics). */
  get count(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.size;
  }
}
