import type { Logger } from 'typeorm';
import { ScopedStore } from './scoped-store';

/** Set while work of the process's own runs (a delivery pass, a pruning): its statements are no request's. */
const background = new ScopedStore<true>();

/**
 * Runs work that no request asked for (a worker's pass, a timer's pruning): its statements are not counted, so
 * that a test counting a request's statements does not count a poll that happened meanwhile.
 */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/**
 * Counts the SQL statements a process sends, so that tests can check that a request runs a bounded number
 * of queries whatever its page size (SPEC §10). It prints nothing.
 */
export class QueryCounter implements Logger {
  count = 0;
  /** The statements themselves with their parameters, while a test records them (`record`, `recordStatements`). */
  private recorded: [string, unknown[]][] | null = null;

  logQuery(query: string, parameters?: unknown[]): void {
    if (background.get()) return;
    this.count += 1;
    this.recorded?.push([query, parameters ?? []]);
  }

  /** The statements `work` sends (besides any sent meanwhile by other requests), in order. */
  async record(work: () => Promise<unknown>): Promise<string[]> {
    return (await this.recordStatements(work)).map(([query]) => query);
  }

  /** As `record`, each statement with its parameters: what running it again needs (an `EXPLAIN`, say). */
  async recordStatements(work: () => Promise<unknown>): Promise<[string, unknown[]][]> {
    const recorded: [string, unknown[]][] = [];
    this.recorded = recorded;
    try {
      await work();
    } finally {
      this.recorded = null;
    }
    return recorded;
  }
  logQueryError(): void {
    return;
  }
  logQuerySlow(): void {
    return;
  }
  logSchemaBuild(): void {
    return;
  }
  logMigration(): void {
    return;
  }
  log(): void {
    return;
  }
}

/** The counter of this process's data sources. */
export const queryCounter = new QueryCounter();
