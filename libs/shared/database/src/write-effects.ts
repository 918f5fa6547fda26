import type { DataPart } from './data-version';
import type { EntityManager } from 'typeorm';

/** The kinds of record a write changes, as clients know them. */
export type ChangedKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

/** What happened to a record: `trashed` keeps it (a status update restores it), `deleted` removes it for good. */
export type ChangeAction = 'created' | 'updated' | 'trashed' | 'deleted';

export interface RecordChange {
  kind: ChangedKind;
  id: number;
  action: ChangeAction;
}

/** The kinds whose records have rows in the search index. */
export type SearchedKind = 'event' | 'venue' | 'organizer';

/**
 * Everything one write transaction changed, as data: the writers (event, venue, organizer and term writes, the
 * series writer, the series horizon) record here what they did, and the `WriteCoordinator` applies it once, at
 * the end of the write and inside its transaction: search rows rebuilt, term counts moved, the longest event
 * span widened, the idempotency key claimed, the data versions moved on and the write logged.
 *
 * `changes` is every record the write created, updated, trashed or deleted, known at commit: what a change log or
 * an outbox needs.
 */
export class WriteEffects {
  private readonly byRecord = new Map<string, RecordChange>();
  /**
   * Terms whose published-event counts the write may have changed: the counts then move by what each event the write
   * changed counted for and counts for now (`events.counted_term_ids`).
   */
  readonly terms = new Set<number>();
  /** Terms whose counts are counted again from their links (a write that brings counts of its own: an import). */
  readonly countedAgain = new Set<number>();
  /** What events the write removed for good counted for, one term id per count (their rows are gone at the end). */
  readonly uncounted: number[] = [];
  /** Parts of the data whose versions move on with the global one (what is kept of them is read again). */
  readonly parts = new Set<DataPart>();
  /** Records whose rows of the search index are rebuilt from what the write left, by kind. */
  private readonly search = new Map<SearchedKind, Set<number>>();
  /** The longest start-to-end span (seconds) of an event the write left; 0 when it wrote no event's dates. */
  longestSpan = 0;
  /**
   * Records whose answers the write changed without writing them (a term's count, a category's parent gone, the
   * events a deleted term leaves), by kind: what the change log records besides `changes`, and nothing else reads.
   */
  readonly touched = new Map<ChangedKind, Set<number>>();
  /** Terms whose answers the write changed without writing them, of either taxonomy (their counts). */
  readonly touchedTerms = new Set<number>();
  /** What writers know of records they created (see `know`), by kind and id. */
  private readonly known = new Map<string, object>();

  /** The effects of the write running on `manager` (one run by `TransactionRunner`). */
  static of(manager: EntityManager): WriteEffects {
    const effects = running.get(manager);
    if (!effects) throw new Error('No write runs on this manager: writes go through TransactionRunner.run');
    return effects;
  }

  /** Starts recording the effects of the write that runs on `manager`. */
  static begin(manager: EntityManager): WriteEffects {
    const effects = new WriteEffects();
    running.set(manager, effects);
    return effects;
  }

  /**
   * Records what happened to a record. A record created by this write stays `created` whatever else the write
   * does to it, and is forgotten if the write deletes it again; otherwise the last action is the one that counts.
   */
  record(kind: ChangedKind, id: number, action: ChangeAction): this {
    const key = `${kind}:${id}`;
    const known = this.byRecord.get(key);
    if (known?.action === 'created') {
      if (action === 'deleted') this.byRecord.delete(key);
      return this;
    }
    this.byRecord.set(key, { kind, id, action });
    return this;
  }

  /** Every record changed, in the order first recorded. */
  get changes(): RecordChange[] {
    return [...this.byRecord.values()];
  }

  /**
   * The records of `kind` this write created. Their ids are new (ids are never given twice, and records with rows
   * keyed by their id elsewhere, events, venues and organizers, are never deleted for good), so no row derived from
   * them exists outside what this write made: what rebuilds such rows need not remove any first.
   */
  created(kind: ChangedKind): Set<number> {
    const ids = new Set<number>();
    for (const change of this.byRecord.values()) if (change.kind === kind && change.action === 'created') ids.add(change.id);
    return ids;
  }

  recount(termIds: Iterable<number>): this {
    for (const id of termIds) this.terms.add(id);
    return this;
  }

  countAgain(termIds: Iterable<number>): this {
    for (const id of termIds) this.countedAgain.add(id);
    return this;
  }

  /** Takes back what an event removed for good by the write counted for (`counted_term_ids`, read before it went). */
  uncount(termIds: Iterable<number>): this {
    for (const id of termIds) this.uncounted.push(id);
    return this;
  }

  movePart(part: DataPart): this {
    this.parts.add(part);
    return this;
  }

  /** Records `ids` of `kind` as changed in answers only (see `touched`). */
  touch(kind: ChangedKind, ids: Iterable<number>): this {
    const set = this.touched.get(kind) ?? new Set<number>();
    for (const id of ids) set.add(id);
    this.touched.set(kind, set);
    return this;
  }

  /**
   * What the writer of a record this write created knows of it as it stands at the end of the write (its links, its
   * texts, its row), for the appliers that would otherwise read it back: given only when nothing later in the write
   * changes that record. An applier takes it for a created record and reads the others.
   */
  know<T extends object>(kind: ChangedKind, id: number, facts: T): this {
    this.known.set(`${kind}:${id}`, facts);
    return this;
  }

  /** What `know` holds of a record this write created, or undefined (the applier reads it). */
  knownOf<T extends object>(kind: ChangedKind, id: number): T | undefined {
    const key = `${kind}:${id}`;
    return this.byRecord.get(key)?.action === 'created' ? (this.known.get(key) as T | undefined) : undefined;
  }

  reindex(kind: SearchedKind, id: number): this {
    const ids = this.search.get(kind) ?? new Set<number>();
    this.search.set(kind, ids.add(id));
    return this;
  }

  /** The ids of the records of `kind` whose search rows are rebuilt. */
  reindexed(kind: SearchedKind): number[] {
    return [...(this.search.get(kind) ?? [])];
  }

  widenSpan(seconds: number): this {
    this.longestSpan = Math.max(this.longestSpan, seconds);
    return this;
  }

  /**
   * The events this write only added, or null when it did anything else to events. A create adds its event and
   * what is made for it alone (venues, organizers and terms created with it, its occurrences, its terms' counts),
   * none of which changes whether an existing event is in a list: kept list totals then catch up by counting the
   * added events instead of counting again. A write that changes no event at all is not one that only added.
   */
  onlyAddedEvents(): number[] | null {
    const events = this.changes.filter((change) => change.kind === 'event');
    if (events.length === 0 || events.some((change) => change.action !== 'created')) return null;
    return events.map((change) => change.id);
  }
}

const running = new WeakMap<EntityManager, WriteEffects>();
