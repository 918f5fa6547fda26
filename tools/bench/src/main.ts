import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@calendar/shared/config';
import { buildDataSourceOptions } from '@calendar/shared/database';
import { rssMb, startBuiltService } from '@calendar/shared/testing';
import { DataSource } from 'typeorm';
import autocannon from 'autocannon';
import { randomInt } from 'node:crypto';
import { measureCeiling } from './ceiling';
import { renderChart, renderShareChart } from './chart';
import { HistoryEntry, historyEntry, renderJournal, renderStatus, renderTable, ScenarioResult, SeriesWrites, withStatus } from './report';
import { BenchData, NAMESPACE, publishedEvents, Scenario, scenarios } from './scenarios';
import { waitUntilSettled } from './settle';

/*
 * `npm run bench`: starts the built service on DATABASE_URL (MySQL, seeded with `npm run seed`) as `npm start`
 * starts it, drives it from this separate process with autocannon, and records req/s, p50, p99 and the service's
 * peak RSS per scenario: the cached scenarios of SPEC §10 and the computed ones of §10.1, the last of them on an
 * embedded SQLite database seeded alike (`--sqlite`). Prints a table, adds the run to docs/benchmarks.json, writes
 * the journal docs/benchmarks-runs.md and the chart docs/benchmarks.svg from every recorded run, and makes a full
 * run the status of docs/benchmarks.md.
 */

const ROOT = join(__dirname, '../../..');
const DOCS = join(ROOT, 'docs');
const USAGE = `npm run bench -- [--duration S] [--warmup S] [--connections N] [--only TEXT] [--label TEXT] [--seed N] [--sqlite URL] [--no-sqlite] [--no-write] [--main <bundle> (with --no-write)]`;

/** Settings of the service that change what is measured; the run's command shows those that were set. */
const SERVICE_SETTINGS = ['RESPONSE_CACHE_MB', 'RENDER_CACHE_MB', 'COUNT_MEMO_ENTRIES', 'FRAGMENT_CACHE_MB', 'PAGE_WALK_ROWS'];

/** The database server's name and version, as the local client reports it. */
function serverVersion(): string {
  try {
    const text = execFileSync('mysql', ['--version']).toString();
    return /Distrib ([^\s,]+)/.exec(text)?.[1] ?? /Ver ([^\s,]+)/.exec(text)?.[1] ?? 'MySQL';
  } catch {
    return 'MySQL';
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function json(base: string, path: string, token?: string): Promise<any> {
  const response = await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return response.json();
}

/** Runs a tool of the workspace (the CLI, the seed) on a database, and gives its standard output. */
function tool(script: string, args: string[], databaseUrl: string): string {
  return execFileSync(process.execPath, ['-r', '@swc-node/register', script, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
}

/** A new editor on that database, and its token. */
function editorToken(databaseUrl: string, run: string): string {
  const created = JSON.parse(tool('tools/cli/src/main.ts', ['users:create', '--login', `bench-editor-${run}`, '--role', 'editor'], databaseUrl));
  return created.token;
}

/** What the scenarios ask for: published events that need no password, a venue, the categories. */
async function benchData(base: string, token: string): Promise<BenchData> {
  const { eventIds, eventSlugs } = await publishedEvents(base);
  const ids = async (path: string, key: string): Promise<number[]> => (await json(base, `${NAMESPACE}/${path}?per_page=100`))[key].map((record: { id: number }) => record.id);
  const [venueIds, organizerIds, categoryIds, tagIds] = [await ids('venues', 'venues'), await ids('organizers', 'organizers'), await ids('categories', 'categories'), await ids('tags', 'tags')];
  if (eventIds.length === 0 || [venueIds, organizerIds, categoryIds, tagIds].some((list) => list.length === 0)) throw new Error('the database holds no seeded calendar: run `npm run seed` first');
  return { eventIds, eventSlugs, venueId: venueIds[0], venueIds, organizerIds, categoryIds, tagIds, editorToken: token };
}

interface Load {
  connections: number;
  duration: number;
  warmup: number;
}

/** Drives one scenario; `pastLastPage` counts the 404s that say a drawn page lies past the last one. */
async function drive(base: string, scenario: Scenario, seconds: number, connections: number, offset: number): Promise<{ result: autocannon.Result; pastLastPage: number }> {
  let n = offset;
  let pastLastPage = 0;
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          const next = scenario.next(n++);
          return { ...request, method: next.method, path: next.path, headers: { ...(next.headers ?? {}) }, body: next.body };
        },
        onResponse: (status, body) => {
          if (status === 404 && body.includes('"event-archive-page-not-found"')) pastLastPage += 1;
        },
      },
    ],
  });
  return { result, pastLastPage };
}

/**
 * Creates daily series over two years (SPEC §13: 730 occurrences and the head, in one transaction, under 2 s on
 * MySQL) one after the other, timing each create from outside, then trashes each series with its head.
 */
async function seriesWrites(base: string, data: BenchData, run: string): Promise<SeriesWrites> {
  const headers = { authorization: `Bearer ${data.editorToken}`, 'content-type': 'application/json' };
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const result: SeriesWrites = { occurrences: 0, ms: [] };
  for (let index = 0; index < 3; index += 1) {
    const body = { title: `Bench daily class ${run} ${index}`, start_date: `${tomorrow} 07:00`, end_date: `${tomorrow} 08:00`, categories: [data.categoryIds[0]], venue: data.venueId, recurrence: ['RRULE:FREQ=DAILY'] };
    const started = performance.now();
    const created = await fetch(`${base}${NAMESPACE}/events`, { method: 'POST', headers, body: JSON.stringify(body) });
    result.ms.push(Math.round(performance.now() - started));
    if (created.status !== 201) throw new Error(`creating a series answered ${created.status}: ${await created.text()}`);
    const head = (await created.json()) as { id: number };
    result.occurrences = (await json(base, `${NAMESPACE}/events?post_parent=${head.id}&per_page=1&start_date=2000-01-01&end_date=2100-01-01`)).total;
    const trashed = await fetch(`${base}${NAMESPACE}/events/${head.id}`, { method: 'DELETE', headers: { authorization: headers.authorization } });
    if (trashed.status !== 200) throw new Error(`trashing a series answered ${trashed.status}`);
  }
  return result;
}

/** Starts the service on one database and measures the scenarios on it (and, with `series`, the series writes). */
async function measure(
  databaseUrl: string,
  chosen: (data: BenchData) => Scenario[],
  load: Load,
  run: string,
  port: number,
  options: { series?: boolean; ceiling?: boolean; main?: string } = {},
): Promise<{ results: ScenarioResult[]; peak: number; total: number; database: string; series?: SeriesWrites; ceiling?: number }> {
  const token = editorToken(databaseUrl, run);
  const server = await startBuiltService({ DATABASE_URL: databaseUrl, LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' }, { port, main: options.main });
  let peak = 0;
  let scenarioPeak = 0;
  const sampler = setInterval(() => {
    const rss = rssMb(server.process.pid as number);
    peak = Math.max(peak, rss);
    scenarioPeak = Math.max(scenarioPeak, rss);
  }, 100);
  const results: ScenarioResult[] = [];
  try {
    await waitUntilSettled(databaseUrl);
    const data = await benchData(server.base, token);
    // First the ceiling of SPEC §10.2, while the service waits: every share of this run is a share of it.
    const ceiling = options.ceiling ? await measureCeiling(server.base, load) : undefined;
    if (ceiling) process.stderr.write(`Ceiling (a plain Node.js server sending the default list's bytes): ${Math.round(ceiling)} req/s\n`);
    for (const scenario of chosen(data)) {
      scenarioPeak = 0;
      // Warm-up: JIT compilation and connection set-up are not part of the measurement; its URLs are not the run's.
      await drive(server.base, scenario, load.warmup, load.connections, 10_000_000);
      const { result, pastLastPage } = await drive(server.base, scenario, load.duration, load.connections, 0);
      const figures: ScenarioResult = {
        name: scenario.name,
        section: scenario.section,
        shown: scenario.shown,
        budget: scenario.budget,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.non2xx - pastLastPage + result.errors,
        peakRssMb: scenarioPeak,
        ...(pastLastPage > 0 ? { pastLastPage } : {}),
      };
      results.push(figures);
      process.stderr.write(`${scenario.name}: ${Math.round(figures.requestsPerSecond)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, non-2xx ${figures.errors}${pastLastPage ? ` (+${pastLastPage} past the last page)` : ''}, peak RSS ${figures.peakRssMb} MB\n`);
    }
    const writes = options.series ? await seriesWrites(server.base, data, run) : undefined;
    if (writes) process.stderr.write(`Daily series over two years (${writes.occurrences} occurrences): created in ${writes.ms.join(', ')} ms\n`);
    const { events, bufferPoolMb } = await databaseFacts(databaseUrl);
    return { results, peak, total: events, database: bufferPoolMb === null ? 'SQLite' : `${serverVersion()}, InnoDB buffer pool ${bufferPoolMb} MB`, series: writes, ceiling };
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
}

/**
 * Every event row of the database, whatever its status (the size the runs are measured at), and on MySQL the InnoDB
 * buffer pool's size: whether the data fits in it decides much of what is measured.
 */
async function databaseFacts(databaseUrl: string): Promise<{ events: number; bufferPoolMb: number | null }> {
  const dataSource = new DataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl }).database));
  await dataSource.initialize();
  try {
    const [row] = await dataSource.query('SELECT COUNT(*) AS n FROM events');
    if (dataSource.options.type !== 'mysql') return { events: Number(row.n), bufferPoolMb: null };
    const [pool] = await dataSource.query('SELECT @@innodb_buffer_pool_size AS bytes');
    return { events: Number(row.n), bufferPoolMb: Math.round(Number(pool.bytes) / 2 ** 20) };
  } finally {
    await dataSource.destroy();
  }
}

/** An embedded SQLite database seeded like the MySQL one (made once, kept under tmp/). */
function ensureSqlite(url: string, events: number): void {
  // The file as the service opens it: relative to the workspace, or an absolute path as given.
  const file = resolve(ROOT, url.replace(/^sqlite:/, ''));
  if (existsSync(file)) return;
  mkdirSync(dirname(file), { recursive: true });
  process.stderr.write(`Seeding ${events} events into ${url} for the SQLite scenario...\n`);
  tool('tools/seed/src/main.ts', ['--events', String(events)], url);
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      label: { type: 'string' },
      port: { type: 'string' },
      'no-write': { type: 'boolean' },
      'no-sqlite': { type: 'boolean' },
      only: { type: 'string' },
      sqlite: { type: 'string' },
      seed: { type: 'string' },
      main: { type: 'string' },
    },
    strict: true,
  });
  const load: Load = { duration: Number(values.duration ?? 10), warmup: Number(values.warmup ?? 3), connections: Number(values.connections ?? 10) };
  if (![load.duration, load.warmup, load.connections].every((value) => Number.isFinite(value) && value > 0)) throw new Error(`durations and connections are positive numbers\n${USAGE}`);
  const port = Number(values.port ?? 3310);
  // The draws of the §10.2 lists: new every run unless a seed is given (the run's command names it, to replay it).
  const seed = values.seed === undefined ? randomInt(1, 2 ** 31 - 1) : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 1) throw new Error(`--seed is a positive integer\n${USAGE}`);
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) throw new Error(`DATABASE_URL names the seeded database to measure\n${USAGE}`);
  if (!databaseUrl.startsWith('mysql')) process.stderr.write('warning: the budgets of SPEC §10 are measured on MySQL; DATABASE_URL is not a mysql:// URL\n');
  const sqliteUrl = values.sqlite ?? 'sqlite:tmp/bench/calendar-100k.sqlite';
  // `--main`: a bundle kept elsewhere (an earlier commit's build, inside the workspace so that it finds its
  // packages), for a before-and-after comparison; never recorded, since the run is not of the sources.
  if (values.main !== undefined && !values['no-write']) throw new Error(`--main measures another build: give --no-write with it\n${USAGE}`);
  const bundle = values.main === undefined ? undefined : resolve(ROOT, values.main);
  // Else always through nx: a bundle older than the sources is rebuilt, a current one comes from nx's cache.
  if (!bundle) execFileSync('npx', ['nx', 'run', 'api:build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });

  const run = Date.now().toString(36);
  // `--only text` runs the scenarios whose name contains the text (case-insensitive).
  const wanted = (scenario: Scenario) => !values.only || scenario.name.toLowerCase().includes(values.only.toLowerCase());
  const main = await measure(databaseUrl, (data) => scenarios(data, run, seed).filter((scenario) => !scenario.sqlite && wanted(scenario)), load, run, port, {
    series: !values.only || wanted({ name: 'series' } as Scenario),
    ceiling: true,
    main: bundle,
  });
  const results = [...main.results];
  let peak = main.peak;
  const none = { eventIds: [1], eventSlugs: ['a'], venueId: 1, venueIds: [1], organizerIds: [1], categoryIds: [1], tagIds: [1], editorToken: '' };
  const sqliteWanted = !values['no-sqlite'] && scenarios(none, run).some((scenario) => scenario.sqlite && wanted(scenario));
  if (sqliteWanted) {
    ensureSqlite(sqliteUrl, main.total);
    const embedded = await measure(sqliteUrl, (data) => scenarios(data, run, seed).filter((scenario) => scenario.sqlite && wanted(scenario)), load, run, port, { main: bundle });
    results.push(...embedded.results);
    peak = Math.max(peak, embedded.peak);
  }

  // Settings of the service given in the environment are part of what was measured (a run without the caches).
  const settings = SERVICE_SETTINGS.filter((name) => process.env[name] !== undefined).map((name) => `${name}=${process.env[name]}`);
  const command = [
    ...settings,
    'DATABASE_URL=<mysql url> npm run bench --',
    `--duration ${load.duration} --warmup ${load.warmup} --seed ${seed}`,
    values.only ? `--only "${values.only}"` : '',
    values.label ? `--label "${values.label}"` : '',
    values.sqlite ? `--sqlite ${values.sqlite}` : '',
    values['no-sqlite'] ? '--no-sqlite' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const info = {
    label: values.label ?? 'run',
    command,
    date: new Date().toISOString().slice(0, 10),
    database: main.database,
    events: main.total,
    machine: `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`,
    connections: load.connections,
    duration: load.duration,
    peakRssMb: peak,
    series: main.series,
    ceiling: main.ceiling,
  };
  process.stdout.write(`${renderTable(results, main.ceiling)}\nCeiling: ${Math.round(main.ceiling ?? 0)} req/s. Peak resident memory of the service: ${peak} MB\n`);
  if (values['no-write']) return;
  // The run joins the journal (benchmarks.json, rendered as benchmarks-runs.md and the chart); a full run also
  // becomes the status of the status page (a run of some scenarios, `--only`, does not).
  const historyFile = join(DOCS, 'benchmarks.json');
  const history: HistoryEntry[] = existsSync(historyFile) ? JSON.parse(readFileSync(historyFile, 'utf8')) : [];
  const entry = historyEntry(info, results);
  history.push(entry);
  writeFileSync(historyFile, `${JSON.stringify(history, null, 1)}\n`);
  writeFileSync(join(DOCS, 'benchmarks-runs.md'), renderJournal(history));
  writeFileSync(join(DOCS, 'benchmarks.svg'), renderChart(history));
  writeFileSync(join(DOCS, 'benchmarks-shares.svg'), renderShareChart(history));
  const statusPage = join(DOCS, 'benchmarks.md');
  if (!values.only && existsSync(statusPage)) writeFileSync(statusPage, withStatus(readFileSync(statusPage, 'utf8'), renderStatus(entry)));
  process.stderr.write(`Recorded in docs/benchmarks.json, docs/benchmarks-runs.md, docs/benchmarks.svg and docs/benchmarks-shares.svg${values.only ? '' : ', and as the status of docs/benchmarks.md'}\n`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`bench failed: ${error.message}\n`);
  process.exitCode = 1;
});
