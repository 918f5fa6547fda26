import type { EventEmitter } from 'node:events';
import { DataSource } from 'typeorm';

/*
 * What the service does differently on a MariaDB Galera node (SPEC §15): its sessions wait, before each read, for
 * the node to apply what the cluster committed before it (`wsrep_sync_wait`), and it is ready only while the node
 * is Synced.
 */

/**
 * Whether the server behind a data source is a Galera node with replication on (`@@wsrep_on`). MySQL has no such
 * variable: that error, and only that one, means "no"; any other (the server unreachable) is thrown, as no answer.
 */
export async function isGaleraNode(query: (sql: string) => Promise<Record<string, unknown>[]>): Promise<boolean> {
  try {
    const [row] = await query('SELECT @@GLOBAL.wsrep_on AS wsrep_on');
    return Number(row?.['wsrep_on'] ?? 0) === 1;
  } catch (error) {
    const cause = (error as { driverError?: { errno?: number; code?: string } }).driverError ?? (error as { errno?: number; code?: string });
    if (cause.errno === 1193 || cause.code === 'ER_UNKNOWN_SYSTEM_VARIABLE') return false;
    throw error;
  }
}

/** Whether the data source's server is a Galera node, asked once when the service starts (see `isGaleraNode`). */
export class GaleraNode {
  constructor(readonly on: boolean) {}

  static async of(dataSource: DataSource): Promise<GaleraNode> {
    return new GaleraNode(dataSource.options.type === 'mysql' && (await isGaleraNode((sql) => dataSource.query(sql))));
  }
}

/** The `wsrep_sync_wait` to set on every session: the configured one on a Galera node, `auto` meaning 1; else none. */
export function syncWaitFor(setting: 'auto' | number, galera: boolean): number | null {
  if (!galera) return null;
  return setting === 'auto' ? 1 : setting;
}

/**
 * Equality ranges up to which MySQL's and MariaDB's optimizer reads the index for each value of an `IN` list to
 * estimate its rows (above it, the index statistics). A list within a radius names every venue in it, often
 * hundreds: at the default (200) a window's page spent about 2 ms of its 3.7 on those reads and 1 on its rows.
 */
export const IN_LIST_DIVE_LIMIT = 10;

/**
 * Every transaction of the service runs at READ COMMITTED (see `TransactionRunner`): set once on each session, so
 * that a write's transaction begins with `START TRANSACTION` alone, one round trip fewer per write.
 */
export const SESSION_READ_COMMITTED = 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED';

/**
 * The statements setting what every session of the service needs: the `IN` list estimates (`IN_LIST_DIVE_LIMIT`),
 * on a Galera node the wait for the cluster's writes (`syncWaitFor`) in the same `SET`, and the isolation level of
 * its transactions.
 */
export function mysqlSessionSettings(wait: number | null): string[] {
  return [`SET SESSION eq_range_index_dive_limit = ${IN_LIST_DIVE_LIMIT}${wait === null ? '' : `, wsrep_sync_wait = ${wait}`}`, SESSION_READ_COMMITTED];
}

/** The data sources whose every session runs its transactions at READ COMMITTED (`onEveryConnection`). */
const readCommitted = new WeakSet<DataSource>();

/** Whether every session of the data source was set to READ COMMITTED when it opened. */
export function sessionsReadCommitted(dataSource: DataSource): boolean {
  return readCommitted.has(dataSource);
}

/**
 * Runs `statements` first, in order, on every connection the data source's MySQL pool opens. To be called before
 * `initialize()`: the pool opens its first connection while the data source initialises.
 */
export function onEveryConnection(dataSource: DataSource, statements: readonly string[]): void {
  const driver = dataSource.driver as unknown as { mysql: { createPool(options: object): EventEmitter } };
  const mysql = driver.mysql;
  driver.mysql = Object.assign(Object.create(mysql), {
    createPool(options: object): EventEmitter {
      const pool = mysql.createPool(options);
      // Queries on a connection run in order: these before any the service sends.
      pool.on('connection', (connection: { query(sql: string, callback: (error: unknown) => void): void }) => {
        for (const sql of statements) connection.query(sql, () => undefined);
      });
      return pool;
    },
  });
  if (statements.includes(SESSION_READ_COMMITTED)) readCommitted.add(dataSource);
}

/** Why a Galera node may not take the service's queries now, or null when it may (Synced and ready). */
export async function galeraNotReady(dataSource: DataSource): Promise<string | null> {
  const rows: { Variable_name: string; Value: string }[] = await dataSource.query(`SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state', 'wsrep_local_state_comment')`);
  const status = Object.fromEntries(rows.map((row) => [row.Variable_name, row.Value]));
  if (status['wsrep_ready'] !== 'ON') return 'the node is not ready (wsrep_ready OFF)';
  // 4: Synced. A donor or a joiner is behind or busy with a state transfer.
  if (status['wsrep_local_state'] !== '4') return `the node is ${status['wsrep_local_state_comment'] ?? 'not Synced'}`;
  return null;
}
