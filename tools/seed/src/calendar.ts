import { eventZone, occurrenceStarts } from '@calendar/event';
import { slugFromText } from '@calendar/i18n';
import { DateTime } from 'luxon';
import { Random } from '@calendar/shared/testing';

/*
 * The shape of a realistic calendar, generated row by row: plain rows keyed by column, ready for batched inserts.
 * Everything derives from the seed, so two runs with the same seed produce the same calendar (only the revisions of events, which carry no content, differ).
 */

const ADJECTIVES = ['Summer', 'Winter', 'Late', 'Open', 'Grand', 'Little', 'Midnight', 'Sunday', 'Jazz', 'Spring', 'Autumn', 'Electric', 'Acoustic', 'Family', 'Harbour'];
const NOUNS = ['Festival', 'Concert', 'Market', 'Workshop', 'Lecture', 'Screening', 'Tour', 'Fair', 'Recital', 'Meetup', 'Exhibition', 'Party', 'Tasting', 'Run', 'Session'];
const FRENCH_NOUNS = ['Festival', 'Concert', 'Marché', 'Atelier', 'Conférence', 'Projection', 'Visite', 'Foire', 'Récital', 'Rencontre', 'Exposition', 'Fête', 'Dégustation', 'Course', 'Séance'];
const CHINESE_NOUNS = ['音乐节', '音乐会', '市集', '工作坊', '讲座', '放映', '导览', '博览会', '独奏会', '聚会', '展览', '派对', '品鉴', '跑步', '活动'];
const CITIES: [string, string, string, number, number][] = [
  ['Paris', 'France', 'Europe/Paris', 48.8566, 2.3522],
  ['Lyon', 'France', 'Europe/Paris', 45.764, 4.8357],
  ['New York', 'United States', 'America/New_York', 40.7128, -74.006],
  ['Boston', 'United States', 'America/New_York', 42.3601, -71.0589],
  ['Shanghai', 'China', 'Asia/Shanghai', 31.2304, 121.4737],
  ['Sydney', 'Australia', 'Australia/Sydney', -33.8688, 151.2093],
  ['London', 'United Kingdom', 'Europe/London', 51.5072, -0.1276],
  ['Hong Kong', 'China', 'Asia/Hong_Kong', 22.3193, 114.1694],
];
const CATEGORY_TREE: [string, string[]][] = [
  ['Music', ['Jazz', 'Rock', 'Classical', 'Electronic']],
  ['Arts', ['Theatre', 'Dance', 'Painting']],
  ['Food', ['Wine', 'Street food']],
  ['Sports', ['Running', 'Cycling']],
  ['Learning', ['Science', 'History', 'Languages']],
  ['Family', []],
];

export interface Sizes {
  events: number;
  venues: number;
  organizers: number;
  tags: number;
}

export function sizesFor(events: number): Sizes {
  return { events, venues: Math.max(20, Math.round(events / 50)), organizers: Math.max(10, Math.round(events / 100)), tags: Math.max(20, Math.min(500, Math.round(events / 200))) };
}

type Row = Record<string, unknown>;

export function utc(date: Date): string {
  return date.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '');
}

const NOW = Date.UTC(2026, 10, 1);

export interface TermRows {
  terms: Row[];
  translations: Row[];
  categoryIds: number[];
  tagIds: number[];
}

export function termRows(startId: number, tags: number): TermRows {
  const terms: Row[] = [];
  const translations: Row[] = [];
  const categoryIds: number[] = [];
  const tagIds: number[] = [];
  let id = startId;
  const add = (taxonomy: string, name: string, parent: number, slug: string) => {
    terms.push({ id, taxonomy, parent_id: parent, original_lang: 'en', event_count: 0, created_at: utc(new Date(NOW)), modified_at: utc(new Date(NOW)) });
    translations.push({ term_id: id, taxonomy, lang: 'en', name, slug, description: null });
    return id++;
  };
  for (const [top, children] of CATEGORY_TREE) {
    const parent = add('category', top, 0, slugFromText(top));
    categoryIds.push(parent);
    for (const child of children) categoryIds.push(add('category', child, parent, slugFromText(child)));
  }
  for (let i = 1; i <= tags; i++) tagIds.push(add('tag', `Tag ${i}`, 0, `tag-${i}`));
  return { terms, translations, categoryIds, tagIds };
}

function record(random: Random, id: number, authorId: number, status = 'publish'): Row {
  const published = new Date(NOW - random.int(0, 3 * 365) * 86_400_000);
  return { id, author_id: authorId, status, previous_status: null, original_lang: 'en', image_id: null, published_at: utc(published), created_at: utc(published), modified_at: utc(published) };
}

export function venueRows(random: Random, startId: number, count: number, authorId: number): { venues: Row[]; translations: Row[] } {
  const venues: Row[] = [];
  const translations: Row[] = [];
  for (let i = 0; i < count; i++) {
    const id = startId + i;
    const [city, country, , lat, lng] = venueCity(id);
    const located = random.chance(0.6);
    venues.push({
      ...record(random, id, authorId),
      address: `${random.int(1, 200)} ${random.pick(NOUNS)} Street`,
      city,
      country,
      province: '',
      state: '',
      zip: String(random.int(10000, 99999)),
      phone: '',
      stateprovince: '',
      website: '',
      show_map: true,
      show_map_link: true,
      geo_lat: located ? lat + (random.next() - 0.5) / 5 : null,
      geo_lng: located ? lng + (random.next() - 0.5) / 5 : null,
    });
    const name = `${city} ${random.pick(NOUNS)} Hall ${id}`;
    translations.push({ venue_id: id, lang: 'en', name, slug: slugFromText(name), description: null });
  }
  return { venues, translations };
}

/** The city of a venue: the same for its id on every run, so that an event at the venue takes its city's time zone. */
export function venueCity(id: number): (typeof CITIES)[number] {
  return CITIES[id % CITIES.length];
}

export function organizerRows(random: Random, startId: number, count: number, authorId: number): { organizers: Row[]; translations: Row[] } {
  const organizers: Row[] = [];
  const translations: Row[] = [];
  for (let i = 0; i < count; i++) {
    const id = startId + i;
    const name = `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)} Company ${id}`;
    organizers.push({ ...record(random, id, authorId), phone: `+1 555 ${String(id).padStart(4, '0')}`, website: `https://organizer${id}.example`, email: `hello@organizer${id}.example` });
    translations.push({ organizer_id: id, lang: 'en', name, slug: slugFromText(name), description: null });
  }
  return { organizers, translations };
}

const STATUSES: [string, number][] = [
  ['publish', 0.9],
  ['draft', 0.03],
  ['pending', 0.02],
  ['private', 0.02],
  ['future', 0.01],
  ['trash', 0.02],
];

function status(random: Random): string {
  let roll = random.next();
  for (const [name, share] of STATUSES) {
    if (roll < share) return name;
    roll -= share;
  }
  return 'publish';
}

export interface EventBatch {
  events: Row[];
  translations: Row[];
  venues: Row[];
  organizers: Row[];
  terms: Row[];
}

/**
 * The same batch with its events numbered from `firstId` (their ids, and their links', texts' and series' references
 * to them, moved alike): a batch made before its transaction, written on the ids that are next when it runs. Its
 * texts keep the numbers they were made with.
 */
export function movedTo(batch: EventBatch, firstId: number): EventBatch {
  const shift = firstId - Number(batch.events[0]?.['id'] ?? firstId);
  if (shift === 0) return batch;
  const moved = (row: Row, keys: string[]): Row => ({ ...row, ...Object.fromEntries(keys.filter((key) => row[key]).map((key) => [key, Number(row[key]) + shift])) });
  return {
    events: batch.events.map((row) => moved(row, ['id', 'post_parent', 'series_id'])),
    translations: batch.translations.map((row) => moved(row, ['event_id'])),
    venues: batch.venues.map((row) => moved(row, ['event_id'])),
    organizers: batch.organizers.map((row) => moved(row, ['event_id'])),
    terms: batch.terms.map((row) => moved(row, ['event_id'])),
  };
}

export interface EventContext {
  authorIds: number[];
  venueIds: [number, number];
  organizerIds: [number, number];
  categoryIds: number[];
  tagIds: number[];
}

/** One series in about fifty events: weekly or monthly, of 3 to 10 occurrences (about one event in ten is in a series). */
const SERIES_SHARE = 0.02;
const SERIES_RULES = ['RRULE:FREQ=WEEKLY;COUNT=%', 'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=%', 'RRULE:FREQ=MONTHLY;COUNT=%'];
/** Occurrences are written two years ahead of the seed's day, as the service writes them (SPEC §13). */
const HORIZON_END = new Date(NOW + 2 * 365 * 86_400_000);

/**
 * Events `from` .. `to` - 1 (ids `startId + n`), spread from three years back to three years ahead; some are the
 * heads of series whose occurrences (each an event of its own, as the service writes them) follow them.
 */
export function eventBatch(random: Random, startId: number, from: number, to: number, context: EventContext): EventBatch {
  const batch: EventBatch = { events: [], translations: [], venues: [], organizers: [], terms: [] };
  for (let n = from; n < to; n++) {
    const id = startId + n;
    // An event at a venue is in its city's time zone, and starts between 8:00 and 21:00 there.
    const venueId = random.chance(0.85) ? random.int(...context.venueIds) : null;
    const [, , zone] = venueId === null ? random.pick(CITIES) : venueCity(venueId);
    const startMs = DateTime.fromMillis(NOW, { zone }).plus({ days: random.int(-3 * 365, 3 * 365) }).set({ hour: random.int(8, 21), minute: 0, second: 0, millisecond: 0 }).toMillis();
    const allDay = random.chance(0.05);
    const endMs = startMs + (allDay ? random.int(0, 2) * 86_400_000 : random.int(1, 4) * 3_600_000);
    const adjective = random.pick(ADJECTIVES);
    const noun = random.int(0, NOUNS.length - 1);
    const title = `${adjective} ${NOUNS[noun]} ${id}`;
    const cost = random.chance(0.3) ? 'Free' : random.chance(0.5) ? `$${random.int(5, 80)}` : `${random.int(5, 60)} €`;
    const event: Row = {
      ...record(random, id, random.pick(context.authorIds), status(random)),
      timezone: zone,
      all_day: allDay,
      start_utc: utc(new Date(startMs)),
      end_utc: utc(new Date(endMs)),
      cost,
      website: '',
      show_map: true,
      show_map_link: true,
      hide_from_listings: random.chance(0.02),
      sticky: random.chance(0.01),
      featured: random.chance(0.05),
      post_parent: 0,
      password_hash: random.chance(0.01) ? 'c2VlZA==:c2VlZHNlZWRzZWVkc2VlZHNlZWRzZWVkc2VlZHNlZWQ=' : null,
      recurrence: null,
      series_id: null,
      recurrence_start: null,
      detached: null,
      series_trashed: false,
      materialized_until: null,
    };
    const translations: Row[] = [{ event_id: id, lang: 'en', name: title, slug: slugFromText(title), description: `<p>${title}: an event of the seeded calendar.</p>`, excerpt: null }];
    if (random.chance(0.3)) {
      const name = `${FRENCH_NOUNS[noun]} ${id}`;
      translations.push({ event_id: id, lang: 'fr', name, slug: slugFromText(name), description: `<p>${name}</p>`, excerpt: null });
    }
    if (random.chance(0.1)) {
      const name = `${CHINESE_NOUNS[noun]} ${id}`;
      translations.push({ event_id: id, lang: 'zh-hans', name, slug: `${slugFromText(name)}`, description: null, excerpt: null });
    }
    const venues: Row[] = [];
    const organizers: Row[] = [];
    const terms: Row[] = [];
    if (venueId !== null) venues.push({ event_id: id, venue_id: venueId, position: 0 });
    const first = random.int(...context.organizerIds);
    organizers.push({ event_id: id, organizer_id: first, position: 0 });
    if (random.chance(0.3) && first < context.organizerIds[1]) organizers.push({ event_id: id, organizer_id: first + 1, position: 1 });
    const termIds = new Set<number>([random.pick(context.categoryIds)]);
    for (let k = random.int(0, 3); k > 0; k--) termIds.add(random.pick(context.tagIds));
    [...termIds].forEach((term_id, position) => terms.push({ event_id: id, term_id, position }));

    // A series: its occurrences take the next ids of the batch, as many as fit.
    const occurrences = random.chance(SERIES_SHARE) ? Math.min(random.int(3, 10), to - n) : 1;
    let starts: Date[] = [new Date(startMs)];
    if (occurrences > 1) {
      const rule = random.pick(SERIES_RULES).replace('%', String(occurrences));
      const series = occurrenceStarts([rule], { start: new Date(startMs), zone: eventZone(zone) }, HORIZON_END);
      starts = series.starts;
      Object.assign(event, { recurrence: rule, materialized_until: series.next ? utc(series.next) : null });
    }
    starts.forEach((start, index) => {
      const own = id + index;
      const day = DateTime.fromJSDate(start, { zone: eventZone(zone).zone }).toISODate();
      const end = DateTime.fromJSDate(start, { zone: eventZone(zone).zone }).plus(DateTime.fromMillis(endMs).diff(DateTime.fromMillis(startMs))).toJSDate();
      const occurrence = index === 0 ? {} : { post_parent: id, series_id: id, recurrence_start: utc(start), start_utc: utc(start), end_utc: utc(end), materialized_until: null };
      batch.events.push({ ...event, id: own, ...occurrence });
      for (const text of translations) batch.translations.push({ ...text, event_id: own, slug: index === 0 ? text['slug'] : `${text['slug']}-${day}` });
      for (const [target, rows] of [[batch.venues, venues], [batch.organizers, organizers], [batch.terms, terms]] as const) for (const row of rows) target.push({ ...row, event_id: own });
    });
    n += starts.length - 1;
  }
  return batch;
}
