import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@calendar/shared/config';
import { Metrics, type VersionsHolder } from '@calendar/shared/http';
import { DataSource } from 'typeorm';
import { Clock } from './clock';
import { inBackground } from './query-counter';
import { DataVersions, DataVersionSource, dataVersionsFor, holdDataVersions, versionsColumns, versionsFromRow } from './data-version';
import { decodeCursor, decodeToken, encodeCursor, encodeToken, SyncCursor, SyncScope, syncTokenExpired } from './sync-token';
import { TransactionRunner } from './transaction';

/** How often each instance gives positions to rows nobody synced yet and drops the rows past the retention. */
const PRUNE_EVERY_MS = 3_600_000;
/** Kept beyond the retention, for the clocks of several instances that may differ a little. */
const PRUNE_MARGIN_MS = 3_600_000;
/** How long the newest position read under one data version is trusted without reading it again. */
const KNOWN_FOR_MS = 60_000;
/** Rows deleted per statement when pruning, so that no statement holds many locks for long. */
const PRUNE_BATCH = 5_000;
/** The kinds of record whose changes reach the events that embed them. */
const EMBEDDED_KINDS = ['venue', 'organizer', 'category', 'tag'];
/**
 * The newest position given to a change of a record events embed: one look-up of the `(kind, seq)` index per kind,
 * read from the rows themselves (as whatever sequencer gave them their positions left them).
 */
const LINKED_SEQ = `(SELECT MAX(m) FROM (${EMBEDDED_KINDS.map((kind) => `SELECT MAX(seq) AS m FROM changes WHERE kind = '${kind}'`).join(' UNION ALL ')}) linked)`;

/** The change log's positions (`SequenceState`) as read under the data version `global` at the time `at`. */
interface Known extends SequenceState {
  global: number;
  at: number;
}

/** The change log's positions as one read saw them. */
interface SequenceState {
  seq: number;
  pruned: number;
  /** The newest position given to a change of a venue, organizer, category or tag (records events embed). */
  linked: number;
}

/** A record a sync shows: its id and its current object (rendered, or ready to render). */
export interface SyncItem<T> {
  id: number;
  item: T;
}

/** A record that left the caller's view or the sync's filter (SPEC §16.2). */
export interface Tombstone {
  id: number;
  removed: true;
}

/**
 * Which changes a page of an incremental sync reads: those between the positions `from` (excluded) and `to`
 * (included), as (position, id) pairs in that order after (`afterSeq`, `afterId`), at most `limit`; with
 * `withVersions`, the data versions read by the same statement (`versionsColumns`). `linked` is false when the
 * range is known to hold no change of a venue, organizer, category or tag: a source whose records embed those
 * need not look for them.
 */
export interface ChangeRange {
  from: number;
  to: number;
  afterSeq: number;
  afterId: number;
  limit: number;
  withVersions: boolean;
  linked: boolean;
}

/** How a sync reads one kind of record, for one caller and filter. */
export interface SyncSource<T> {
  /**
   * The records the caller may read now that match the filter, in id order after `afterId`, reading at most `limit`
   * rows; with the last id read (null when none) and whether more rows may follow.
   */
  full(afterId: number, limit: number): Promise<{ items: SyncItem<T>[]; lastId: number | null; more: boolean }>;
  /**
   * The records changed in `range`, each (position, id) pair once; and `current`, which gives, of ids among them,
   * the records the caller may read now that match the filter (a source may read both at once); and the data
   * versions when the range asks for them and the statement gave a row.
   */
  changes(range: ChangeRange): Promise<SyncChanges<T>>;
}

/** What `SyncSource.changes` gives. */
export interface SyncChanges<T> {
  changed: { seq: number; id: number }[];
  current(ids: number[]): Promise<SyncItem<T>[]>;
  /** The data versions the statement that read `changed` saw, when asked for and it gave a row. */
  versions?: DataVersions;
}

/** One page of a sync: its items and tombstones, then a cursor to the next page or, on the last, the token. */
export interface SyncPage<T> {
  items: (T | Tombstone)[];
  cursor?: string;
  token?: string;
}

/**
 * The change log's positions and retention. A write's rows get their position after it committed: `sequence` takes
 * the next number of `change_sequence` and gives it to every committed row without one, in one transaction, so a
 * position covers only rows every reader that sees it also sees, and a row that commits late gets a later one. Sync
 * reads the rows between two positions. Rows are dropped once their position is older than the retention
 * (`SYNC_RETENTION_DAYS`), hourly by each instance; a token that old is answered 410.
 */
@Injectable()
export class ChangeLog implements OnModuleInit, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  /** The newest position and pruning mark read under a data version (see `sequence`). */
  private known: Known | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly versions: DataVersionSource,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    if (!this.config.runsJobs) return;
    this.timer = setInterval(() => void inBackground(() => this.prune()).catch(() => undefined), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The retention in milliseconds. */
  get retentionMs(): number {
    return this.config.syncRetentionDays * 86_400_000;
  }

  /**
   * Gives a position to every committed row without one and answers the newest position (with the pruning mark):
   * every write committed before this call (and visible to this instance) is at or before it. With a request's
   * versions, the answer is kept under the data version it read: every write moves that version in the
   * transaction that wrote its change rows, so while it has not moved no row waits for a position and the newest
   * position is the one kept (read again at least every minute, for the pruning mark of other instances).
   */
  async sequence(versions?: VersionsHolder): Promise<SequenceState> {
    const global = versions ? (await dataVersionsFor(versions, this.versions)).global : null;
    const known = this.known;
    if (global !== null && known && known.global === global && Date.now() - known.at < KNOWN_FOR_MS) return known;
    const at = Date.now();
    const [row] = await this.dataSource.query(`SELECT seq, pruned, ${LINKED_SEQ} AS linked_seq, (SELECT id FROM changes WHERE seq IS NULL LIMIT 1) AS pending FROM change_sequence WHERE id = 1`);
    const state: SequenceState = { seq: Number(row.seq), pruned: Number(row.pruned), linked: Number(row.linked_seq ?? 0) };
    if (row.pending !== null && row.pending !== undefined) {
      const given: Pick<SequenceState, 'seq' | 'linked'> = await this.transactions.runApart(async (manager) => {
        await manager.query('UPDATE change_sequence SET seq = seq + 1 WHERE id = 1');
        await manager.query('UPDATE changes SET seq = (SELECT seq FROM change_sequence WHERE id = 1), sequenced_at = ? WHERE seq IS NULL', [this.clock.now().getTime()]);
        // After the rows have their position, and before any other sequencer can give one (this one holds the row).
        const [after] = await manager.query(`SELECT seq, ${LINKED_SEQ} AS linked_seq FROM change_sequence WHERE id = 1`);
        return { seq: Number(after.seq), linked: Number(after.linked_seq ?? 0) };
      });
      Object.assign(state, given);
    }
    if (global !== null) this.known = { global, at, ...state };
    return state;
  }

  /**
   * One page of a sync (SPEC §16.2). Without a token or cursor, a full sync from its first page: the newest
   * position is taken first (after giving positions to what committed), so that every write committed before is
   * either in the records read or in the next sync; with a token, the changes since its position, up to the newest;
   * with a cursor, the next page of either. Each changed record is shown as it is now, or as a tombstone when the
   * caller may no longer read it or it left the filter. The last page carries the token of the position read up to.
   */
  async sync<T>(scope: SyncScope, given: { token?: string; cursor?: string }, perPage: number, source: SyncSource<T>, versions?: VersionsHolder): Promise<SyncPage<T>> {
    const now = this.clock.now().getTime();
    const { cursor, read, state } = await this.start(scope, given, perPage, source, versions, now);
    this.metrics.syncs.inc({ kind: scope.kind, mode: cursor.mode });
    const last = (): SyncPage<T>['token'] => encodeToken({ ...scope, seq: cursor.to, issuedAt: now });
    if (cursor.mode === 'full') {
      const { items, lastId, more } = await source.full(cursor.afterId, perPage);
      const page: SyncPage<T> = { items: items.map((entry) => entry.item) };
      if (more && lastId !== null) page.cursor = encodeCursor({ ...cursor, afterId: lastId });
      else page.token = last();
      return page;
    }
    if (cursor.to <= cursor.from) return { items: [], token: last() };
    const { changed, current: currentOf } = read ?? (await source.changes(rangeOf(cursor, perPage, false, state)));
    const shown = changed.slice(0, perPage);
    const ids = [...new Set(shown.map((change) => change.id))];
    const current = new Map((await currentOf(ids)).map((entry) => [entry.id, entry.item]));
    const page: SyncPage<T> = { items: ids.map((id) => (current.has(id) ? (current.get(id) as T) : { id, removed: true })) };
    if (changed.length > perPage) {
      const end = shown[shown.length - 1];
      page.cursor = encodeCursor({ ...cursor, afterSeq: end.seq, afterId: end.id });
    } else {
      page.token = last();
    }
    return page;
  }

  /**
   * Where a sync's page starts (its cursor, checked for expiry) and, when they were read with the data versions
   * before it was settled, the page's changes; and the newest state of the change log read on the way, when one was.
   */
  private async start<T>(
    scope: SyncScope,
    given: { token?: string; cursor?: string },
    perPage: number,
    source: SyncSource<T>,
    versions: VersionsHolder | undefined,
    now: number,
  ): Promise<{ cursor: SyncCursor; read?: SyncChanges<T>; state?: SequenceState }> {
    if (given.cursor !== undefined) {
      const cursor = decodeCursor(given.cursor, scope);
      // The page's range is fixed: its changes and the versions the check needs are read in one statement. What
      // is known of the log at or past its end, however old, still tells which kinds of change it holds.
      const read = cursor.mode === 'changes' && cursor.to > cursor.from ? await this.changesWithVersions(source, cursor, perPage, versions, this.known ?? undefined) : undefined;
      this.assertUsable(cursor.mode === 'full' ? cursor.to : cursor.from, cursor.issuedAt, now, await this.sequence(versions));
      return { cursor, read };
    }
    if (given.token !== undefined) {
      const token = decodeToken(given.token, scope);
      const guess = this.guess(token.seq, versions);
      if (guess) {
        // The changes up to the newest position known, read with the data versions: while those have not moved
        // since that position was read, it is still the newest, and the changes read are the sync's.
        const cursor: SyncCursor = { ...scope, mode: 'changes', from: token.seq, to: guess.seq, afterSeq: 0, afterId: 0, issuedAt: now };
        const read = await this.changesWithVersions(source, cursor, perPage, versions, guess);
        if (read.versions?.global === guess.global) {
          this.assertUsable(token.seq, token.issuedAt, now, guess);
          return { cursor, read };
        }
      }
      // Otherwise the versions that statement read (held for the request) tell `sequence` to read the position.
      const state = await this.sequence(versions);
      this.assertUsable(token.seq, token.issuedAt, now, state);
      return { cursor: { ...scope, mode: 'changes', from: token.seq, to: state.seq, afterSeq: 0, afterId: 0, issuedAt: now }, state };
    }
    return { cursor: { ...scope, mode: 'full', from: 0, to: (await this.sequence(versions)).seq, afterSeq: 0, afterId: 0, issuedAt: now } };
  }

  /**
   * The newest position known, to read a token's changes up to it together with the data versions, when that can
   * save a statement: the request has read no versions yet, the position was read within the last minute, and the
   * token is behind it (a token at it has no change to read: the versions alone tell whether it is still newest).
   */
  private guess(from: number, versions: VersionsHolder | undefined): Known | null {
    const known = this.known;
    if (!versions || versions.dataVersions !== undefined || !known || Date.now() - known.at >= KNOWN_FOR_MS || from >= known.seq) return null;
    return known;
  }

  /** A page of changes read with the data versions, which the request then holds (see `holdDataVersions`). */
  private async changesWithVersions<T>(source: SyncSource<T>, cursor: SyncCursor, perPage: number, versions: VersionsHolder | undefined, state: SequenceState | undefined): Promise<SyncChanges<T>> {
    const wanted = versions !== undefined && versions.dataVersions === undefined;
    const read = await source.changes(rangeOf(cursor, perPage, wanted, state));
    if (versions && read.versions) holdDataVersions(versions, read.versions);
    return read;
  }

  /**
   * The records of `kinds` changed in `range`, each (position, id) pair once: a sync's `changed` for a kind whose
   * answers embed no other record, with the data versions when the range asks for them (and it gave a row).
   */
  async changedRecords(kinds: string[], { from, to, afterSeq, afterId, limit, withVersions }: ChangeRange): Promise<{ changed: { seq: number; id: number }[]; versions?: DataVersions }> {
    const also = withVersions ? `, ${versionsColumns(this.dataSource.options.type)}` : '';
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT DISTINCT seq, record_id AS id${also} FROM changes WHERE kind IN (${kinds.map(() => '?').join(', ')}) AND seq > ? AND seq <= ? AND (seq > ? OR (seq = ? AND record_id > ?)) ORDER BY seq, record_id LIMIT ?`,
      [...kinds, from, to, afterSeq, afterSeq, afterId, limit],
    );
    const changed = rows.map((row) => ({ seq: Number(row['seq']), id: Number(row['id']) }));
    return { changed, versions: withVersions && rows[0] ? versionsFromRow(rows[0]) : undefined };
  }

  /** 410 `sync-token-expired` for a token or cursor older than the retention, or whose changes were dropped. */
  private assertUsable(seq: number, issuedAt: number, now: number, { seq: newest, pruned }: { seq: number; pruned: number }): void {
    if (now - issuedAt > this.retentionMs) throw syncTokenExpired();
    if (seq < pruned || seq > newest) throw syncTokenExpired();
  }

  /** Drops the rows whose position is older than the retention; answers how many. */
  async prune(): Promise<number> {
    this.known = null;
    await this.sequence();
    const before = this.clock.now().getTime() - this.retentionMs - PRUNE_MARGIN_MS;
    let dropped = 0;
    for (;;) {
      // Oldest positions first (their index, read no further than a batch): positions grow with time.
      const rows: { id: number; seq: number; at: number }[] = await this.dataSource.query('SELECT id, seq, sequenced_at AS at FROM changes WHERE seq IS NOT NULL ORDER BY seq LIMIT ?', [PRUNE_BATCH]);
      const old = rows.filter((row) => Number(row.at) < before);
      if (old.length > 0) {
        // The rows of a position go together: the mark says every row at or before it may be gone.
        const mark = Math.max(...old.map((row) => Number(row.seq)));
        await this.transactions.runApart(async (manager) => {
          await manager.query(`DELETE FROM changes WHERE id IN (${old.map(() => '?').join(', ')})`, old.map((row) => Number(row.id)));
          await manager.query('UPDATE change_sequence SET pruned = ? WHERE id = 1 AND pruned < ?', [mark, mark]);
        });
      }
      dropped += old.length;
      this.known = null;
      if (old.length < PRUNE_BATCH) return dropped;
    }
  }
}

/**
 * The range of changes a cursor's page reads: one more than a page, to tell whether another follows. It holds no
 * change of a venue, organizer or term when a state of the log read at or past its end says the newest of those is
 * at or before its start: positions only grow, so no such change can come into it later.
 */
function rangeOf(cursor: SyncCursor, perPage: number, withVersions: boolean, state: SequenceState | undefined): ChangeRange {
  const linked = state === undefined || state.seq < cursor.to || state.linked > cursor.from;
  return { from: cursor.from, to: cursor.to, afterSeq: cursor.afterSeq, afterId: cursor.afterId, limit: perPage + 1, withVersions, linked };
}
