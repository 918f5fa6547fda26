import { Injectable, OnModuleInit } from '@nestjs/common';
import { Metrics } from '@calendar/shared/http';
import { AfterQueryEvent, DataSource, EntitySubscriberInterface } from 'typeorm';

/** What mysql2's pool keeps (its own fields: the package exposes no counts). */
interface MysqlPool {
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
  config: { connectionLimit: number };
}

/**
 * The database's metrics (SPEC §19): each statement's duration (TypeORM's after-query event, timed by the
 * driver), and, read at scrape time, the pool's connections in use, idle and waited for. Write retries are counted
 * by `TransactionRunner`.
 */
@Injectable()
export class DatabaseMetrics implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const queries = this.metrics.queries;
    const subscriber: EntitySubscriberInterface = {
      afterQuery(event: AfterQueryEvent<unknown>) {
        queries.observe({ outcome: event.success ? 'ok' : 'error' }, (event.executionTime ?? 0) / 1000);
      },
    };
    this.dataSource.subscribers.push(subscriber);
    this.metrics.gauge('calendar_db_pool_connections', 'Connections of the database pool, by state: in_use, idle, and the most it opens (limit)', ['state'], async () => this.pool());
    this.metrics.gauge('calendar_db_pool_waiting', 'Requests for a connection waiting for the pool to free one', [], async () => [{ labels: {}, value: this.waiting() }]);
  }

  private pool(): { labels: { state: string }; value: number }[] {
    if (this.dataSource.options.type !== 'mysql') {
      // SQLite: one connection, in use while a write's transaction is open.
      const inTransaction = (this.dataSource.driver as unknown as { databaseConnection?: { inTransaction: boolean } }).databaseConnection?.inTransaction ? 1 : 0;
      return [
        { labels: { state: 'in_use' }, value: inTransaction },
        { labels: { state: 'idle' }, value: 1 - inTransaction },
        { labels: { state: 'limit' }, value: 1 },
      ];
    }
    const pool = (this.dataSource.driver as unknown as { pool: MysqlPool }).pool;
    const open = pool._allConnections.length;
    const idle = pool._freeConnections.length;
    return [
      { labels: { state: 'in_use' }, value: open - idle },
      { labels: { state: 'idle' }, value: idle },
      { labels: { state: 'limit' }, value: pool.config.connectionLimit },
    ];
  }

  private waiting(): number {
    if (this.dataSource.options.type !== 'mysql') return 0;
    return (this.dataSource.driver as unknown as { pool: MysqlPool }).pool._connectionQueue.length;
  }
}
