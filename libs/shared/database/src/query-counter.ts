import type { Logger } from 'typeorm';

/**
 * Counts the SQL statements a process sends, so that tests can check that a request runs a bounded number
 * of queries whatever its page size (SPEC §10). It prints nothing.
 */
export class QueryCounter implements Logger {
  count = 0;

  logQuery(): void {
    this.count += 1;
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
