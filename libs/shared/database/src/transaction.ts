import { setTimeout as sleep } from 'node:timers/promises';
import { isDeadlock, isUniqueViolation, Metrics } from '@calendar/shared/http';
import { DataSource, EntityManager } from 'typeorm';
import { GaleraNode, sessionsReadCommitted } from './galera';
import { ScopedStore } from './scoped-store';
import { TransactionLostError, WriteCoordinator } from './write-coordinator';
import { WriteEffects } from './write-effects';

/** What to do when a running transaction ends, committed or rolled back (see `onTransactionEnd`). */
const endings = new WeakMap<EntityManager, (() => void)[]>();

/** Runs `done` once the transaction of `manager` (one run by `TransactionRunner`) has ended, committed or not. */
export function onTransactionEnd(manager: EntityManager, done: () => void): void {
  endings.set(manager, [...(endings.get(manager) ?? []), done]);
}

/** How often a write is run again whole when a concurrent one got in its way. */
export const WRITE_ATTEMPTS = 12;

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
 * Runs a write as one transaction. The work records what it changes in the transaction's `WriteEffects`
 * (`WriteEffects.of(manager)`), and the `WriteCoordinator` applies them at the end of the work, inside the same
 * transaction: so every instance's caches see the write on their next read, and what depends on the records written
 * (counts, search rows, versions, the write log) is kept in one place. SQLite has one connection, so writes are
 * queued to keep two transactions from interleaving on it; MySQL runs them concurrently on pooled connections.
 *
 * On MySQL two concurrent writes can each choose a value that only one of them may keep (the first free slug
 * of a title) or deadlock. Such a write is run again whole, in a new transaction that sees what the other one
 * committed: a generated value is then chosen anew, and an explicit one meets its conflict in the write's own
 * checks (409 with the record that holds it). `work` must therefore build everything it writes afresh.
 */
export class TransactionRunner {
  private queue: Promise<unknown> = Promise.resolve();

  /** Where the effects of every write are applied; features register what they apply of them here. */
  readonly coordinator: WriteCoordinator;

  constructor(
    private readonly dataSource: DataSource,
    private readonly attempts = WRITE_ATTEMPTS,
    /** Whether the server is a Galera node (asked when the service starts: `GaleraNode.of`). */
    galera = new GaleraNode(false),
    /** Where retried writes are counted (SPEC §19). */
    private readonly metrics?: Metrics,
  ) {
    guardConnections(dataSource);
    this.coordinator = new WriteCoordinator(dataSource, galera);
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

  /**
   * Runs a transaction that changes no data the answers show (the change log's positions, its pruning): no
   * effects are applied and no version moves; run again whole after a deadlock or a lost certification, and queued
   * with the writes on SQLite.
   */
  async runApart<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.begin(work);
      } catch (error) {
        if (attempt >= this.attempts || !isDeadlock(error)) throw error;
        await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
      }
    }
  }

  private once<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const managers: EntityManager[] = [];
    const write = (manager: EntityManager) => {
      managers.push(manager);
      const effects = WriteEffects.begin(manager);
      return insideWrite.run(true, async () => {
        const result = await work(manager);
        await this.coordinator.apply(manager, effects, result);
        return result;
      });
    };
    return this.begin(write).finally(() => {
      for (const manager of managers) for (const done of endings.get(manager) ?? []) done();
    });
  }

  private begin<T>(write: (manager: EntityManager) => Promise<T>): Promise<T> {
    // READ COMMITTED: each statement sees every write committed before it, so a value computed again after taking
    // a lock (a term's count) sees the write that held it; the service's sessions are set to it when they open
    // (`mysqlSessionSettings`), other data sources (tools, tests) set it per transaction. SQLite runs one write at
    // a time.
    if (this.dataSource.options.type === 'mysql') return sessionsReadCommitted(this.dataSource) ? this.dataSource.transaction(write) : this.dataSource.transaction('READ COMMITTED', write);
    const result = this.queue.then(() => this.dataSource.transaction(write));
    this.queue = result.catch(() => undefined);
    return result;
  }
}
