import { setTimeout as sleep } from 'node:timers/promises';
import { randomInt } from 'node:crypto';
import { DataPart, isDeadlock, isUniqueViolation } from '@calendar/shared/http';
import { DataSource, EntityManager } from 'typeorm';
import { VERSION_SLOTS } from './data-version';
import { GaleraNode } from './galera';
import { markCommitted } from './idempotency';
import { ScopedStore } from './scoped-store';

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

/** What to do when a running transaction ends, committed or rolled back (see `onTransactionEnd`). */
const endings = new WeakMap<EntityManager, (() => void)[]>();

/** Runs `done` once the transaction of `manager` (one run by `TransactionRunner`) has ended, committed or not. */
export function onTransactionEnd(manager: EntityManager, done: () => void): void {
  endings.set(manager, [...(endings.get(manager) ?? []), done]);
}

/** How many writes back the write log reaches in each slot; older kept totals are counted again in full. */
export const WRITE_LOG_PER_SLOT = 128;

/** How often a write is run again whole when a concurrent one got in its way. */
export const WRITE_ATTEMPTS = 12;

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

/** The flag of a MySQL server's status (sent with every statement's answer) that says a transaction is open. */
const SERVER_STATUS_IN_TRANS = 1;

/** Set while a write's work runs: its queries must all go through its transaction's manager. */
const insideWrite = new ScopedStore<true>();

/** The data sources whose connections are guarded (see `guardConnections`). */
const guarded = new WeakSet<DataSource>();

/**
 * Makes a query that a write would send on another connection than its transaction's (through the data source or
 * a repository instead of the transaction's manager) an error. Such a query does not see what the write did
 * so far, and it waits for a free connection of the pool while holding one: as many simultaneous writes as the
 * pool has connections would all wait for ever.
 */
export function guardConnections(dataSource: DataSource): void {
  if (guarded.has(dataSource)) return;
  guarded.add(dataSource);
  const create = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (...args: Parameters<DataSource['createQueryRunner']>) => {
    if (insideWrite.get()) throw new Error('A query inside a write transaction must go through its manager, not through another connection');
    return create(...args);
  };
}

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
 * Runs a write as one transaction, and moves the data versions on in that same transaction so that every
 * instance's caches see the write on their next read; the write log gets the transaction's row(s) under its slot
 * and the slot's new count. SQLite has one connection, so writes are queued to keep two transactions from
 * interleaving on it; MySQL runs them concurrently on pooled connections.
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
    /** Whether the server is a Galera node (asked when the service starts: `GaleraNode.of`). */
    private readonly galera = new GaleraNode(false),
  ) {
    guardConnections(dataSource);
  }

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.once(work);
      } catch (error) {
        if (attempt >= this.attempts || !(isUniqueViolation(error) || isDeadlock(error) || error instanceof TransactionLostError)) throw error;
        // A random pause, growing with the attempts, keeps the writes that collided from colliding again.
        await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
      }
    }
  }

  private once<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const managers: EntityManager[] = [];
    const write = (manager: EntityManager) => {
      managers.push(manager);
      return insideWrite.run(true, () => work(manager)).then(async (result) => {
        await markCommitted(manager, result);
        await this.log(manager);
        return result;
      });
    };
    return this.begin(write).finally(() => {
      for (const manager of managers) for (const done of endings.get(manager) ?? []) done();
    });
  }

  private begin<T>(write: (manager: EntityManager) => Promise<T>): Promise<T> {
    // READ COMMITTED: each statement sees every write committed before it, so a value computed again after taking
    // a lock (a term's count) sees the write that held it. SQLite runs one write at a time.
    if (this.dataSource.options.type === 'mysql') return this.dataSource.transaction('READ COMMITTED', write);
    const result = this.queue.then(() => this.dataSource.transaction(write));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** The end of every write: its slot's counts move on (the global one and those of the parts it changed), and the log. */
  private async log(manager: EntityManager): Promise<void> {
    const slot = await this.slot(manager);
    const parts = [...(changedParts.get(manager) ?? [])].map((part) => `, ${part} = ${part} + 1`).join('');
    const moved = await manager.query(`UPDATE version_slots SET writes = writes + 1${parts} WHERE slot = ?`, [slot]);
    await this.assertOpen(manager, moved);
    // The row is this transaction's until it ends: the count read is the one it wrote.
    const [{ writes }] = await manager.query('SELECT writes FROM version_slots WHERE slot = ?', [slot]);
    const seq = Number(writes);
    const events = addedEvents.get(manager) ?? [0];
    await manager.query(`INSERT INTO write_log (slot, seq, event_id) VALUES ${events.map(() => '(?, ?, ?)').join(', ')}`, events.flatMap((id) => [slot, seq, id]));
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
