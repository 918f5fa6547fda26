import type { EntityManager } from 'typeorm';
import type { SearchEntry } from './search';

/** Records per statement when the rows of many are rebuilt at once (the `IN` list, and the rows of one insert). */
export const SEARCH_BATCH = 500;

/**
 * Replaces the index rows of the records `ids` of `kind` with `entriesOf(id)` (none for a record that no longer
 * exists), inside the write's transaction, so a write is searchable at once: one delete and a few multi-row inserts
 * for every 500 records, however many a write (a series, a batch of the seed) rebuilds. `startOf` gives an event's
 * start as stored (each row carries it, for lists that search a window: see `SearchSql.starts`); other kinds none.
 * `fresh`: records the write created, which have no rows yet (`WriteEffects.created`): none are deleted for them.
 */
export async function rebuildSearchRows(
  manager: EntityManager,
  kind: string,
  ids: readonly number[],
  entriesOf: (id: number) => SearchEntry[],
  startOf: (id: number) => string | null = () => null,
  fresh: ReadonlySet<number> = new Set(),
): Promise<void> {
  for (let offset = 0; offset < ids.length; offset += SEARCH_BATCH) {
    const chunk = ids.slice(offset, offset + SEARCH_BATCH);
    const kept = chunk.filter((id) => !fresh.has(id));
    if (kept.length > 0) await manager.query(`DELETE FROM search_tokens WHERE kind = ? AND record_id IN (${kept.map(() => '?').join(', ')})`, [kind, ...kept]);
    const rows = chunk.flatMap((id) => {
      const start = startOf(id);
      return entriesOf(id).map((entry) => [kind, entry.token, id, entry.lang, entry.original ? 1 : 0, start]);
    });
    for (let start = 0; start < rows.length; start += SEARCH_BATCH) {
      const part = rows.slice(start, start + SEARCH_BATCH);
      await manager.query(`INSERT INTO search_tokens (kind, token, record_id, lang, original, start_utc) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`, part.flat());
    }
  }
}
