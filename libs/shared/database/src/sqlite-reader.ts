import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { DataSource, QueryFailedError, QueryRunner } from 'typeorm';
import { BroadcasterResult } from 'typeorm/subscriber/BroadcasterResult';
import { QueryResult } from 'typeorm/query-runner/QueryResult';

/** Webpack's name for Node.js's own `require` in a bundle (the bundle's `require` resolves only what it bundled). */
declare const __non_webpack_require__: NodeJS.Require | undefined;

/**
 * A statement that only reads: what may run on the reading thread's connection. Only a SELECT: a statement that
 * begins with WITH may be a write (`WITH ... INSERT`), which the read-only connection would refuse.
 */
const READS = /^\s*SELECT\b/i;

/**
 * The reading thread's program. It opens the database file read-only and answers each message `{ id, sql, params }`
 * with the rows of the statement (prepared once per text, the most recent `statements` kept) or its error, and a
 * message `{ id, heap: true }` with its heap's spaces (name, bytes reserved, bytes used).
 */
const READER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('cache_size = -' + workerData.cacheKib);
const statements = new Map();
const seen = new Set();
const bound = (value) => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);
// A prepared statement holds SQLite's memory for it outside the heap until the collector frees its object, and V8
// does not know of that memory: this small heap seldom needs a full collection, so statements dropped long ago
// would hold theirs on (the process grew by 60 MB in 20 s of lists whose totals were counted anew). A full
// collection after every \`collectEvery\` statements prepared frees them.
require('node:v8').setFlagsFromString('--expose-gc');
const collect = require('node:vm').runInNewContext('gc');
let prepared = 0;
// A statement is kept prepared from its text's second sight: one whose text is seen once (a list of ids of its own)
// is made, run and dropped.
const statementOf = (sql) => {
  const kept = statements.get(sql);
  if (kept) return kept;
  const statement = db.prepare(sql);
  if (++prepared % workerData.collectEvery === 0) setImmediate(collect);
  if (seen.delete(sql)) {
    statements.set(sql, statement);
    if (statements.size > workerData.statements) statements.delete(statements.keys().next().value);
  } else {
    seen.add(sql);
    if (seen.size > workerData.seen) seen.delete(seen.values().next().value);
  }
  return statement;
};
parentPort.on('message', ({ id, sql, params, heap }) => {
  if (heap) {
    parentPort.postMessage({ id, rows: require('node:v8').getHeapSpaceStatistics().map((space) => ({ name: space.space_name, size: space.space_size, used: space.space_used_size })) });
    return;
  }
  try {
    const statement = statementOf(sql);
    parentPort.postMessage({ id, rows: statement.all(...params.map(bound)) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

/**
 * The reading thread's young generation, in MB (V8 splits it in three: two semi-spaces and a space for large objects).
 * The thread only holds a statement's rows on their way to the main thread; with 2 MB semi-spaces instead of the
 * main thread's 8 the process is about 14 MB smaller under lists of any query (docs/benchmarks-notes.md), at the
 * same speed.
 */
export const READER_YOUNG_GENERATION_MB = 6;

interface Pending {
  /** Whether it is a statement's (counted in `reads`). */
  statement: boolean;
  resolve: (rows: Record<string, unknown>[]) => void;
  reject: (error: Error) => void;
}

/** What the reading thread keeps: its page cache (KiB) and the statements it keeps prepared. */
export interface SqliteReaderOptions {
  cacheKib: number;
  statements: number;
  /** Statement texts remembered as seen once, for keeping them prepared at their second sight. */
  seen: number;
  /** Statements prepared between two full collections of the thread's heap (which free the dropped ones' memory). */
  collectEvery: number;
}

/**
 * A second connection to an SQLite database file, on a thread of its own, for the statements that only read. The
 * main thread then only sends a statement and receives its rows: SQLite's own work (walking the indexes, reading
 * pages, making the rows) is done beside it. In WAL mode a reader sees every transaction committed before its
 * statement began and nothing of one still open, so a read sent after a write's commit sees that write.
 */
export class SqliteReader {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  /** Set once the thread failed or was stopped: every read is then refused, and sent to the main connection instead. */
  private failed: Error | null = null;
  /** Statements the thread answered (what the tests read of the split). */
  reads = 0;

  constructor(file: string, { cacheKib, statements, seen, collectEvery }: SqliteReaderOptions) {
    // Node.js's own resolution, from where this code runs: the bundle's `require` knows only the modules it bundled.
    const resolve = typeof __non_webpack_require__ === 'function' ? __non_webpack_require__.resolve : createRequire(__filename).resolve;
    // V8's flags are the process's, and a flag outranks a Worker's `resourceLimits`: `npm start`'s
    // --max-semi-space-size=8, meant for the main thread, would give this thread 8 MB semi-spaces too. A heap takes the
    // flag when it is made, so clearing it now (0: unset) leaves the main thread's heap as it is and lets this thread's
    // own limit apply.
    setFlagsFromString('--max-semi-space-size=0');
    this.worker = new Worker(READER_SOURCE, {
      eval: true,
      workerData: { module: resolve('better-sqlite3'), file, cacheKib, statements, seen, collectEvery },
      // None of the main thread's preloads (a TypeScript loader in the tools): the program is plain JavaScript.
      execArgv: [],
      resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB },
    });
    // The thread keeps the process alive only while a read waits for it (`all`).
    this.worker.unref();
    this.worker.on('message', ({ id, rows, error }: { id: number; rows?: Record<string, unknown>[]; error?: { message: string; code?: string } }) => {
      const waiting = this.pending.get(id);
      if (!waiting) return;
      this.pending.delete(id);
      if (this.pending.size === 0) this.worker.unref();
      if (waiting.statement) this.reads += 1;
      if (rows) waiting.resolve(rows.map(withBuffers));
      else waiting.reject(Object.assign(new Error(error?.message ?? 'the reading thread failed'), { code: error?.code }));
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the reading thread exited (${code})`)));
  }

  /** The thread's heap spaces: name, bytes reserved and bytes used (what the tests read of its young generation). */
  heapSpaces(): Promise<{ name: string; size: number; used: number }[]> {
    return this.send({ heap: true }) as Promise<{ name: string; size: number; used: number }[]>;
  }

  /** Whether reads can be sent to the thread. */
  get open(): boolean {
    return this.failed === null;
  }

  /** The rows of a statement that only reads, run on the thread's connection. */
  all(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]> {
    return this.send({ sql, params });
  }

  private send(message: { sql: string; params: readonly unknown[] } | { heap: true }): Promise<Record<string, unknown>[]> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { statement: 'sql' in message, resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  async close(): Promise<void> {
    this.fail(new Error('the reading thread was stopped'));
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failed ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.failed);
    this.pending.clear();
    this.worker.unref();
  }
}

/** A BLOB comes back from the thread as a Uint8Array: made a Buffer again, as better-sqlite3 gives it. */
function withBuffers(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const value = row[key];
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  return row;
}

/**
 * Sends the statements of `dataSource` (better-sqlite3, a file) that only read and run outside every transaction to
 * `reader`; the others, and all of them once the reader has failed, run on the data source's own connection as
 * before. While a transaction is open on that connection (a write), every statement stays on it: a statement of the
 * write must see what it wrote so far. Statements are counted, logged and timed as the driver does (QueryCounter,
 * the metrics' after-query event). Stopping the data source stops the reader.
 */
export function readOnThread(dataSource: DataSource, reader: SqliteReader): void {
  const runner = dataSource.driver.createQueryRunner('master') as QueryRunner & { broadcaster: QueryRunner['broadcaster'] };
  const local = runner.query.bind(runner) as (query: string, parameters: unknown[], structured: boolean) => Promise<unknown>;
  const routed = async (query: string, parameters: unknown[] = [], structured = false): Promise<unknown> => {
    if (runner.isTransactionActive || !reader.open || !READS.test(query)) return local(query, parameters, structured);
    dataSource.logger.logQuery(query, parameters, runner);
    const started = Date.now();
    let rows: Record<string, unknown>[];
    try {
      rows = await reader.all(query, parameters);
    } catch (error) {
      dataSource.logger.logQueryError(error as Error, query, parameters, runner);
      runner.broadcaster.broadcastAfterQueryEvent(new BroadcasterResult(), query, parameters, false, Date.now() - started, undefined, error);
      throw new QueryFailedError(query, parameters, error as Error);
    }
    runner.broadcaster.broadcastAfterQueryEvent(new BroadcasterResult(), query, parameters, true, Date.now() - started, rows, undefined);
    if (!structured) return rows;
    const result = new QueryResult();
    result.raw = rows;
    result.records = rows;
    return result;
  };
  runner.query = routed as QueryRunner['query'];
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    await reader.close();
    await destroy();
  };
}
