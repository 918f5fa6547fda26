import type { EntityManager } from 'typeorm';
import type { SearchEntry } from './search';

/**
 * What an event's search rows carry of its row besides their text (`listing-state.ts` in the database library): its
 * start and end as stored, whether it is listed (published, not hidden from listings) and featured.
 */
export interface ListingState {
  start: string;
  end: string;
  listed: boolean;
  featured: boolean;
}

/** Records per statement when the rows of many are rebuilt at once (the `IN` list, and the rows of one insert). */
export const SEARCH_BATCH = 500;

/**
 * Replaces the index rows of the records `ids` of `kind` with `entriesOf(id)` (none for a record that no longer
 * exists), inside the write's transaction, so a write is searchable at once: one delete and a few multi-row inserts
 * for every 500 records, however many a write (a series, a batch of the seed) rebuilds. `stateOf` gives an event's
 * start as stored and its listing state (each row carries them, for lists that search a window: see `SearchSql.starts`
 * and `SearchSql.asSet`); other kinds none.
 * `fresh`: records the write created, which have no rows yet (`WriteEffects.created`): none are deleted for them.
 */
export async function rebuildSearchRows(
  manager: EntityManager,
  kind: string,
  ids: readonly number[],
  entriesOf: (id: number) => SearchEntry[],
  stateOf: (id: number) => ListingState | null = () => null,
  fresh: ReadonlySet<number> = new Set(),
): Promise<void> {
  for (let offset = 0; offset < ids.length; offset += SEARCH_BATCH) {
    const chunk = ids.slice(offset, offset + SEARCH_BATCH);
    const kept = chunk.filter((id) => !fresh.has(id));
    if (kept.length > 0) await manager.query(`DELETE FROM search_tokens WHERE kind = ? AND record_id IN (${kept.map(() => '?').join(', ')})`, [kind, ...kept]);
    const rows = chunk.flatMap((id) => {
      const state = stateOf(id);
      const carried = state ? [state.start, state.listed ? 1 : 0, state.end, state.featured ? 1 : 0] : [null, null, null, null];
      return entriesOf(id).map((entry) => [kind, entry.token, id, entry.lang, entry.original ? 1 : 0, ...carried]);
    });
    for (let start = 0; start < rows.length; start += SEARCH_BATCH) {
      const part = rows.slice(start, start + SEARCH_BATCH);
      await manager.query(`INSERT INTO search_tokens (kind, token, record_id, lang, original, start_utc, listed, end_utc, featured) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`, part.flat());
    }
  }
}
