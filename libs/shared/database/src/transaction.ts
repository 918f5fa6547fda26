import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs a write as one transaction, and moves the data version on in that same transaction so that every
 * instance's caches see the write on their next read. SQLite has one connection, so writes are queued to keep
 * two transactions from interleaving on it; MySQL runs them concurrently on pooled connections.
 */
export class TransactionRunner {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const write = (manager: EntityManager) =>
      work(manager).then(async (result) => {
        await manager.query('UPDATE data_version SET version = version + 1 WHERE id = 1');
        return result;
      });
    if (this.dataSource.options.type === 'mysql') return this.dataSource.transaction(write);
    const result = this.queue.then(() => this.dataSource.transaction(write));
    this.queue = result.catch(() => undefined);
    return result;
  }
}
