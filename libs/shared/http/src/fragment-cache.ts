import type { FastifyRequest } from 'fastify';
import { requestOrigin } from './request-context';
import { dataVersionFor, DataVersionSource } from './response-cache';

/**
 * Responses of records embedded in other answers (the venues, organizers and terms of events), kept per data
 * version, language and origin: as long as nothing is written, a venue is loaded and rendered once, not once
 * for every event list it appears in. Every write moves the data version on (on any instance), after which
 * each fragment is loaded again when next asked for, so an embedded record is never older than the data.
 * Bounded by entries, oldest first out; 0 turns it off.
 */
export class FragmentCache {
  private readonly entries = new Map<string, { version: number; value: unknown }>();

  constructor(
    private readonly versions: DataVersionSource,
    readonly capacity: number,
  ) {}

  /** The values of `ids` in `scope` (kind and language): kept ones of this version, the others from `compute`. */
  async many<T>(scope: string, ids: number[], request: FastifyRequest, compute: (missing: number[]) => Promise<Map<number, T>>): Promise<Map<number, T>> {
    const unique = [...new Set(ids)];
    if (this.capacity === 0 || unique.length === 0) return compute(unique);
    // Read before loading: what is loaded is then at least as new as the version it is kept under.
    const version = await dataVersionFor(request, this.versions);
    const prefix = `${scope}|${requestOrigin(request)}|`;
    const found = new Map<number, T>();
    const missing: number[] = [];
    for (const id of unique) {
      const entry = this.entries.get(prefix + id);
      if (entry?.version === version) found.set(id, entry.value as T);
      else missing.push(id);
    }
    if (missing.length > 0) {
      for (const [id, value] of await compute(missing)) {
        this.entries.delete(prefix + id);
        this.entries.set(prefix + id, { version, value });
        found.set(id, value);
      }
      while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    }
    return new Map(unique.filter((id) => found.has(id)).map((id) => [id, found.get(id) as T]));
  }
}
