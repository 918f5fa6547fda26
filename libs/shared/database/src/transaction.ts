import { setTimeout as sleep } from 'node:timers/promises';
import { DATA_PARTS, DataPart, isDeadlock, isUniqueViolation } from '@calendar/shared/http';
import { DataSource, EntityManager } from 'typeorm';
import { markCommitted } from './idempotency';

/** The parts of the data a running transaction changes, besides the global version every write moves on. */
const changedParts = new WeakMap<EntityManager, Set<DataPart>>();

/**
 * Marks a part of the data (venues, organizers, terms) as changed by the transaction of `manager`: its version
 * moves on with the global one when the transaction ends, so that what is kept of that part is read again.
 */
export function markChanged(manager: EntityManager, part: DataPart): void {
  const parts = changedParts.get(manager) ?? new Set<DataPart>();
  parts.add(part);
  changedParts.set(manager, parts);
}

/** Events a running transaction adds, when adding them is all it does (see `markOnlyAdded`). */
const addedEvents = new WeakMap<EntityManager, number[]>();

/**
 * Declares that the transaction of `manager` adds this event and changes nothing that existing events' list
 * membership depends on (a create: its own texts, links and the records made for it alone). The write log then
 * records the event instead of "any write", and kept totals of event lists catch up by counting the added
 * events only. Anything not declared is logged as a write that needs a full count.
 */
export function markOnlyAdded(manager: EntityManager, eventId: number): void {
  addedEvents.set(manager, [...(addedEvents.get(manager) ?? []), eventId]);
}

/** How many versions back the write log reaches; older kept totals are counted again in full. */
export const WRITE_LOG_VERSIONS = 4096;

/** How often a write is run again whole when a concurrent one got in its way. */
export const WRITE_ATTEMPTS = 12;

/**
 * Runs a write as one transaction, and moves the data version on in that same transaction so that every
 * instance's caches see the write on their next read; the write log gets the transaction's row(s) under the new
 * version. SQLite has one connection, so writes are queued to keep
 * two transactions from interleaving on it; MySQL runs them concurrently on pooled connections.
 *
 * On MySQL two concurrent writes can each choose a value that only one of them may keep (the first free slug
 * of a title) or deadlock. Such a write is run again whole, in a new transaction that sees what the other one
 * committed: a generated value is then chosen anew, and an explicit one meets its conflict in the write's own
 * checks (409 with the record that holds it). `work` must therefore build everything it writes afresh.
 */
export class TransactionRunner {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly attempts = WRITE_ATTEMPTS,
  ) {}

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.once(work);
      } catch (error) {
        if (attempt >= this.attempts || !(isUniqueViolation(error) || isDeadlock(error))) throw error;
        // A random pause, growing with the attempts, keeps the writes that collided from colliding again.
        await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
      }
    }
  }

  private once<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const write = (manager: EntityManager) =>
      work(manager).then(async (result) => {
        await markCommitted(manager, result);
        // The global row and those of the parts changed, in one statement at the end (rows always taken in the
        // same order, so that two writes never wait on each other's version rows the other way round).
        const rows = [1, ...[...(changedParts.get(manager) ?? [])].map((part) => DATA_PARTS[part])].sort((a, b) => a - b);
        await manager.query(`UPDATE data_version SET version = version + 1 WHERE id IN (${rows.join(', ')})`);
        const [{ version }] = await manager.query('SELECT version FROM data_version WHERE id = 1');
        const events = addedEvents.get(manager) ?? [0];
        await manager.query(`INSERT INTO write_log (version, event_id) VALUES ${events.map(() => '(?, ?)').join(', ')}`, events.flatMap((id) => [version, id]));
        if (Number(version) % 64 === 0) await manager.query('DELETE FROM write_log WHERE version <= ?', [Number(version) - WRITE_LOG_VERSIONS]);
        return result;
      });
    if (this.dataSource.options.type === 'mysql') return this.dataSource.transaction(write);
    const result = this.queue.then(() => this.dataSource.transaction(write));
    this.queue = result.catch(() => undefined);
    return result;
  }
}
