import { parseArgs } from 'node:util';
import { ANY_QUERY_KINDS, anyQuery, anyQueryData, anyQueryKind, anyQueryPair, NAMESPACE } from './scenarios';

/*
 * `npm run bench:kinds -- [--base http://127.0.0.1:3000] [--seed 4242] [--requests 2000] [--warmup 500]
 * [--metrics-token T]`: what the lists of SPEC §10.2's query space cost a running service one at a time, by kind (no
 * filter, one named filter, or two, and each pair of two) and by how many events the answer holds. Each drawn list (the same for the same
 * seed, as `npm run bench` draws them) is sent alone, with no other request in flight: its latency is its own cost, not
 * a queue's. After each, the service's own `/metrics` give the statements it sent to the database for it and their
 * time (`calendar_db_query_duration_seconds`, timed to the millisecond: a mean over many lists holds, one list's does
 * not); what a scrape itself sends is measured first (200 in a row) and taken off. Run it against two databases (10,000 and 1,000,000
 * events, say) to see where a list at a larger size spends more, and whether its answers hold more events.
 */

/** Scrapes in a row that measure what one sends to the database. */
const SCRAPES = 200;

const USAGE = 'npm run bench:kinds -- [--base URL] [--seed N] [--requests N] [--warmup N] [--metrics-token T]';

/** One list sent: its kind, status, events in the answer, latency and the database's part of it. */
export interface KindSample {
  kind: string;
  /** The two filters of a list of two (`categories+search`). */
  pair?: string;
  status: number;
  events: number;
  ms: number;
  dbStatements: number;
  dbMs: number;
}

/** The figures of a group of lists: means per list, and the median latency. */
export interface KindFigures {
  group: string;
  lists: number;
  pastLastPage: number;
  eventsPerList: number;
  meanMs: number;
  p50Ms: number;
  dbStatementsPerList: number;
  dbMsPerList: number;
}

/** Answer sizes the lists are grouped by, besides their kind: none (past the last page or empty), a few, a full page. */
const SIZE_GROUPS: [string, number, number][] = [
  ['no event', 0, 0],
  ['1-9 events', 1, 9],
  ['10-24 events', 10, 24],
  ['25-50 events', 25, 50],
];

/** The figures of every kind drawn, of every pair of filters drawn (`two: categories+search`), of every answer size, and of all lists, in that order. */
export function kindFigures(samples: KindSample[]): KindFigures[] {
  const figures = (group: string, of: KindSample[]): KindFigures => {
    const sorted = of.map((sample) => sample.ms).sort((a, b) => a - b);
    const mean = (pick: (sample: KindSample) => number) => of.reduce((sum, sample) => sum + pick(sample), 0) / of.length;
    return {
      group,
      lists: of.length,
      pastLastPage: of.filter((sample) => sample.status === 404).length,
      eventsPerList: round(mean((sample) => sample.events)),
      meanMs: round(mean((sample) => sample.ms)),
      p50Ms: round(sorted[Math.floor((sorted.length - 1) / 2)]),
      dbStatementsPerList: round(mean((sample) => sample.dbStatements)),
      dbMsPerList: round(mean((sample) => sample.dbMs)),
    };
  };
  const kinds = ANY_QUERY_KINDS.map((kind) => figures(kind, samples.filter((sample) => sample.kind === kind)));
  const pairs = [...new Set(samples.flatMap((sample) => (sample.pair ? [sample.pair] : [])))].sort().map((pair) => figures(`two: ${pair}`, samples.filter((sample) => sample.pair === pair)));
  const sizes = SIZE_GROUPS.map(([group, least, most]) => figures(group, samples.filter((sample) => sample.events >= least && sample.events <= most)));
  return [...kinds, ...pairs, ...sizes, figures('all', samples)].filter((row) => row.lists > 0);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The sum and count of the database statements' durations, from a `/metrics` text. */
export function dbTotals(metrics: string): { count: number; seconds: number } {
  let count = 0;
  let seconds = 0;
  for (const line of metrics.split('\n')) {
    const match = /^calendar_db_query_duration_seconds_(sum|count)\{[^}]*\} (\S+)$/.exec(line);
    if (!match) continue;
    if (match[1] === 'sum') seconds += Number(match[2]);
    else count += Number(match[2]);
  }
  return { count, seconds };
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { base: { type: 'string' }, seed: { type: 'string' }, requests: { type: 'string' }, warmup: { type: 'string' }, 'metrics-token': { type: 'string' } },
    strict: true,
  });
  const base = values.base ?? 'http://127.0.0.1:3000';
  const seed = Number(values.seed ?? 4242);
  const requests = Number(values.requests ?? 2000);
  const warmup = Number(values.warmup ?? 500);
  if (![seed, requests, warmup].every((value) => Number.isSafeInteger(value) && value >= 0) || requests === 0) throw new Error(`seed, requests and warmup are whole numbers (requests above 0)\n${USAGE}`);
  const headers: Record<string, string> = values['metrics-token'] ? { authorization: `Bearer ${values['metrics-token']}` } : {};
  const scrape = async () => {
    const response = await fetch(`${base}/metrics`, { headers });
    if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status} (is METRICS_TOKEN set? pass --metrics-token)`);
    return dbTotals(await response.text());
  };
  // What a scrape itself sends to the database (its collectors), per scrape, from 200 scrapes in a row.
  const first = await scrape();
  let last = first;
  for (let n = 0; n < SCRAPES; n += 1) last = await scrape();
  const perScrape = { count: (last.count - first.count) / SCRAPES, seconds: (last.seconds - first.seconds) / SCRAPES };
  const data = await anyQueryData(base);
  const run = `k${seed}`;
  const samples: KindSample[] = [];
  for (let n = 0; n < warmup + requests; n += 1) {
    const path = anyQuery(seed, n, data, run);
    const before = n >= warmup ? await scrape() : undefined;
    const started = process.hrtime.bigint();
    const response = await fetch(`${base}${path}`);
    const body = await response.text();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!before) continue;
    const after = await scrape();
    const events = response.status === 200 ? ((JSON.parse(body) as { events?: unknown[] }).events ?? []).length : 0;
    if (response.status !== 200 && !(response.status === 404 && body.includes('"event-archive-page-not-found"'))) throw new Error(`${path} answered ${response.status}: ${body.slice(0, 200)}`);
    samples.push({ kind: anyQueryKind(path), pair: anyQueryPair(path) ?? undefined, status: response.status, events, ms, dbStatements: after.count - before.count - perScrape.count, dbMs: (after.seconds - before.seconds - perScrape.seconds) * 1000 });
  }
  process.stdout.write(`${JSON.stringify({ base, seed, requests, warmup, namespace: NAMESPACE, perScrape, figures: kindFigures(samples) }, null, 1)}\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
