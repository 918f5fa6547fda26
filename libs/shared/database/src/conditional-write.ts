import { Injectable } from '@nestjs/common';
import { answerText, etagOf, preconditionFailed, preconditionHolds, ReadScope, WritePrecondition } from '@calendar/shared/http';
import { DataSource, EntityManager } from 'typeorm';

/** A kind of record a conditional write names: the table of its rows and the kind its changes are logged under. */
export interface GuardedKind {
  /** The change log's kind (`event`, `venue`, `organizer`, `category`, `tag`). */
  kind: string;
  table: 'events' | 'venues' | 'organizers' | 'terms';
}

/**
 * A write's precondition (none: the write is not conditional) and how to read the record as a GET of the write's
 * URL answers the same caller: `current` is given a new scope at each call, so that no data version read before is
 * reused.
 */
export interface WriteCondition {
  precondition: WritePrecondition | undefined;
  current: (scope: ReadScope) => Promise<unknown>;
}

/** The record a conditional write names: its kind, its id when the URL names it (by slug it is read from the answer), the writer's scope. */
export interface GuardedRecord {
  kind: GuardedKind;
  id?: number;
  scope: ReadScope;
}

/** How often a conditional write looks at the record again when another write of it committed meanwhile. */
const LOOKS = 5;

/** A write of the record committed between the precondition's check and the write's transaction. */
class RecordMoved extends Error {
  constructor() {
    super('The record was written since its precondition was checked');
  }
}

/** The newest change logged for a record (SPEC §16): it moves with every committed write of the record. */
async function lastChange(query: (sql: string, parameters: unknown[]) => Promise<{ last: unknown }[]>, kind: string, id: number): Promise<number | null> {
  const [row] = await query('SELECT MAX(id) AS last FROM changes WHERE kind = ? AND record_id = ?', [kind, id]);
  return row?.last === null || row?.last === undefined ? null : Number(row.last);
}

/**
 * What a conditional write (SPEC §18) checks inside its transaction, before it writes anything: the writer calls
 * `hold` first thing in its transaction. It locks the record's row (so that no other write of the record commits
 * until this one ends), then compares the newest change logged for the record with the one seen when the
 * precondition was checked: another write committed in between makes the check start over; a precondition that
 * did not hold is 412. The checks a write makes before its transaction (parameters, 404, 403, 410) therefore come
 * first, as RFC 9110 §13.2.1 asks.
 */
export class RecordGuard {
  constructor(
    private readonly target: GuardedKind,
    readonly id: number,
    private readonly seen: number | null,
    private readonly holds: boolean,
  ) {}

  async hold(manager: EntityManager): Promise<void> {
    const lock = manager.connection.options.type === 'mysql' ? ' FOR UPDATE' : '';
    await manager.query(`SELECT id FROM ${this.target.table} WHERE id = ?${lock}`, [this.id]);
    if ((await lastChange((sql, parameters) => manager.query(sql, parameters), this.target.kind, this.id)) !== this.seen) throw new RecordMoved();
    if (!this.holds) throw preconditionFailed();
  }
}

function parsed(answer: unknown): { id?: unknown; modified_utc?: unknown } {
  return JSON.parse(answerText(answer)) as { id?: unknown; modified_utc?: unknown };
}

/** `modified_utc` of an answer (`YYYY-MM-DD HH:MM:SS`, UTC) in milliseconds; null for kinds without one. */
function modifiedOf(answer: { modified_utc?: unknown }): number | null {
  if (typeof answer.modified_utc !== 'string') return null;
  const time = Date.parse(`${answer.modified_utc.replace(' ', 'T')}Z`);
  return Number.isNaN(time) ? null : time;
}

/**
 * Updates and deletes under `If-Match` / `If-Unmodified-Since` (SPEC §18). The precondition is checked against
 * the answer a GET of the same URL by the same caller gives now (`current`), and held in the write's transaction
 * by a `RecordGuard`: two clients that send the same ETag for one record get one write and one 412, whatever
 * instance or Galera node each reaches.
 */
@Injectable()
export class ConditionalWrites {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `write` with the guard its transaction must hold; unguarded without a precondition. */
  async run<T>(condition: WriteCondition | undefined, record: GuardedRecord, write: (guard?: RecordGuard) => Promise<T>): Promise<T> {
    const precondition = condition?.precondition;
    if (!condition || !precondition) return write();
    const read = () => condition.current({ ...record.scope, versions: {} });
    for (let look = 1; ; look += 1) {
      // The change is read before the answer: a write committed after it moves it, and the guard sees that.
      const id = record.id ?? Number(parsed(await read()).id);
      const seen = await lastChange((sql, parameters) => this.dataSource.query(sql, parameters), record.kind.kind, id);
      const answer = await read();
      const holds = preconditionHolds(precondition, etagOf(answer), modifiedOf(parsed(answer)));
      try {
        return await write(new RecordGuard(record.kind, id, seen, holds));
      } catch (error) {
        if (!(error instanceof RecordMoved)) throw error;
        // Written again and again meanwhile: the ETag the client has is not the current one.
        if (look >= LOOKS) throw preconditionFailed();
      }
    }
  }
}
