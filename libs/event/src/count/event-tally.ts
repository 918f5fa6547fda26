import { zoneOffset } from '@calendar/shared/time';
import type { Zone } from 'luxon';

/*
 * What an event counts for in the list totals kept per day (SPEC §10.2), as pure functions: which audiences see it
 * in lists, the local day it starts on and how many days later it ends, and the filter keys it matches. A list
 * window of whole days [first, last] holds the events that start on a day d ≥ first and end on a day ≤ last, so
 * its total is the sum, over the days d from first to last, of the events starting on d whose length is at most
 * last − d: a read of the window's days, whatever the events they hold.
 */

/** Anonymous readers: published events shown in lists. */
export const PUBLIC_AUDIENCE = 1;
/** Editors and administrators: every event shown in lists but those in the trash. */
export const EDITOR_AUDIENCE = 2;

/**
 * Which keys an event counts under (`event_tally_state.scheme`): 1, each filter value alone; 2, every two of them
 * too. Counted again at start when the stored scheme differs.
 */
export const TALLY_SCHEME = 2;

/** Every event is counted under this key; the others name one filter value, or two. */
export const ALL_KEY = '*';
export const termKey = (id: number) => `k${id}`;
export const venueKey = (id: number) => `v${id}`;
export const organizerKey = (id: number) => `o${id}`;
export const featuredKey = (featured: boolean) => (featured ? 'f1' : 'f0');
/** Two filters asked together (SPEC §10.2: none, one or two filters): their keys in order, joined. */
export const pairKey = (a: string, b: string) => (a < b ? `${a}&${b}` : `${b}&${a}`);

const DAY_MS = 86_400_000;

/** The local date of an instant in `zone`, as days since 1970-01-01. */
export function localDay(ms: number, zone: Zone): number {
  return Math.floor((ms + zoneOffset(zone, ms) * 60_000) / DAY_MS);
}

/** The local date `YYYY-MM-DD` as days since 1970-01-01. */
export function dayOfDate(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;
}

/** An event as its tally reads it. */
export interface TalliedEvent {
  status: string;
  hidden: boolean;
  featured: boolean;
  startMs: number;
  endMs: number;
  venues: readonly number[];
  organizers: readonly number[];
  terms: readonly number[];
}

export interface Tally {
  /** Bits of PUBLIC_AUDIENCE and EDITOR_AUDIENCE; 0 when no list shows the event. */
  audiences: number;
  day: number;
  length: number;
  keys: string[];
}

/**
 * What an event counts for: `ancestors` gives a term's ancestors (a category filter matches the events of its
 * descendants too, so an event counts for every ancestor of its categories as well).
 */
export function tallyOf(event: TalliedEvent, zone: Zone, ancestors: (termId: number) => readonly number[]): Tally {
  const audiences = event.hidden || event.status === 'trash' ? 0 : event.status === 'publish' ? PUBLIC_AUDIENCE | EDITOR_AUDIENCE : EDITOR_AUDIENCE;
  const day = localDay(event.startMs, zone);
  const terms = new Set<number>();
  for (const id of event.terms) for (const term of [id, ...ancestors(id)]) terms.add(term);
  const single = [
    featuredKey(event.featured),
    ...[...new Set(event.venues)].map(venueKey),
    ...[...new Set(event.organizers)].map(organizerKey),
    ...[...terms].sort((a, b) => a - b).map(termKey),
  ];
  // Every two of them, for the lists that ask two filters (a category and a venue, a tag and featured, ...).
  const pairs: string[] = [];
  for (let i = 0; i < single.length; i += 1) for (let j = i + 1; j < single.length; j += 1) pairs.push(pairKey(single[i], single[j]));
  return { audiences, day, length: Math.max(0, localDay(event.endMs, zone) - day), keys: [ALL_KEY, ...single, ...pairs] };
}

/** A change of one row of `event_day_counts`: its key, day and length, and what its two counts move by. */
export interface CountDelta {
  key: string;
  day: number;
  length: number;
  public: number;
  editor: number;
}

/** The changes of `event_day_counts` rows, one per row, as tallies are taken back and added. */
export class CountDeltas {
  private readonly rows = new Map<string, CountDelta>();

  /** Adds (`sign` 1) or takes back (-1) what a tally counts for. */
  add(tally: Tally | undefined, sign: 1 | -1): this {
    if (!tally || tally.audiences === 0) return this;
    const publicMove = tally.audiences & PUBLIC_AUDIENCE ? sign : 0;
    const editorMove = tally.audiences & EDITOR_AUDIENCE ? sign : 0;
    for (const key of tally.keys) {
      const id = `${key}|${tally.day}|${tally.length}`;
      const row = this.rows.get(id) ?? { key, day: tally.day, length: tally.length, public: 0, editor: 0 };
      row.public += publicMove;
      row.editor += editorMove;
      this.rows.set(id, row);
    }
    return this;
  }

  /** The rows that change, in the order of the table's key (so that concurrent writes lock rows in one order). */
  changes(): CountDelta[] {
    return [...this.rows.values()]
      .filter((row) => row.public !== 0 || row.editor !== 0)
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.day - b.day || a.length - b.length));
  }
}

/** What a total per day reads: the key, the count of the caller's audience, and the window's first and last day. */
export interface DayCountQuery {
  key: string;
  column: 'public_n' | 'editor_n';
  first: number;
  last: number;
}

/** The filters a list total may have for the totals per day to count it. */
export interface DayCountable {
  days?: { first: number; last: number };
  include?: number[];
  statuses?: string[];
  search?: unknown[];
  near?: unknown;
  geoloc?: boolean;
  postParent?: number;
  startsBefore?: Date;
  startsAfter?: Date;
  endsBefore?: Date;
  endsAfter?: Date;
  modifiedAfter?: Date;
  modifiedBefore?: Date;
  termSets?: number[][];
  termKeys?: (number | null)[];
  venues?: number[];
  organizers?: number[];
  featured?: boolean;
}

/**
 * The totals per day that count a list (`audience`: `public` for anonymous readers, `editor` for callers who see
 * every status, null for others, whose own drafts count too), or null when they cannot: a window that is not whole
 * days, a search, a place, a status or parent asked, more than two of the term, venue, organizer and featured
 * filters, or one of them with several values. Those are counted from the events themselves.
 */
export function dayCountQuery(filter: DayCountable, audience: 'public' | 'editor' | null): DayCountQuery | null {
  if (!audience || !filter.days || filter.days.last < filter.days.first) return null;
  const unsupported = [filter.include, filter.statuses, filter.search, filter.near, filter.geoloc, filter.postParent, filter.startsBefore, filter.startsAfter, filter.endsBefore, filter.endsAfter, filter.modifiedAfter, filter.modifiedBefore];
  if (unsupported.some((value) => value !== undefined)) return null;
  const keys: (string | null)[] = [
    ...(filter.termSets ?? []).map((_ids, index) => {
      const named = filter.termKeys?.[index];
      return named === undefined || named === null ? null : termKey(named);
    }),
    ...(filter.venues ? [filter.venues.length === 1 ? venueKey(filter.venues[0]) : null] : []),
    ...(filter.organizers ? [filter.organizers.length === 1 ? organizerKey(filter.organizers[0]) : null] : []),
    ...(filter.featured !== undefined ? [featuredKey(filter.featured)] : []),
  ];
  if (keys.length > 2 || keys.includes(null)) return null;
  const [first, second] = keys as string[];
  // The same key twice (two term filters naming one term; the API refuses it, a term has one taxonomy) is that key.
  const key = first === undefined ? ALL_KEY : second === undefined || second === first ? first : pairKey(first, second);
  return { key, column: audience === 'public' ? 'public_n' : 'editor_n', first: filter.days.first, last: filter.days.last };
}
