import type { EntityManager } from 'typeorm';
import type { SearchEntry } from './search';

/** Replaces the index rows of one record, inside the write's transaction (so a write is searchable at once). */
export async function replaceSearchRows(manager: EntityManager, kind: string, recordId: number, entries: SearchEntry[]): Promise<void> {
  await manager.query('DELETE FROM search_tokens WHERE kind = ? AND record_id = ?', [kind, recordId]);
  for (let offset = 0; offset < entries.length; offset += 500) {
    const chunk = entries.slice(offset, offset + 500);
    await manager.query(
      `INSERT INTO search_tokens (kind, token, record_id, lang, original) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
      chunk.flatMap((entry) => [kind, entry.token, recordId, entry.lang, entry.original ? 1 : 0]),
    );
  }
}
