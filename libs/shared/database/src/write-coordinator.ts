import { randomInt } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { VERSION_SLOTS } from './data-version';
import { GaleraNode } from './galera';
import { logChanges } from './change-rows';
import { markCommitted } from './idempotency';
import { WriteEffects } from './write-effects';

/** How many writes back the write log reaches in each slot; older kept totals are counted again in full. */
export const WRITE_LOG_PER_SLOT = 128;

/** The flag of a MySQL server's status (sent with every statement's answer) that says a transaction is open. */
const SERVER_STATUS_IN_TRANS = 1;

/**
 * The server ended a write's transaction before the write did: a Galera node aborts a transaction that holds what a
 * replicated one needs, and if the error that says so is lost (caught by code that expected another) the write's
 * later statements each commit alone. The write is then run again whole, like one that met a deadlock.
 */
export class TransactionLostError extends Error {
  constructor() {
    super('The database ended the transaction before the write was done');
  }
}

/** What a feature applies of a write's effects (its own tables: term counts, search rows, the longest span). */
export type EffectApplier = (manager: EntityManager, effects: WriteEffects) => Promise<void>;

/**
 * The version slot a write takes. On a Galera node, one of the slots of that node: the cluster numbers its nodes
 * (`auto_increment_offset` of `auto_increment_increment`, set by `wsrep_auto_increment_control`) and node n takes
 * the slots n - 1, n - 1 + nodes, ...; so writes through different nodes never write the same version row, and
 * never fail certification on it. Elsewhere any slot.
 */
export function slotFor(node = 1, nodes = 1): number {
  const first = (node - 1) % VERSION_SLOTS;
  const step = Math.max(1, Math.min(nodes, VERSION_SLOTS));
  return first + step * randomInt(Math.ceil((VERSION_SLOTS - first) / step));
}

/**
 * Where a write's effects are applied: once its work is done, inside its transaction, in this order:
 * 1. the features' appliers, in the order they registered (search rows, the longest span, term counts);
 * 2. the change log gets a row per record the write changed (SPEC §16), without a position yet;
 * 3. the idempotency key of a create is claimed with the answer's record id;
 * 4. the data versions move on (the global one and those of the parts the write changed), and the write log gets
 *    the write's row(s): the events it only added, or event 0 for any other write.
 */
export class WriteCoordinator {
  private readonly appliers: { name: string; apply: EffectApplier }[] = [];

  constructor(
    private readonly dataSource: DataSource,
    /** Whether the server is a Galera node (asked when the service starts: `GaleraNode.of`). */
    private readonly galera = new GaleraNode(false),
  ) {}

  /** Registers what a feature applies of every write's effects (once, when its module starts). */
  register(name: string, apply: EffectApplier): void {
    if (this.appliers.some((applier) => applier.name === name)) throw new Error(`An applier named ${name} is registered already`);
    this.appliers.push({ name, apply });
  }

  async apply(manager: EntityManager, effects: WriteEffects, result: unknown): Promise<void> {
    for (const { apply } of this.appliers) await apply(manager, effects);
    await logChanges(manager, effects);
    await markCommitted(manager, result);
    await this.moveVersions(manager, effects);
  }

  /** The write's slot's counts move on (the global one and those of the parts it changed), and the log. */
  private async moveVersions(manager: EntityManager, effects: WriteEffects): Promise<void> {
    const slot = await this.slot(manager);
    const parts = [...effects.parts].map((part) => `, ${part} = ${part} + 1`).join('');
    // On MySQL the statement's answer carries the slot's new count (`LAST_INSERT_ID(expr)` gives it as the answer's
    // insert id): no read of it after.
    const mysql = this.dataSource.options.type === 'mysql';
    const moved = await manager.query(`UPDATE version_slots SET writes = ${mysql ? 'LAST_INSERT_ID(writes + 1)' : 'writes + 1'}${parts} WHERE slot = ?`, [slot]);
    await this.assertOpen(manager, moved);
    // The row is this transaction's until it ends: the count read is the one it wrote.
    const seq = mysql ? Number((moved as { insertId: number }).insertId) : Number((await manager.query('SELECT writes FROM version_slots WHERE slot = ?', [slot]))[0].writes);
    const events = effects.onlyAddedEvents() ?? [0];
    // In statements of at most 1,000 rows (an import adds every event at once; SQLite takes 32,766 values a statement).
    for (let at = 0; at < events.length; at += 1000) {
      const batch = events.slice(at, at + 1000);
      await manager.query(`INSERT INTO write_log (slot, seq, event_id) VALUES ${batch.map(() => '(?, ?, ?)').join(', ')}`, batch.flatMap((id) => [slot, seq, id]));
    }
    if (seq % 16 === 0) await manager.query('DELETE FROM write_log WHERE slot = ? AND seq <= ?', [slot, seq - WRITE_LOG_PER_SLOT]);
  }

  /**
   * Throws `TransactionLostError` unless the write's transaction is still open after its work: the statement that
   * moved the version (`answer`: MySQL's status flags) ran inside it, and so did everything before. On SQLite a
   * transaction is opened again for the rollback that follows to end.
   */
  private async assertOpen(manager: EntityManager, answer: { serverStatus?: number } | undefined): Promise<void> {
    if (this.dataSource.options.type === 'mysql') {
      if ((Number(answer?.serverStatus) & SERVER_STATUS_IN_TRANS) === 0) throw new TransactionLostError();
      return;
    }
    if ((this.dataSource.driver as unknown as { databaseConnection: { inTransaction: boolean } }).databaseConnection.inTransaction) return;
    await manager.query('BEGIN');
    throw new TransactionLostError();
  }

  private async slot(manager: EntityManager): Promise<number> {
    if (!this.galera.on) return slotFor();
    // Asked on the transaction's own connection, at each write: the cluster numbers its nodes anew as they come and go.
    const [row] = await manager.query('SELECT @@auto_increment_offset AS node, @@auto_increment_increment AS nodes');
    return slotFor(Number(row.node), Number(row.nodes));
  }
}
