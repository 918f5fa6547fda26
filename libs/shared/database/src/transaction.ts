import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs a write as one transaction. SQLite has one connection, so writes are queued to keep two transactions
 * from interleaving on it; MySQL runs them concurrently on pooled connections.
 */
export class TransactionRunner {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.dataSource.options.type === 'mysql') return this.dataSource.transaction(work);
    const result = this.queue.then(() => this.dataSource.transaction(work));
    this.queue = result.catch(() => undefined);
    return result;
  }
}
