import { Injectable } from '@nestjs/common';
import { CurrentVersion, VersionsHolder } from '@calendar/shared/http';
import { DataSource } from 'typeorm';

/**
 * Parts of the data with a version of their own besides the global one: a write that changes venues, organizers
 * or terms moves their version on too, so that what is kept of them (rendered fragments) outlives writes to other
 * records.
 */
export const DATA_PARTS = ['venues', 'organizers', 'terms'] as const;
export type DataPart = (typeof DATA_PARTS)[number];

/**
 * What values are kept under: a part's version, or, for `term counts`, the global one. Terms' counts of published
 * events move with writes of events, and are kept apart from the terms' renderings (which only term writes make
 * stale), so that a write of an event renders no embedded term again: the counts of a page's terms are read anew,
 * in one statement, after any write.
 */
export type KeptPart = DataPart | 'term counts';

/** The version values of a kept part are kept under, from the data versions a read saw. */
export function keptVersion(versions: DataVersions, part: KeptPart): number {
  return part === 'term counts' ? versions.global : (versions.parts[part] ?? versions.global);
}

/**
 * The data versions as one read saw them. Every write transaction moves one of several counters on (a slot, see
 * `version_slots`), so that concurrent writes do not all wait on one row; the versions are their sums.
 */
export interface DataVersions {
  /**
   * The number of writes the read sees. Reads see the writes in the order they were committed, so two reads
   * with the same number saw the same data: answers are kept under it.
   */
  global: number;
  parts: Partial<Record<DataPart, number>>;
  /**
   * The global counter of each slot: which writes the read sees, write by write (a write is its slot and the
   * slot's counter after it), as the write log records them.
   */
  slots: readonly number[];
}

/** Where the current data versions come from (the database; every write transaction moves them on). */
export abstract class DataVersionSource {
  private newest?: DataVersions;

  abstract read(): Promise<DataVersions>;

  /** The newest data versions this process has seen read (none yet: undefined). */
  get latest(): DataVersions | undefined {
    return this.newest;
  }

  /** Notes versions a read saw (here, or in a statement that read them with its rows). */
  observe(versions: DataVersions): void {
    if (this.newest === undefined || versions.global > this.newest.global) this.newest = versions;
  }

  async current(): Promise<number> {
    return (await this.read()).global;
  }
}

/**
 * The data versions for a read (a request, a job's call): those already read (or being read) for it, else read now
 * (one query) and kept in its holder. One read per request serves everything kept per version (answers, totals,
 * embedded records).
 */
export function dataVersionsFor(holder: VersionsHolder, versions: DataVersionSource): Promise<DataVersions> {
  // The read itself is kept: parts of an answer asked for at once (its venues, organizers and terms) share it.
  holder.dataVersions ??= versions.read();
  // A holder is filled here only.
  return holder.dataVersions as Promise<DataVersions>;
}

/**
 * Lets a read use kept values of the parts (venues, organizers, terms) at the versions the process saw last, before
 * it holds data versions of its own, noting each part it so assumes (`assumedVersions`, `assume`); the read then
 * holds versions (read with its first statement that reads them, such as a list's total) and checks the assumptions
 * (`assumptionsHold`). A list filtered by a category, a venue, an organizer or a radius resolves its filter from
 * kept values without a round trip of its own for the versions, which its total reads anyway. Nothing to do when
 * the read holds versions already.
 */
export function beginAssuming(holder: VersionsHolder): void {
  if (holder.dataVersions === undefined) holder.assumed ??= new Map();
}

/** The versions a read assuming (`beginAssuming`) and holding none yet may use: the newest the process saw. */
export function assumedVersions(holder: VersionsHolder, versions: DataVersionSource): DataVersions | undefined {
  return holder.assumed !== undefined && holder.dataVersions === undefined ? versions.latest : undefined;
}

/** Notes that a read used a kept value of `part` at `version` before holding data versions. */
export function assume(holder: VersionsHolder, part: KeptPart, version: number): void {
  holder.assumed?.set(part, version);
}

/**
 * Ends a read's assuming: whether every part it assumed has, in the data versions it holds (read now if it holds
 * none), the version it assumed. When not, what it made of those values is to be made again: it now holds versions,
 * and kept values are checked against them.
 */
export async function assumptionsHold(holder: VersionsHolder, versions: DataVersionSource): Promise<boolean> {
  const assumed = holder.assumed;
  holder.assumed = undefined;
  if (assumed === undefined || assumed.size === 0) return true;
  const held = await dataVersionsFor(holder, versions);
  return [...assumed].every(([part, version]) => keptVersion(held, part as KeptPart) === version);
}

/** The version the edge keeps answers under, from the data versions (the response cache's port). */
export class GlobalVersion extends CurrentVersion {
  constructor(private readonly versions: DataVersionSource) {
    super();
  }

  async of(holder: VersionsHolder): Promise<number> {
    return (await dataVersionsFor(holder, this.versions)).global;
  }
}

/**
 * How many rows of `version_slots` writes spread over. Each write transaction moves one slot on; two writes wait
 * on each other (or, on two Galera nodes, conflict) only when they take the same one.
 */
export const VERSION_SLOTS = 32;

/** Moves every version on, as a write to everything would (for tools that write outside the service). */
export const BUMP_VERSIONS = `UPDATE version_slots SET writes = writes + 1, ${DATA_PARTS.map((part) => `${part} = ${part} + 1`).join(', ')} WHERE slot = 0`;

/** The versions from the rows of `version_slots`: sums over the slots, and each slot's count of writes. */
export function versionsOf(rows: Record<string, unknown>[]): DataVersions {
  const slots = new Array<number>(VERSION_SLOTS).fill(0);
  const parts: DataVersions['parts'] = Object.fromEntries(DATA_PARTS.map((part) => [part, 0]));
  for (const row of rows) {
    slots[Number(row['slot'])] = Number(row['writes']);
    for (const part of DATA_PARTS) parts[part] = (parts[part] ?? 0) + Number(row[part]);
  }
  return { global: slots.reduce((sum, writes) => sum + writes, 0), parts, slots };
}

/**
 * A scalar subquery giving the slots' counts of writes as `slot:writes` pairs, for a statement that must read
 * them together with what it computes (the same snapshot); `parseSlots` reads its value back.
 */
export function slotsSubquery(type: DataSource['options']['type']): string {
  return type === 'mysql'
    ? `(SELECT GROUP_CONCAT(CONCAT(slot, ':', writes)) FROM version_slots)`
    : `(SELECT group_concat(slot || ':' || writes) FROM version_slots)`;
}

const [COMMA, COLON, ZERO, NINE] = [',', ':', '0', '9'].map((character) => character.charCodeAt(0));

/**
 * The slots' counts of writes from the value of `slotsSubquery` (`slot:writes` pairs of whole numbers, comma
 * separated); a slot not named, or named in a pair that is not two whole numbers, is 0. Read character by character:
 * every read answered from the database parses it, and splitting made some hundred strings and arrays a time.
 */
export function parseSlots(value: unknown): number[] {
  const slots = new Array<number>(VERSION_SLOTS).fill(0);
  const text = String(value ?? '');
  let [slot, writes, digits, inWrites, valid] = [0, 0, 0, false, true];
  for (let at = 0; at <= text.length; at += 1) {
    const code = at < text.length ? text.charCodeAt(at) : COMMA;
    if (code >= ZERO && code <= NINE) {
      digits += 1;
      if (inWrites) writes = writes * 10 + (code - ZERO);
      else slot = slot * 10 + (code - ZERO);
    } else if (code === COLON && !inWrites) {
      [valid, inWrites, digits] = [valid && digits > 0, true, 0];
    } else if (code === COMMA) {
      if (valid && inWrites && digits > 0 && slot < VERSION_SLOTS) slots[slot] = writes;
      [slot, writes, digits, inWrites, valid] = [0, 0, 0, false, true];
    } else {
      valid = false;
    }
  }
  return slots;
}

/**
 * Two scalar subqueries giving the data versions, as columns `versions_slots` and `versions_parts`, for a statement
 * that reads them together with its own rows (one round trip, the same snapshot); `versionsFromRow` reads them
 * back. The parts are summed in the database: one `GROUP_CONCAT` of every column could outgrow MySQL's
 * `group_concat_max_len` (1,024 bytes by default) and be cut short.
 */
export function versionsColumns(type: DataSource['options']['type']): string {
  return `${slotsSubquery(type)} AS versions_slots, ${partsSubquery(type)} AS versions_parts`;
}

/**
 * A scalar subquery giving the versions of the data's parts (`DataVersions.parts`), for a statement that reads them
 * with its own rows; `versionsFromRow` reads its value back as `versions_parts`, with `slotsSubquery`'s as
 * `versions_slots`.
 */
export function partsSubquery(type: DataSource['options']['type']): string {
  const parts = type === 'mysql' ? `CONCAT_WS(':', ${DATA_PARTS.map((part) => `SUM(${part})`).join(', ')})` : DATA_PARTS.map((part) => `sum(${part})`).join(" || ':' || ");
  return `(SELECT ${parts} FROM version_slots)`;
}

/** The data versions from a row that selected `versionsColumns`. */
export function versionsFromRow(row: Record<string, unknown>): DataVersions {
  const slots = parseSlots(row['versions_slots']);
  const sums = String(row['versions_parts'] ?? '').split(':');
  const parts: DataVersions['parts'] = Object.fromEntries(DATA_PARTS.map((part, at) => [part, Number(sums[at] ?? 0) || 0]));
  return { global: slots.reduce((sum, writes) => sum + writes, 0), parts, slots };
}

/**
 * Keeps data versions read together with a read's rows as the versions of that read, unless it has some already
 * (they were read before its rows, and what it keeps is kept under them).
 */
export function holdDataVersions(holder: VersionsHolder, versions: DataVersions): void {
  holder.dataVersions ??= Promise.resolve(versions);
}

/**
 * Reads shared by the calls that ask while one is under way: each call gets a read that began after it asked, so
 * it sees every write committed before it asked (a client reads what it wrote, through any instance). A call made
 * while a read is running waits for the next one, which begins when that one ends and serves every call made
 * meanwhile: at most two reads at a time, whatever the number of requests, each one round trip.
 */
export class SharedReads<T> {
  private running: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly readNow: () => Promise<T>) {}

  read(): Promise<T> {
    if (this.next) return this.next;
    if (!this.running) return this.begin();
    const settle = () => {
      this.next = null;
      return this.begin();
    };
    this.next = this.running.then(settle, settle);
    return this.next;
  }

  private begin(): Promise<T> {
    const read = this.readNow();
    this.running = read;
    const done = () => {
      if (this.running === read) this.running = null;
    };
    read.then(done, done);
    return read;
  }
}

/** The data versions as the database holds them: one read of the rows of `version_slots`, shared as `SharedReads` shares it. */
@Injectable()
export class DatabaseDataVersion extends DataVersionSource {
  // A row per slot: the same values as `versionsColumns` as one row cost this client less CPU, but cost the server
  // more (its subqueries), and the server shares the machine's cores: reads at 10 at once took longer.
  private readonly reads = new SharedReads(async () => {
    const versions = versionsOf(await this.dataSource.query(`SELECT slot, writes, ${DATA_PARTS.join(', ')} FROM version_slots`));
    this.observe(versions);
    return versions;
  });

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  read(): Promise<DataVersions> {
    return this.reads.read();
  }
}
