import { EntityManager } from 'typeorm';
import { ChangedKind, WriteEffects } from './write-effects';

/**
 * Writes a write's changes into the change log (SPEC §16.2), inside its transaction, as rows without a position:
 * every record it created, updated, trashed or deleted, the records whose answers it changed without writing them,
 * and the terms whose counts it moved (their taxonomy read from the terms).
 */
export async function logChanges(manager: EntityManager, effects: WriteEffects): Promise<void> {
  const rows: [ChangedKind, number][] = effects.changes.map((change) => [change.kind, change.id]);
  for (const [kind, ids] of effects.touched) for (const id of ids) rows.push([kind, id]);
  for (let at = 0; at < rows.length; at += 500) {
    const batch = rows.slice(at, at + 500);
    await manager.query(`INSERT INTO changes (kind, record_id) VALUES ${batch.map(() => '(?, ?)').join(', ')}`, batch.flat());
  }
  const terms = [...effects.touchedTerms];
  for (let at = 0; at < terms.length; at += 500) {
    const batch = terms.slice(at, at + 500);
    await manager.query(`INSERT INTO changes (kind, record_id) SELECT taxonomy, id FROM terms WHERE id IN (${batch.map(() => '?').join(', ')})`, batch);
  }
}
