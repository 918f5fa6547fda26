import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { MIGRATIONS, TransactionRunner, WriteEffects } from '@calendar/shared/database';
import { DataSource, EntityManager } from 'typeorm';

/*
 * Moving a calendar between databases (SPEC §19): `export` writes every record of every kind and status, with
 * their translations, links, series and exceptions, media and users, as one JSON Lines file; `import` loads such a
 * file into an empty database of either engine, keeping ids, slugs, dates and links, in one transaction.
 *
 * The file: a header line (format, version, the schema's newest migration, the engine it came from), then one line
 * per row (`{"table": ..., "row": {...}}`, tables in the order below, so that every row's links come before it),
 * then a trailer with the number of rows of each table, so that a file cut short is known for one. Dates are ISO
 * 8601 UTC; numbers and booleans are numbers; nothing else is transformed.
 *
 * What is derived from these rows is not in the file and is made again by the import's write (search rows, term
 * counts, the longest event span, the totals per day, the link lists kept on events' rows, the change log); what belongs to the running of one
 * database is not moved at all: idempotency keys (24 hours), sync positions (clients run a full sync against the
 * new database), webhook messages and their attempts.
 */

export const EXPORT_FORMAT = 'calendar-export';
export const EXPORT_VERSION = 1;

/** A table moved: its name, the columns its rows are read in order of, and whether it holds secrets. */
interface MovedTable {
  name: string;
  order: string[];
  /** API token digests and webhook secrets: moved only when asked (`--with-secrets`). */
  secret?: boolean;
  /** Columns derived from other rows: not in the file; the import's write makes them again. */
  derived?: string[];
}

/** Every table moved, in an order where each row's links come before it. */
export const MOVED_TABLES: readonly MovedTable[] = [
  { name: 'users', order: ['id'] },
  { name: 'api_tokens', order: ['id'], secret: true },
  { name: 'media', order: ['id'] },
  { name: 'terms', order: ['id'] },
  { name: 'term_translations', order: ['id'] },
  { name: 'venues', order: ['id'] },
  { name: 'venue_translations', order: ['id'] },
  { name: 'organizers', order: ['id'] },
  { name: 'organizer_translations', order: ['id'] },
  { name: 'events', order: ['id'], derived: ['venue_ids', 'organizer_ids', 'term_ids', 'counted_term_ids', 'span_class'] },
  { name: 'event_translations', order: ['id'] },
  { name: 'event_venues', order: ['event_id', 'venue_id'], derived: ['start_utc', 'listed', 'end_utc', 'featured'] },
  { name: 'event_organizers', order: ['event_id', 'organizer_id'], derived: ['start_utc'] },
  { name: 'event_terms', order: ['event_id', 'term_id'], derived: ['start_utc'] },
  { name: 'webhooks', order: ['id'], secret: true },
];

/** Tables that must be empty for an import (everything it writes, and what a started service makes). */
const MUST_BE_EMPTY = MOVED_TABLES.map((table) => table.name);

/** Rows read per statement when exporting, and written per statement when importing. */
const PAGE = 1000;
const BATCH = 400;

type ColumnType = 'datetime' | 'number' | 'text';

/** A problem with the file or the database, told to the user as it is (exit code 1). */
export class DataMoveError extends Error {}

/** The newest migration: an export is loaded only into a database of the same schema. */
export function schemaVersion(): string {
  return MIGRATIONS[MIGRATIONS.length - 1].name;
}

/** The columns of a table and the kind of value each holds, as the database's own schema says. */
async function columnsOf(query: (sql: string, parameters?: unknown[]) => Promise<Record<string, unknown>[]>, engine: 'mysql' | 'sqlite', table: string): Promise<Map<string, ColumnType>> {
  const rows =
    engine === 'mysql'
      ? (await query('SELECT COLUMN_NAME AS name, DATA_TYPE AS type FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION', [table])).map((row) => ({ name: String(row['name']), type: String(row['type']) }))
      : (await query(`PRAGMA table_info(${table})`)).map((row) => ({ name: String(row['name']), type: String(row['type']) }));
  return new Map(rows.map(({ name, type }) => [name, /date|time/i.test(type) ? 'datetime' : /int|bool|double|float|real|decimal|numeric/i.test(type) ? 'number' : 'text']));
}

/** The columns of a table that the file holds: all but those derived from other rows. */
function movedColumns(table: MovedTable, columns: Map<string, ColumnType>): Map<string, ColumnType> {
  return new Map([...columns].filter(([name]) => !table.derived?.includes(name)));
}

function engineOf(dataSource: DataSource): 'mysql' | 'sqlite' {
  return dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite';
}

/** A stored date-time (a Date from mysql2, `YYYY-MM-DD HH:MM:SS[.mmm]` UTC text from SQLite) as ISO 8601 UTC. */
function isoOf(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  const time = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
  if (Number.isNaN(time)) throw new DataMoveError(`a stored date-time cannot be read: ${text}`);
  return new Date(time).toISOString();
}

function exportValue(type: ColumnType | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'datetime') return isoOf(value);
  if (type === 'number') return Number(value);
  return Buffer.isBuffer(value) ? value.toString('utf8') : value;
}

/** Writes a line, waiting while the file's buffer is full (an export of any size runs in little memory). */
async function writeLine(out: NodeJS.WritableStream, value: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
}

/**
 * Writes the whole calendar to `file` as it was at one moment (a consistent snapshot: one read transaction), through
 * a file beside it that takes its name only when complete. Answers the number of rows of each table.
 */
export async function exportCalendar(dataSource: DataSource, transactions: TransactionRunner, file: string, options: { withSecrets: boolean }): Promise<Record<string, number>> {
  const engine = engineOf(dataSource);
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { encoding: 'utf8' });
  try {
    const counts = await inSnapshot(dataSource, transactions, (query) => writeTables(query, engine, out, options));
    out.end();
    await once(out, 'finish');
    renameSync(partial, file);
    return counts;
  } catch (error) {
    out.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}

type Query = (sql: string, parameters?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Runs `work` in one read transaction: on MySQL a consistent snapshot (REPEATABLE READ), on SQLite a transaction of
 * this process's one connection (queued with its other transactions), which reads one state of the file however
 * the service writes meanwhile.
 */
async function inSnapshot<T>(dataSource: DataSource, transactions: TransactionRunner, work: (query: Query) => Promise<T>): Promise<T> {
  if (engineOf(dataSource) === 'sqlite') return transactions.runApart((manager) => work((sql, parameters) => manager.query(sql, parameters)));
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await runner.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
    const result = await work((sql, parameters) => runner.query(sql, parameters));
    await runner.query('COMMIT');
    return result;
  } finally {
    await runner.release();
  }
}

async function writeTables(query: Query, engine: 'mysql' | 'sqlite', out: NodeJS.WritableStream, options: { withSecrets: boolean }): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const tables = MOVED_TABLES.filter((table) => options.withSecrets || !table.secret);
  await writeLine(out, { format: EXPORT_FORMAT, version: EXPORT_VERSION, schema: schemaVersion(), engine, exported_at: new Date().toISOString(), secrets: options.withSecrets, tables: tables.map((table) => table.name) });
  for (const table of tables) {
    const columns = movedColumns(table, await columnsOf(query, engine, table.name));
    counts[table.name] = 0;
    // Pages in key order: each page starts after the last key of the one before.
    let after: unknown[] | null = null;
    for (;;) {
      const where: string = after === null ? '' : `WHERE (${table.order.join(', ')}) > (${table.order.map(() => '?').join(', ')})`;
      const rows: Record<string, unknown>[] = await query(`SELECT * FROM ${table.name} ${where} ORDER BY ${table.order.join(', ')} LIMIT ${PAGE}`, after ?? []);
      for (const row of rows) {
        const values: Record<string, unknown> = {};
        for (const [column, value] of Object.entries(row)) if (columns.has(column)) values[column] = exportValue(columns.get(column), value);
        await writeLine(out, { table: table.name, row: values });
      }
      counts[table.name] += rows.length;
      if (rows.length < PAGE) break;
      const last: Record<string, unknown> = rows[rows.length - 1];
      after = table.order.map((column) => last[column]);
    }
  }
  await writeLine(out, { end: true, rows: counts });
  return counts;
}

/** One line of the file: the header, a row, or the trailer. */
type Line = { kind: 'row'; table: string; row: Record<string, unknown> } | { kind: 'end'; rows: Record<string, unknown> };

function readLine(text: string, number: number): Line {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DataMoveError(`line ${number} is not JSON: the file is damaged or cut short`);
  }
  if (typeof value !== 'object' || value === null) throw new DataMoveError(`line ${number} is not a row of an export`);
  const line = value as Record<string, unknown>;
  if (line['end'] === true && typeof line['rows'] === 'object' && line['rows'] !== null) return { kind: 'end', rows: line['rows'] as Record<string, unknown> };
  if (typeof line['table'] === 'string' && typeof line['row'] === 'object' && line['row'] !== null && !Array.isArray(line['row'])) return { kind: 'row', table: line['table'], row: line['row'] as Record<string, unknown> };
  throw new DataMoveError(`line ${number} is not a row of an export`);
}

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A value of the file as the target engine stores it; a value of the wrong kind names its line and column. */
function importValue(engine: 'mysql' | 'sqlite', type: ColumnType, value: unknown, where: string): unknown {
  if (value === null) return null;
  if (type === 'datetime') {
    if (typeof value !== 'string' || !ISO_UTC.test(value) || Number.isNaN(Date.parse(value))) throw new DataMoveError(`${where} is not an ISO 8601 UTC date-time`);
    // MySQL's DATETIME keeps whole seconds (shown values are to the second on both engines); SQLite the text
    // TypeORM writes, with milliseconds.
    return engine === 'mysql' ? value.slice(0, 19).replace('T', ' ') : value.slice(0, 23).replace('T', ' ');
  }
  if (type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new DataMoveError(`${where} is not a number`);
    return value;
  }
  if (typeof value !== 'string') throw new DataMoveError(`${where} is not text`);
  return value;
}

/** Ids of the records an import names in its write's effects (search rows, counts, span, change log). */
class Imported {
  readonly ids = new Map<string, number[]>();
  readonly taxonomies = new Map<number, string>();
  longestSpan = 0;

  note(table: string, row: Record<string, unknown>): void {
    if (!['terms', 'venues', 'organizers', 'events'].includes(table)) return;
    const id = row['id'] as number;
    const ids = this.ids.get(table) ?? [];
    ids.push(id);
    this.ids.set(table, ids);
    if (table === 'terms') this.taxonomies.set(id, String(row['taxonomy']));
    if (table === 'events') this.longestSpan = Math.max(this.longestSpan, Math.round((Date.parse(String(row['end_utc'])) - Date.parse(String(row['start_utc']))) / 1000));
  }

  recordIn(manager: EntityManager): void {
    const effects = WriteEffects.of(manager).movePart('venues').movePart('organizers').movePart('terms');
    for (const id of this.ids.get('terms') ?? []) effects.record(this.taxonomies.get(id) === 'category' ? 'category' : 'tag', id, 'created');
    effects.countAgain(this.ids.get('terms') ?? []);
    for (const kind of ['venue', 'organizer', 'event'] as const) {
      for (const id of this.ids.get(`${kind}s`) ?? []) effects.record(kind, id, 'created').reindex(kind, id);
    }
    effects.widenSpan(this.longestSpan);
  }
}

/**
 * Loads an export into the database, which must hold no calendar yet (a new one: the schema is made by the
 * migrations first), in one transaction through the service's write path: a file that is cut short, damaged, of
 * another format or schema, or a database that is not empty, is refused with what is wrong, and nothing is written.
 */
export async function importCalendar(dataSource: DataSource, transactions: TransactionRunner, file: string): Promise<Record<string, number>> {
  if (!existsSync(file)) throw new DataMoveError(`there is no file ${file}`);
  const engine = engineOf(dataSource);
  checkHeader(await firstLine(file));
  const known = new Map<string, Map<string, ColumnType>>();
  for (const table of MOVED_TABLES) known.set(table.name, movedColumns(table, await columnsOf((sql, parameters) => dataSource.query(sql, parameters), engine, table.name)));

  // The file is read again from its start by each run of the write (a write met by a concurrent one runs again).
  return transactions.run(async (manager) => {
    for (const table of MUST_BE_EMPTY) {
      const [row] = await manager.query(`SELECT COUNT(*) AS n FROM ${table}`);
      if (Number(row.n) > 0) throw new DataMoveError(`the database is not empty (${table} has ${Number(row.n)} row${Number(row.n) === 1 ? '' : 's'}): import into a new database`);
    }
    const counts: Record<string, number> = {};
    const imported = new Imported();
    let pending = null as { table: string; rows: unknown[][]; columns: string[] } | null;
    let number = 0;
    const flush = async () => {
      if (!pending || pending.rows.length === 0) return;
      const { table, rows, columns } = pending;
      try {
        await manager.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')}`, rows.flat());
      } catch (error) {
        // A clash of keys or a missing link: the file is not one export's (a write never runs again for it).
        throw new DataMoveError(`the rows of ${table} up to line ${number} cannot be written: ${(error as Error).message}`);
      }
      pending.rows = [];
    };
    let trailer: Record<string, unknown> | null = null;
    for await (const text of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })) {
      number += 1;
      if (number === 1 || text.trim() === '') continue;
      if (trailer) throw new DataMoveError(`line ${number} comes after the file's last line`);
      const line = readLine(text, number);
      if (line.kind === 'end') {
        trailer = line.rows;
        continue;
      }
      const columns = known.get(line.table);
      if (!columns) throw new DataMoveError(`line ${number} names the table ${line.table}, which an export does not hold`);
      const names = Object.keys(line.row);
      const missing = [...columns.keys()].filter((name) => !names.includes(name));
      const extra = names.filter((name) => !columns.has(name));
      if (missing.length > 0 || extra.length > 0) {
        throw new DataMoveError(`line ${number}: the row of ${line.table} does not have the columns of this schema (${[...missing.map((name) => `missing ${name}`), ...extra.map((name) => `unknown ${name}`)].join(', ')})`);
      }
      const ordered = [...columns.keys()];
      if (pending?.table !== line.table) {
        await flush();
        pending = { table: line.table, rows: [], columns: ordered };
      }
      pending.rows.push(ordered.map((column) => importValue(engine, columns.get(column) as ColumnType, line.row[column], `line ${number}: ${line.table}.${column}`)));
      imported.note(line.table, line.row);
      counts[line.table] = (counts[line.table] ?? 0) + 1;
      if (pending.rows.length >= BATCH) await flush();
    }
    await flush();
    if (!trailer) throw new DataMoveError(`the file ends at line ${number} without its last line: it was cut short`);
    for (const table of Object.keys(trailer)) counts[table] ??= 0;
    for (const table of new Set([...Object.keys(trailer), ...Object.keys(counts)])) {
      if (Number(trailer[table] ?? 0) !== (counts[table] ?? 0)) throw new DataMoveError(`the file has ${counts[table] ?? 0} rows of ${table} where its last line says ${String(trailer[table] ?? 0)}: it is damaged`);
    }
    imported.recordIn(manager);
    // In the file's order of tables, as `export` answers.
    return Object.fromEntries(Object.keys(trailer).map((table) => [table, counts[table]]));
  });
}

/** The first line of a file (its header), without reading the rest. */
async function firstLine(file: string): Promise<string | null> {
  const reader = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const text of reader) return text;
    return null;
  } finally {
    reader.close();
  }
}

/** An export of this format, version and schema; anything else is refused with what it is. */
function checkHeader(text: string | null): void {
  if (text === null) throw new DataMoveError('the file is empty');
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new DataMoveError('the file is not an export of this service (its first line is not JSON)');
  }
  if (typeof header !== 'object' || header === null || header['format'] !== EXPORT_FORMAT) throw new DataMoveError('the file is not an export of this service (its first line does not name the calendar-export format)');
  if (header['version'] !== EXPORT_VERSION) throw new DataMoveError(`the file is in version ${String(header['version'])} of the export format; this service reads version ${EXPORT_VERSION}`);
  if (header['schema'] !== schemaVersion()) {
    throw new DataMoveError(`the file was exported from a database at schema ${String(header['schema'])}; this one is at ${schemaVersion()}: export and import with the same version of the service`);
  }
}

/** Refuses a file that exists: an export never writes over one. */
export function assertFree(file: string): void {
  if (existsSync(file)) throw new DataMoveError(`${file} exists already: name a new file`);
}
