import { EntityManager } from 'typeorm';
import { ChangedKind, WriteEffects } from './write-effects';

/** Fewer records' rows than this are written with the terms' in one compound statement (SQLite allows 500 SELECTs in one). */
const SELECTS_JOINED = 100;

/**
 * Writes a write's changes into the change log (SPEC §16.2), inside its transaction, as rows without a position:
 * every record it created, updated, trashed or deleted, the records whose answers it changed without writing them,
 * and the terms whose counts it moved (their taxonomy read from the terms).
 */
export async function logChanges(manager: EntityManager, effects: WriteEffects): Promise<void> {
  const rows: [ChangedKind, number][] = effects.changes.map((change) => [change.kind, change.id]);
  for (const [kind, ids] of effects.touched) for (const id of ids) rows.push([kind, id]);
  const terms = [...effects.touchedTerms];
  // A write of a few records (a create, an update) and the terms whose counts it moved: one statement.
  if (rows.length > 0 && terms.length > 0 && rows.length < SELECTS_JOINED && terms.length <= 500) {
    await manager.query(
      `INSERT INTO changes (kind, record_id) ${rows.map(() => 'SELECT ?, ?').join(' UNION ALL ')} UNION ALL SELECT taxonomy, id FROM terms WHERE id IN (${terms.map(() => '?').join(', ')})`,
      [...rows.flat(), ...terms],
    );
    return;
  }
  for (let at = 0; at < rows.length; at += 500) {
    const batch = rows.slice(at, at + 500);
    await manager.query(`INSERT INTO changes (kind, record_id) VALUES ${batch.map(() => '(?, ?)').join(', ')}`, batch.flat());
  }
  for (let at = 0; at < terms.length; at += 500) {
    const batch = terms.slice(at, at + 500);
    await manager.query(`INSERT INTO changes (kind, record_id) SELECT taxonomy, id FROM terms WHERE id IN (${batch.map(() => '?').join(', ')})`, batch);
  }
}
