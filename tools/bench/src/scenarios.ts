import { Random } from '@calendar/shared/testing';

/*
 * What the benchmark asks for. Scenarios of SPEC §10 repeat one URL (what the response cache serves); those of
 * §10.1 send every request to a URL not asked before, or with credentials, or between writes, so that each
 * answer is computed; those of §10.2 draw every list from the whole query space that section names.
 */

export const NAMESPACE = '/wp-json/calendar/events/v1';

/** One request as autocannon sends it. */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  /** The SPEC section whose budget applies: `10` (cached), `10.1` (computed) or `10.2` (any query). */
  section: '10' | '10.1' | '10.2';
  /** What is asked, as shown in the report. */
  shown: string;
  /** The n-th request of the run. */
  next(n: number): BenchRequest;
  /** Runs against the embedded SQLite database instead of DATABASE_URL. */
  sqlite?: boolean;
  /** The budget of the SPEC for it, where there is one. */
  budget?: Budget;
}

export interface Budget {
  /** SPEC §10 and §10.1, on the reference machine. */
  requestsPerSecond?: number;
  /** Where the SPEC or the issue sets one. */
  p99?: number;
  /** SPEC §10.2: the least fraction of the run's ceiling (a plain Node.js server), on any machine. */
  share?: number;
}

/** What the seeded data offers to ask for, read from the running service before the runs. */
export interface BenchData {
  eventIds: number[];
  /** Slugs of published events without a password (their public pages). */
  eventSlugs: string[];
  venueId: number;
  categoryIds: number[];
  /** Up to 100 of each, for the lists drawn from the whole query space (SPEC §10.2). */
  tagIds: number[];
  venueIds: number[];
  organizerIds: number[];
  /** An editor's token, for the scenarios with credentials and the writes. */
  editorToken: string;
}

/** Words of the seeded titles (tools/seed). */
const SEARCH_WORDS = ['festival', 'concert', 'market', 'workshop', 'jazz', 'summer', 'tour', 'tasting', 'recital', 'fair', 'party', 'session'];
/** Cities of the seeded venues (tools/seed). */
const POINTS: [number, number][] = [
  [48.8566, 2.3522],
  [45.764, 4.8357],
  [40.7128, -74.006],
  [42.3601, -71.0589],
  [31.2304, 121.4737],
  [-33.8688, 151.2093],
  [51.5072, -0.1276],
  [22.3193, 114.1694],
];

function monthWindow(index: number, firstYear: number): string {
  const year = firstYear + Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `start_date=${year}-${pad(month)}-01&end_date=${year}-${pad(month)}-${pad(last)}`;
}

/**
 * The varied list of SPEC §10.1, a different URL for every `n`: pages 1–200 of the default list, one-month
 * windows over three years, one category, one search word, a geo radius, in turn. `run` keeps URLs of
 * different runs apart (an ignored parameter), so that no answer of an earlier run is cached.
 */
export function variedList(n: number, data: Pick<BenchData, 'categoryIds'>, run: string, firstYear = new Date().getUTCFullYear()): string {
  const kind = n % 5;
  const step = Math.floor(n / 5);
  const query = [
    () => `page=${(step % 200) + 1}`,
    () => monthWindow(step % 36, firstYear),
    () => `categories=${data.categoryIds[step % data.categoryIds.length]}`,
    () => `search=${SEARCH_WORDS[step % SEARCH_WORDS.length]}`,
    () => {
      const [lat, lng] = POINTS[step % POINTS.length];
      return `geoloc_lat=${lat}&geoloc_lng=${lng}&geoloc_radius=${10 + (step % 40)}`;
    },
  ][kind]();
  return `${NAMESPACE}/events?${query}&bench=${run}-${n}`;
}

/**
 * The varied lists as calendar feeds of 100 events: the same filters in turn, with pages 1–20, so that pages reach
 * the same offsets (up to 2,000 events) as the varied lists of 10.
 */
export function variedFeed(n: number, data: Pick<BenchData, 'categoryIds'>, run: string): string {
  const query = variedList(n, data, run).split('?')[1].replace(/^page=(\d+)/, (_match, page: string) => `page=${((Number(page) - 1) % 20) + 1}`);
  return `${NAMESPACE}/events/ics?per_page=100&${query}`;
}

/** The filters of SPEC §10.2's query space, each drawn with a value the seeded calendar has. */
const FILTERS: ((random: Random, data: AnyQueryData) => string)[] = [
  (random, data) => `categories=${random.pick(data.categoryIds)}`,
  (random, data) => `tags=${random.pick(data.tagIds)}`,
  (random, data) => `venue=${random.pick(data.venueIds)}`,
  (random, data) => `organizer=${random.pick(data.organizerIds)}`,
  (random) => `featured=${random.chance(0.5) ? 'true' : 'false'}`,
  (random) => `search=${random.pick(SEARCH_WORDS)}`,
  (random) => {
    const [lat, lng] = random.pick(POINTS);
    return `geoloc_lat=${lat}&geoloc_lng=${lng}&geoloc_radius=${random.int(5, 100)}`;
  },
];

export type AnyQueryData = Pick<BenchData, 'categoryIds' | 'tagIds' | 'venueIds' | 'organizerIds'>;

/** The ids `anyQuery` draws from, read from a running service (the first 100 of each kind). */
export async function anyQueryData(base: string): Promise<AnyQueryData> {
  const ids = async (path: string): Promise<number[]> => ((await (await fetch(`${base}${NAMESPACE}/${path}?per_page=100`)).json()) as Record<string, { id: number }[]>)[path].map((record) => record.id);
  return { venueIds: await ids('venues'), organizerIds: await ids('organizers'), categoryIds: await ids('categories'), tagIds: await ids('tags') };
}

/**
 * The published events that need no password, with their slugs: those of the first 20 list pages of 100 over every
 * date (a protected event is listed with its description blanked; every seeded one has a description).
 */
export async function publishedEvents(base: string): Promise<Pick<BenchData, 'eventIds' | 'eventSlugs'>> {
  const eventIds: number[] = [];
  const eventSlugs: string[] = [];
  for (let page = 1; page <= 20; page += 1) {
    const response = await fetch(`${base}${NAMESPACE}/events?per_page=100&page=${page}&start_date=2000-01-01&end_date=2100-01-01`);
    if (!response.ok) throw new Error(`the event list's page ${page} answered ${response.status}`);
    const list = (await response.json()) as { events: { id: number; slug: string; description: string }[]; next_rest_url?: string };
    for (const event of list.events) {
      if (event.description === '') continue;
      eventIds.push(event.id);
      eventSlugs.push(event.slug);
    }
    if (!list.next_rest_url) break;
  }
  return { eventIds, eventSlugs };
}

/**
 * An event list drawn from the whole query space of SPEC §10.2, the same for the same `seed` and `n`: a window of
 * 1–90 days from any day of the three years from `firstYear`, `per_page` 5–50, page 1 or (half the time) 2–4, and
 * none, one or two different filters. A drawn page may lie past the last one (a 404 answer, which the bench counts
 * apart). `run` keeps the URLs of different runs apart.
 */
export function anyQuery(seed: number, n: number, data: AnyQueryData, run: string, firstYear = new Date().getUTCFullYear()): string {
  const random = new Random((seed ^ Math.imul(n + 1, 0x9e3779b1)) >>> 0);
  const day = (offset: number) => new Date(Date.UTC(firstYear, 0, 1 + offset)).toISOString().slice(0, 10);
  const first = random.int(0, 3 * 365 - 1);
  const query = [`start_date=${day(first)}`, `end_date=${day(first + random.int(1, 90) - 1)}`, `per_page=${random.int(5, 50)}`];
  if (random.chance(0.5)) query.push(`page=${random.int(2, 4)}`);
  const filters = [...FILTERS];
  for (let count = random.int(0, 2); count > 0; count -= 1) query.push(filters.splice(random.int(0, filters.length - 1), 1)[0](random, data));
  return `${NAMESPACE}/events?${query.join('&')}&bench=${run}-${n}`;
}

/** The kinds of list `anyQuery` draws, by their filters: none, one of them (by its parameter), or two. */
export const ANY_QUERY_KINDS = ['none', 'categories', 'tags', 'venue', 'organizer', 'featured', 'search', 'geoloc', 'two'] as const;
export type AnyQueryKind = (typeof ANY_QUERY_KINDS)[number];

/** The kind of a list drawn by `anyQuery`. */
export function anyQueryKind(path: string): AnyQueryKind {
  const filters = drawnFilters(path);
  return filters.length === 0 ? 'none' : filters.length === 1 ? filters[0] : 'two';
}

/** The two filters of a list `anyQuery` drew with two (`categories+search`, in ANY_QUERY_KINDS' order), else null. */
export function anyQueryPair(path: string): string | null {
  const filters = drawnFilters(path);
  return filters.length === 2 ? filters.join('+') : null;
}

/** The filters a drawn list holds, by their parameter, in ANY_QUERY_KINDS' order. */
function drawnFilters(path: string): AnyQueryKind[] {
  const names = new URLSearchParams(path.split('?')[1] ?? '');
  return ANY_QUERY_KINDS.filter((kind) => names.has(kind === 'geoloc' ? 'geoloc_lat' : kind));
}

/** The first `count` lists of one kind that `anyQuery` draws with a seed: the cost of one kind of list apart from the others. */
export function anyQueriesOfKind(kind: AnyQueryKind, seed: number, count: number, data: AnyQueryData, run: string): string[] {
  const paths: string[] = [];
  for (let n = 0; paths.length < count; n += 1) {
    const path = anyQuery(seed, n, data, run);
    if (anyQueryKind(path) === kind) paths.push(path);
  }
  return paths;
}

/** A new event for the write part of the mixed scenario (in `categories`, when given). */
export function newEvent(n: number, run: string, categories: number[] = []): string {
  const day = 1 + (n % 28);
  const month = 1 + (Math.floor(n / 28) % 12);
  const date = `${new Date().getUTCFullYear() + 1}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return JSON.stringify({ title: `Bench ${run} ${n}`, start_date: `${date} 19:00`, end_date: `${date} 21:00`, categories, status: 'publish' });
}

/**
 * Every scenario of a run. `seed` draws the lists of SPEC §10.2 (the bench gives a new one each run unless one is
 * asked for).
 */
export function scenarios(data: BenchData, run: string, seed = 1): Scenario[] {
  const get = (path: string, headers?: Record<string, string>): BenchRequest => ({ method: 'GET', path, headers });
  const editor = { authorization: `Bearer ${data.editorToken}` };
  const list = { requestsPerSecond: 2000, p99: 25 };
  const fixed = (name: string, path: string, budget?: Budget): Scenario => ({ name, section: '10', shown: path, budget, next: () => get(path) });
  const firstId = data.eventIds[0];
  return [
    fixed('Event list (default)', `${NAMESPACE}/events?per_page=10`, { ...list, share: 0.2 }),
    fixed('Event list, date window', `${NAMESPACE}/events?start_date=2027-01-01&end_date=2027-03-31`, list),
    fixed('Event list, category', `${NAMESPACE}/events?categories=${data.categoryIds[0]}`, list),
    fixed('Event list, venue', `${NAMESPACE}/events?venue=${data.venueId}`, list),
    fixed('Event list, search', `${NAMESPACE}/events?search=festival`, list),
    fixed('Event list, geo', `${NAMESPACE}/events?geoloc_lat=48.8566&geoloc_lng=2.3522&geoloc_radius=25`, list),
    fixed('Single event', `${NAMESPACE}/events/${firstId}`, { requestsPerSecond: 4000, p99: 15, share: 0.35 }),
    fixed('Venue list', `${NAMESPACE}/venues`),
    fixed('Category list', `${NAMESPACE}/categories`),
    fixed('Event list (default), French', `/fr${NAMESPACE}/events?per_page=10`, list),
    fixed('Event list, date window, French', `/fr${NAMESPACE}/events?start_date=2027-01-01&end_date=2027-03-31`, list),
    fixed('Calendar feed, 100 events', `${NAMESPACE}/events/ics?per_page=100`, { requestsPerSecond: 1000 }),
    fixed('Month page', `/events/month/${new Date().getUTCFullYear() + 1}-03/`, { requestsPerSecond: 1500 }),
    fixed('Event page', `/event/${data.eventSlugs[0]}/`, { requestsPerSecond: 1500 }),
    {
      name: 'Varied lists, anonymous',
      section: '10.1',
      shown: 'pages 1–200, month windows, a category, a search word, a geo radius; every URL new',
      budget: { requestsPerSecond: 400, p99: 100 },
      next: (n) => get(variedList(n, data, run)),
    },
    {
      name: 'Varied lists, editor token',
      section: '10.1',
      shown: 'the same lists with `Authorization: Bearer <editor>`',
      budget: { requestsPerSecond: 300, p99: 100 },
      next: (n) => get(variedList(n, data, `${run}t`), editor),
    },
    {
      name: 'Single events, never cached',
      section: '10.1',
      shown: '`/events/{id}` over the published events, every URL new',
      budget: { requestsPerSecond: 1500, p99: 30, share: 0.15 },
      next: (n) => get(`${NAMESPACE}/events/${data.eventIds[(n * 7919) % data.eventIds.length]}?bench=${run}-${n}`),
    },
    {
      name: 'Calendar feeds of 100 events, never cached',
      section: '10.1',
      shown: 'the varied lists as feeds of 100 events: pages 1–20 (the list scenario\'s offsets), month windows, a category, a search word, a geo radius; every URL new',
      budget: { requestsPerSecond: 150 },
      next: (n) => get(variedFeed(n, data, `${run}f`)),
    },
    {
      name: 'Month pages, never cached',
      section: '10.1',
      shown: '`/events/month/YYYY-MM/` over three years of months, every URL new',
      budget: { requestsPerSecond: 200 },
      next: (n) => {
        const year = new Date().getUTCFullYear() + Math.floor((n % 36) / 12);
        return get(`/events/month/${year}-${String((n % 12) + 1).padStart(2, '0')}/?bench=${run}-${n}`);
      },
    },
    {
      name: 'Event pages, never cached',
      section: '10.1',
      shown: '`/event/{slug}/` over the published events, every URL new',
      budget: { requestsPerSecond: 200 },
      next: (n) => get(`/event/${data.eventSlugs[(n * 7919) % data.eventSlugs.length]}/?bench=${run}-${n}`),
    },
    {
      name: 'Mixed: 90 % reads, 10 % creates',
      section: '10.1',
      shown: 'half the default list, half varied lists; every tenth request an editor creates an event',
      budget: { requestsPerSecond: 500, p99: 150 },
      next: (n) => {
        if (n % 10 === 9) return { method: 'POST', path: `${NAMESPACE}/events`, headers: { ...editor, 'content-type': 'application/json' }, body: newEvent(n, run) };
        return get(n % 2 === 0 ? `${NAMESPACE}/events?per_page=10` : variedList(n, data, `${run}m`));
      },
    },
    {
      name: 'Varied lists, anonymous, SQLite',
      section: '10.1',
      shown: 'the varied lists on the embedded SQLite database',
      budget: { requestsPerSecond: 300, p99: 100 },
      sqlite: true,
      next: (n) => get(variedList(n, data, `${run}s`)),
    },
    {
      name: 'Lists, any query, anonymous',
      section: '10.2',
      shown: `a window of 1–90 days from any day of three years, per_page 5–50, page 1–4, none, one or two filters (seed ${seed})`,
      budget: { share: 0.04, p99: 100 },
      next: (n) => get(anyQuery(seed, n, data, `${run}q`)),
    },
    {
      name: 'Lists, any query, editor token',
      section: '10.2',
      shown: 'the same lists with `Authorization: Bearer <editor>`',
      budget: { share: 0.03, p99: 100 },
      next: (n) => get(anyQuery(seed, n, data, `${run}qt`), editor),
    },
    {
      // SPEC §10.2's row "90 % such reads, 10 % creates" follows "Single events never cached": those are its reads.
      name: 'Mixed, single events: 90 % never-cached reads, 10 % creates',
      section: '10.2',
      shown: '`/events/{id}` over the published events, every URL new; every tenth request an editor creates an event',
      budget: { share: 0.05, p99: 150 },
      next: (n) => {
        if (n % 10 === 9) return { method: 'POST', path: `${NAMESPACE}/events`, headers: { ...editor, 'content-type': 'application/json' }, body: newEvent(n, `${run}e`) };
        return get(`${NAMESPACE}/events/${data.eventIds[(n * 7919) % data.eventIds.length]}?bench=${run}-e${n}`);
      },
    },
    {
      name: 'Mixed, any query: 90 % reads, 10 % creates',
      section: '10.2',
      shown: 'the lists of any query; every tenth request an editor creates an event (reported only: the reads of §10.2\'s mixed share are single events)',
      next: (n) => {
        if (n % 10 === 9) return { method: 'POST', path: `${NAMESPACE}/events`, headers: { ...editor, 'content-type': 'application/json' }, body: newEvent(n, `${run}q`) };
        return get(anyQuery(seed, n, data, `${run}qm`));
      },
    },
    {
      name: 'Lists, any query, SQLite',
      section: '10.2',
      shown: 'the lists of any query on the embedded SQLite database',
      budget: { share: 0.03, p99: 100 },
      sqlite: true,
      next: (n) => get(anyQuery(seed, n, data, `${run}qs`)),
    },
  ];
}
