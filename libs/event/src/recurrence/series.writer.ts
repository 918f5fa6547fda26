import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { firstFreeSlug, likeStartsWith } from '@calendar/i18n';
import { WriteEffects } from '@calendar/shared/database';
import { parseUtcWallClock, sqlDateTime } from '@calendar/shared/time';
import { DateTime } from 'luxon';
import { EntityManager } from 'typeorm';
import { EventEntity } from '../entities/event.entity';
import { eventZone } from '../event-dates';
import { EventLinks, EventRepository } from '../event.repository';
import { occurrenceStarts } from './recurrence-rule';

/** How far ahead occurrences are written (SPEC §13: two years at least). */
export const HORIZON = { years: 2 };

/** The texts an occurrence can detach per language, as `<field>@<lang>` (the write fields' names). */
const TEXT_FIELDS = [
  ['title', 'name'],
  ['description', 'description'],
  ['excerpt', 'excerpt'],
] as const;

/** Write fields → the key an occurrence detaches when they are written on it alone (texts: per language). */
export const DETACHING_FIELDS: Record<string, string> = {
  start_date: 'dates',
  end_date: 'dates',
  all_day: 'dates',
  timezone: 'dates',
  status: 'status',
  author: 'author',
  date: 'date',
  date_utc: 'date',
  image: 'image',
  cost: 'cost',
  website: 'website',
  show_map: 'show_map',
  show_map_link: 'show_map_link',
  hide_from_listings: 'hide_from_listings',
  sticky: 'sticky',
  featured: 'featured',
  password: 'password',
  venue: 'venue',
  organizer: 'organizer',
  categories: 'categories',
  tags: 'tags',
};

/** The event columns each detachable key stands for (the rest of an occurrence's row always follows its head). */
const DETACHED_COLUMNS: Record<string, (keyof EventEntity)[]> = {
  dates: ['timezone', 'allDay', 'startUtc', 'endUtc'],
  author: ['authorId'],
  date: ['publishedAt'],
  image: ['imageId'],
  cost: ['cost'],
  website: ['website'],
  show_map: ['showMap'],
  show_map_link: ['showMapLink'],
  hide_from_listings: ['hideFromListings'],
  sticky: ['sticky'],
  featured: ['featured'],
  password: ['passwordHash'],
};

/** The columns of an event row a series writes, by property. */
const COLUMNS: [keyof EventEntity, string][] = [
  ['authorId', 'author_id'],
  ['status', 'status'],
  ['previousStatus', 'previous_status'],
  ['originalLang', 'original_lang'],
  ['imageId', 'image_id'],
  ['publishedAt', 'published_at'],
  ['modifiedAt', 'modified_at'],
  ['timezone', 'timezone'],
  ['allDay', 'all_day'],
  ['startUtc', 'start_utc'],
  ['endUtc', 'end_utc'],
  ['cost', 'cost'],
  ['website', 'website'],
  ['showMap', 'show_map'],
  ['showMapLink', 'show_map_link'],
  ['hideFromListings', 'hide_from_listings'],
  ['sticky', 'sticky'],
  ['featured', 'featured'],
  ['postParent', 'post_parent'],
  ['passwordHash', 'password_hash'],
  ['revision', 'revision'],
  ['recurrence', 'recurrence'],
  ['seriesId', 'series_id'],
  ['recurrenceStart', 'recurrence_start'],
  ['detached', 'detached'],
  ['seriesTrashed', 'series_trashed'],
];

/** A head is due when the horizon (the parameter) has reached its first occurrence not written yet. */
const DUE = "materialized_until <= ? AND status <> 'trash'";

/**
 * How a head's write reaches its occurrences: `rule` (new or changed lines: occurrences are matched to the new
 * rule by start, then by day), `dates` (the head moved: its nth occurrence moves to the rule's new nth start),
 * `fields` (same starts), `extend` (the horizon moved on: only the missing occurrences are added).
 */
export type SeriesChange = 'rule' | 'dates' | 'fields' | 'extend';

type Row = Record<string, unknown>;
interface Texts {
  lang: string;
  name: string | null;
  description: string | null;
  excerpt: string | null;
  slug: string;
}
interface Desired {
  id: number | null;
  row: Partial<EventEntity>;
  texts: Texts[];
  links: { venues: number[]; organizers: number[]; terms: number[] };
}

const keysOf = (detached: string | null | undefined): Set<string> => new Set((detached ?? '').split(',').filter((key) => key !== ''));
const value = (property: keyof EventEntity, input: unknown): unknown => {
  if (input instanceof Date) return sqlDateTime(input);
  if (typeof input === 'boolean') return input ? 1 : 0;
  return input ?? null;
};

/** Multi-row inserts in chunks (one statement per chunk). */
async function insertRows(manager: EntityManager, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  for (let offset = 0; offset < rows.length; offset += 400) {
    const chunk = rows.slice(offset, offset + 400);
    await manager.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')}`, chunk.flat());
  }
}

/** `DELETE FROM table WHERE column IN (ids)` in chunks. */
async function deleteWhereIn(manager: EntityManager, table: string, column: string, ids: number[], extra = ''): Promise<void> {
  for (let offset = 0; offset < ids.length; offset += 500) {
    const chunk = ids.slice(offset, offset + 500);
    await manager.query(`DELETE FROM ${table} WHERE ${extra}${column} IN (${chunk.map(() => '?').join(', ')})`, chunk);
  }
}

/**
 * Writes a series' occurrences (SPEC §13) from its head, inside the transaction of the head's write: each an event
 * row of its own with the head's fields, texts and links, except what was edited on the occurrence alone.
 */
@Injectable()
export class SeriesWriter {
  constructor(private readonly events: EventRepository) {}

  /**
   * Brings the occurrences of the series headed by `headId` in line with the head as written, up to `now` + the
   * horizon. What it changes goes to the write's effects: each occurrence created, updated, trashed or deleted, and
   * the terms whose counts may have changed (those of the head and of every occurrence before and after). Returns
   * the ids of the occurrences added. Their search rows are rebuilt with the write's effects, like every record's.
   */
  async sync(manager: EntityManager, headId: number, change: SeriesChange, now: Date): Promise<number[]> {
    const effects = WriteEffects.of(manager);
    const [head] = await this.events.load([headId], manager);
    const existing: Row[] = await manager.query(
      'SELECT id, recurrence_start, detached, status, previous_status, series_trashed FROM events WHERE series_id = ? ORDER BY recurrence_start, id',
      [headId],
    );
    const headLinks = await this.events.links([headId], manager);
    const touchedTerms = new Set(headLinks.terms.get(headId) ?? []);
    if (!head.recurrence) {
      await this.drop(manager, existing, touchedTerms);
      await manager.query('UPDATE events SET materialized_until = NULL WHERE id = ?', [headId]);
      effects.recount(touchedTerms);
      return [];
    }
    const zone = eventZone(head.timezone);
    const until = DateTime.fromJSDate(now).plus(HORIZON).toJSDate();
    const { starts, next } = occurrenceStarts(head.recurrence.split('\n'), { start: head.startUtc, zone }, until);
    const wanted = starts.slice(1);
    const toDate = (row: Row) => parseUtcWallClock(row['recurrence_start']);

    // Which existing occurrence becomes which wanted one.
    const matched = new Map<number, Row>();
    const unmatched = new Set(existing);
    if (change === 'dates') {
      existing.forEach((row, index) => {
        if (index < wanted.length) {
          matched.set(index, row);
          unmatched.delete(row);
        }
      });
    } else {
      const byStart = new Map(existing.map((row) => [toDate(row).getTime(), row]));
      wanted.forEach((start, index) => {
        const row = byStart.get(start.getTime());
        if (row && unmatched.has(row)) {
          matched.set(index, row);
          unmatched.delete(row);
        }
      });
      if (change !== 'extend') {
        // A changed rule keeps an occurrence on a day the new rule still has (its time may have changed).
        const day = (date: Date) => DateTime.fromJSDate(date, { zone: zone.zone }).toISODate();
        const free = [...unmatched];
        wanted.forEach((start, index) => {
          if (matched.has(index)) return;
          const row = free.find((candidate) => unmatched.has(candidate) && day(toDate(candidate)) === day(start));
          if (row) {
            matched.set(index, row);
            unmatched.delete(row);
          }
        });
      }
    }
    if (change !== 'extend') await this.drop(manager, [...unmatched], touchedTerms);

    const keep = change === 'extend' ? [] : [...matched.values()];
    const own = new Map((await this.events.load(keep.map((row) => Number(row['id'])), manager)).map((event) => [event.id, event]));
    const ownLinks = await this.events.links([...own.keys()], manager);
    for (const list of ownLinks.terms.values()) for (const id of list) touchedTerms.add(id);
    const taxonomies = await this.taxonomies(manager, [...touchedTerms]);

    const revision = randomInt(1, 2 ** 31 - 1);
    const headStart = DateTime.fromJSDate(head.startUtc, { zone: zone.zone });
    const span = DateTime.fromJSDate(head.endUtc, { zone: zone.zone }).diff(headStart, ['days', 'hours', 'minutes', 'seconds']);
    const desired: Desired[] = [];
    wanted.forEach((start, index) => {
      const row = matched.get(index);
      if (change === 'extend' && row) return;
      const occurrence = row ? own.get(Number(row['id'])) : undefined;
      if (row && !occurrence) return;
      desired.push(this.desired(head, headLinks, occurrence, ownLinks, row, start, DateTime.fromJSDate(start, { zone: zone.zone }).plus(span).toJSDate(), revision, taxonomies));
    });
    await this.assignSlugs(manager, head, desired);

    // Existing rows first let go of their starts (a start may pass from one occurrence to another), then take the new ones.
    const updated = desired.filter((item) => item.id !== null);
    for (let offset = 0; offset < updated.length; offset += 500) {
      const chunk = updated.slice(offset, offset + 500).map((item) => item.id as number);
      await manager.query(`UPDATE events SET recurrence_start = NULL WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
    }
    const columns = COLUMNS.filter(([property]) => property !== 'seriesId');
    for (const item of updated) {
      await manager.query(`UPDATE events SET ${columns.map(([, column]) => `${column} = ?`).join(', ')} WHERE id = ?`, [
        ...columns.map(([property]) => value(property, item.row[property])),
        item.id,
      ]);
    }
    const created = desired.filter((item) => item.id === null);
    if (created.length > 0) {
      const all: [keyof EventEntity, string][] = [...COLUMNS, ['createdAt', 'created_at']];
      await insertRows(
        manager,
        'events',
        all.map(([, column]) => column),
        created.map((item) => all.map(([property]) => value(property, property === 'createdAt' ? now : item.row[property]))),
      );
      const ids: Row[] = await manager.query('SELECT id, recurrence_start FROM events WHERE series_id = ? AND detached IS NULL', [headId]);
      const byStart = new Map(ids.map((row) => [toDate(row).getTime(), Number(row['id'])]));
      for (const item of created) item.id = byStart.get((item.row.recurrenceStart as Date).getTime()) ?? null;
    }
    await this.writeOwned(manager, desired);
    // What the horizon waits for: the next occurrence not written yet (none: the series is complete). The series is
    // due again only once the horizon reaches it, so moving the horizon on writes nothing for series that gain no
    // occurrence (each such write would move the data version on for nothing).
    await manager.query('UPDATE events SET materialized_until = ? WHERE id = ?', [next ? sqlDateTime(next) : null, headId]);
    for (const item of desired) for (const id of item.links.terms) touchedTerms.add(id);
    for (const item of updated) effects.record('event', item.id as number, 'updated').reindex('event', item.id as number);
    for (const item of created) effects.record('event', item.id as number, 'created').reindex('event', item.id as number);
    effects.recount(touchedTerms);
    return created.map((item) => item.id as number);
  }

  /**
   * The series goes to the trash with its head: every occurrence not in the trash already, marked as trashed with
   * it. The occurrences trashed and their terms (whose counts change) go to the write's effects.
   */
  async trash(manager: EntityManager, headId: number, now: Date): Promise<void> {
    const terms: Row[] = await manager.query('SELECT DISTINCT term_id FROM event_terms WHERE event_id IN (SELECT id FROM events WHERE series_id = ?)', [headId]);
    const trashed: Row[] = await manager.query("SELECT id FROM events WHERE series_id = ? AND status <> 'trash'", [headId]);
    await manager.query(
      `UPDATE events SET previous_status = status, status = 'trash', series_trashed = 1, revision = ?, modified_at = ? WHERE series_id = ? AND status <> 'trash'`,
      [randomInt(1, 2 ** 31 - 1), sqlDateTime(now), headId],
    );
    const effects = WriteEffects.of(manager).recount(terms.map((row) => Number(row['term_id'])));
    for (const row of trashed) effects.record('event', Number(row['id']), 'trashed');
  }

  /** The heads, not in the trash, whose next occurrence not written yet starts by `target`. */
  async due(manager: EntityManager, target: Date): Promise<number[]> {
    const rows: Row[] = await manager.query(`SELECT id FROM events WHERE ${DUE} AND series_id IS NULL ORDER BY id`, [sqlDateTime(target)]);
    return rows.map((row) => Number(row['id']));
  }

  /**
   * Whether a head found by `due` is due still, asked inside the transaction that extends it: on MySQL its row is
   * then held until that transaction ends, so two instances extending at once write the series once.
   */
  async stillDue(manager: EntityManager, headId: number, target: Date): Promise<boolean> {
    const lock = manager.connection.options.type === 'mysql' ? ' FOR UPDATE' : '';
    return (await manager.query(`SELECT id FROM events WHERE id = ? AND ${DUE}${lock}`, [headId, sqlDateTime(target)])).length > 0;
  }

  /**
   * Occurrences the rule no longer has: removed for good, except those edited on their own, which go to the trash
   * (and stay as they are when they are there already).
   */
  private async drop(manager: EntityManager, rows: Row[], touchedTerms: Set<number>): Promise<void> {
    const edited = rows.filter((row) => keysOf(row['detached'] as string | null).size > 0);
    const gone = rows.filter((row) => !edited.includes(row)).map((row) => Number(row['id']));
    if (gone.length > 0) {
      const links = await this.events.links(gone, manager);
      for (const list of links.terms.values()) for (const id of list) touchedTerms.add(id);
      // Their rows go: what they counted for in their terms' counts is taken back now.
      WriteEffects.of(manager).uncount(await this.events.countedTerms(manager, gone));
      for (const table of ['event_translations', 'event_venues', 'event_organizers', 'event_terms']) await deleteWhereIn(manager, table, 'event_id', gone);
      await deleteWhereIn(manager, 'events', 'id', gone);
    }
    const trashed = edited.filter((row) => row['status'] !== 'trash').map((row) => Number(row['id']));
    if (trashed.length > 0) {
      await manager.query(`UPDATE events SET previous_status = status, status = 'trash', series_trashed = 0, revision = ? WHERE id IN (${trashed.map(() => '?').join(', ')})`, [
        randomInt(1, 2 ** 31 - 1),
        ...trashed,
      ]);
    }
    const effects = WriteEffects.of(manager);
    for (const id of gone) effects.record('event', id, 'deleted').reindex('event', id);
    for (const id of trashed) effects.record('event', id, 'trashed');
  }

  /** What an occurrence is: its head's row, texts and links, with what was edited on it alone kept. */
  private desired(
    head: EventEntity,
    headLinks: EventLinks,
    occurrence: EventEntity | undefined,
    ownLinks: EventLinks,
    existing: Row | undefined,
    start: Date,
    end: Date,
    revision: number,
    taxonomies: Map<number, string>,
  ): Desired {
    const detached = keysOf(occurrence?.detached);
    const row: Partial<EventEntity> = {};
    for (const [property] of COLUMNS) (row as Record<string, unknown>)[property] = head[property];
    row.startUtc = start;
    row.endUtc = end;
    for (const [key, properties] of Object.entries(DETACHED_COLUMNS)) {
      if (occurrence && detached.has(key)) for (const property of properties) (row as Record<string, unknown>)[property] = occurrence[property];
    }
    Object.assign(row, {
      postParent: head.id,
      seriesId: head.id,
      recurrenceStart: start,
      detached: occurrence?.detached ?? null,
      revision,
      modifiedAt: new Date(),
      previousStatus: null,
      seriesTrashed: false,
    });
    // The status: an occurrence trashed on its own stays in the trash (and comes back with the head's status); one
    // trashed with its head comes back with it; its own status when it was edited on it alone.
    const ownStatus = detached.has('status');
    const status = existing?.['status'] as string | undefined;
    const previous = (existing?.['previous_status'] as string | null) ?? null;
    const withHead = Boolean(Number(existing?.['series_trashed'] ?? 0));
    if (head.status === 'trash') {
      // A head edited in the trash leaves its series there, to come back with it.
      Object.assign(row, existing ? { status, previousStatus: previous, seriesTrashed: withHead } : { status: 'trash', previousStatus: head.previousStatus, seriesTrashed: true });
    } else if (status === 'trash' && !withHead) Object.assign(row, { status: 'trash', previousStatus: ownStatus ? previous : head.status });
    else if (withHead) row.status = ownStatus ? (previous as EventEntity['status']) : head.status;
    else if (ownStatus && status) row.status = status as EventEntity['status'];

    const languages = new Set([...head.translations.map((text) => text.lang), ...(occurrence?.translations ?? []).map((text) => text.lang)]);
    const texts: Texts[] = [];
    for (const lang of languages) {
      const fromHead = head.translations.find((text) => text.lang === lang);
      const fromOwn = occurrence?.translations.find((text) => text.lang === lang);
      const ownFields = TEXT_FIELDS.filter(([field]) => detached.has(`${field}@${lang}`));
      if (!fromHead && (!fromOwn || ownFields.length === 0)) continue;
      const text: Texts = { lang, name: fromHead?.name ?? null, description: fromHead?.description ?? null, excerpt: fromHead?.excerpt ?? null, slug: '' };
      for (const [, property] of ownFields) text[property] = fromOwn?.[property] ?? null;
      // Its own slug when it was given one, or in a language only it has texts in; else one made from the head's.
      if (fromOwn && (detached.has(`slug@${lang}`) || !fromHead)) text.slug = fromOwn.slug;
      texts.push(text);
    }
    const id = existing ? Number(existing['id']) : null;
    const linkList = (kind: keyof EventLinks, key: string) => (occurrence && detached.has(key) ? (ownLinks[kind].get(occurrence.id) ?? []) : (headLinks[kind].get(head.id) ?? []));
    const termsOf = (taxonomy: string, key: string) => linkList('terms', key).filter((termId) => taxonomies.get(termId) === taxonomy);
    return {
      id,
      row,
      texts,
      links: { venues: linkList('venues', 'venue'), organizers: linkList('organizers', 'organizer'), terms: [...termsOf('category', 'categories'), ...termsOf('tag', 'tags')] },
    };
  }

  /** Slugs of occurrences that follow their head: `<head slug>-<YYYY-MM-DD>`, `-2`, `-3`... when taken (SPEC §13). */
  private async assignSlugs(manager: EntityManager, head: EventEntity, desired: Desired[]): Promise<void> {
    const series = desired.map((item) => item.id).filter((id): id is number => id !== null);
    for (const headText of head.translations) {
      const lang = headText.lang;
      const pending = desired.flatMap((item) => item.texts.filter((text) => text.lang === lang && text.slug === ''));
      if (pending.length === 0) continue;
      // Slugs held by other events, and by occurrences of this series that keep their own.
      const rows: Row[] = await manager.query(`SELECT slug, event_id FROM event_translations WHERE lang = ? AND slug LIKE ? ESCAPE '!'`, [lang, likeStartsWith(`${headText.slug}-`)]);
      const rewritten = new Set(series);
      const taken = new Set(rows.filter((row) => !rewritten.has(Number(row['event_id']))).map((row) => String(row['slug'])));
      for (const item of desired) for (const text of item.texts) if (text.lang === lang && text.slug !== '') taken.add(text.slug);
      for (const item of desired) {
        for (const text of item.texts) {
          if (text.lang !== lang || text.slug !== '') continue;
          const day = DateTime.fromJSDate(item.row.recurrenceStart as Date, { zone: eventZone(head.timezone).zone }).toISODate();
          text.slug = firstFreeSlug(`${headText.slug}-${day}`, taken);
          taken.add(text.slug);
        }
      }
    }

  }

  /** The texts and links of the occurrences written: replaced whole, a few statements for the series. */
  private async writeOwned(manager: EntityManager, desired: Desired[]): Promise<void> {
    const ids = desired.map((item) => item.id as number);
    if (ids.length === 0) return;
    for (const table of ['event_translations', 'event_venues', 'event_organizers', 'event_terms']) await deleteWhereIn(manager, table, 'event_id', ids);
    await insertRows(
      manager,
      'event_translations',
      ['event_id', 'lang', 'name', 'slug', 'description', 'excerpt'],
      desired.flatMap((item) => item.texts.map((text) => [item.id, text.lang, text.name, text.slug, text.description, text.excerpt])),
    );
    const links: [string, string, (item: Desired) => number[]][] = [
      ['event_venues', 'venue_id', (item) => item.links.venues],
      ['event_organizers', 'organizer_id', (item) => item.links.organizers],
      ['event_terms', 'term_id', (item) => item.links.terms],
    ];
    for (const [table, column, list] of links) {
      await insertRows(manager, table, ['event_id', column, 'position'], desired.flatMap((item) => list(item).map((target, position) => [item.id, target, position])));
    }
  }

  /** The taxonomy (`category`, `tag`) of each term. */
  private async taxonomies(manager: EntityManager, termIds: number[]): Promise<Map<number, string>> {
    if (termIds.length === 0) return new Map();
    const rows: Row[] = await manager.query(`SELECT id, taxonomy FROM terms WHERE id IN (${termIds.map(() => '?').join(', ')})`, termIds);
    return new Map(rows.map((row) => [Number(row['id']), String(row['taxonomy'])]));
  }
}
