import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { addRun, renderRun, ScenarioResult } from './report';

/*
 * `npm run bench`: starts the built service on DATABASE_URL (MySQL, seeded with `npm run seed`), drives it from
 * this separate process with autocannon, and records req/s, p50, p99 and the service's peak RSS per scenario in
 * docs/benchmarks.md.
 */

const ROOT = join(__dirname, '../../..');
const NAMESPACE = '/wp-json/calendar/events/v1';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** The database server's name and version, as the local client reports it. */
function serverVersion(): string {
  try {
    const text = execFileSync('mysql', ['--version']).toString();
    return /Distrib ([^\s,]+)/.exec(text)?.[1] ?? /Ver ([^\s,]+)/.exec(text)?.[1] ?? 'MySQL';
  } catch {
    return 'MySQL';
  }
}

async function json(base: string, path: string): Promise<any> {
  const response = await fetch(`${base}${path}`);
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return response.json();
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { duration: { type: 'string' }, warmup: { type: 'string' }, connections: { type: 'string' }, label: { type: 'string' }, port: { type: 'string' }, 'no-write': { type: 'boolean' }, only: { type: 'string' } },
    strict: true,
  });
  const duration = Number(values.duration ?? 10);
  const warmup = Number(values.warmup ?? 3);
  const connections = Number(values.connections ?? 10);
  const port = Number(values.port ?? 3310);
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl?.startsWith('mysql')) process.stderr.write('warning: the budgets of SPEC §10 are measured on MySQL; DATABASE_URL is not a mysql:// URL\n');
  const main = join(ROOT, 'dist/apps/api/main.js');
  if (!existsSync(main)) execFileSync('npx', ['nx', 'run', 'api:build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });

  // The service runs with the Node.js flags of `npm start`, its production command.
  const start = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  const flags = (/node ((?:--\S+ )*)dist\/apps\/api\/main\.js/.exec(start)?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
  const server: ChildProcess = spawn('node', [...flags, main], { cwd: ROOT, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid as number))), 100);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {
        /* not listening yet */
      }
      if (attempt > 300) throw new Error('the service did not become ready');
      await sleep(100);
    }
    const first = await json(base, `${NAMESPACE}/events?per_page=1`);
    const total = Number((await json(base, `${NAMESPACE}/events?per_page=1&start_date=2000-01-01&end_date=2100-01-01`)).total);
    const eventId = first.events[0]?.id;
    const venueId = (await json(base, `${NAMESPACE}/venues?per_page=1`)).venues[0]?.id;
    const categoryId = (await json(base, `${NAMESPACE}/categories?per_page=1`)).categories[0]?.id;
    const scenarios: [string, string][] = [
      ['Event list (default)', `${NAMESPACE}/events?per_page=10`],
      ['Event list, date window', `${NAMESPACE}/events?start_date=2027-01-01&end_date=2027-03-31`],
      ['Event list, category', `${NAMESPACE}/events?categories=${categoryId}`],
      ['Event list, venue', `${NAMESPACE}/events?venue=${venueId}`],
      ['Event list, search', `${NAMESPACE}/events?search=festival`],
      ['Event list, geo', `${NAMESPACE}/events?geoloc_lat=48.8566&geoloc_lng=2.3522&geoloc_radius=25`],
      ['Single event', `${NAMESPACE}/events/${eventId}`],
      ['Venue list', `${NAMESPACE}/venues`],
      ['Category list', `${NAMESPACE}/categories`],
      ['Event list (default), French', `/fr${NAMESPACE}/events?per_page=10`],
      ['Event list, date window, French', `/fr${NAMESPACE}/events?start_date=2027-01-01&end_date=2027-03-31`],
    ];
    const results: ScenarioResult[] = [];
    // `--only list` runs the scenarios whose name contains the text (case-insensitive).
    const chosen = values.only ? scenarios.filter(([name]) => name.toLowerCase().includes((values.only as string).toLowerCase())) : scenarios;
    for (const [name, path] of chosen) {
      // Warm-up: JIT compilation and the first (uncached) answer are not part of the measurement.
      await autocannon({ url: `${base}${path}`, connections, duration: warmup });
      const result = await autocannon({ url: `${base}${path}`, connections, duration });
      results.push({ name, path: path.replace(NAMESPACE, '…'), requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors });
      process.stderr.write(`${name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms\n`);
    }
    const section = renderRun(
      {
        label: values.label ?? 'run',
        command: `DATABASE_URL=<mysql url> npm run bench -- --duration ${duration} --warmup ${warmup}${values.only ? ` --only "${values.only}"` : ''}${values.label ? ` --label "${values.label}"` : ''}`,
        date: new Date().toISOString().slice(0, 10),
        database: databaseUrl?.startsWith('mysql') ? serverVersion() : 'SQLite',
        events: total,
        machine: `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`,
        connections,
        duration,
        peakRssMb: peak,
      },
      results,
    );
    process.stdout.write(`${section}\n`);
    if (!values['no-write']) {
      const file = join(ROOT, 'docs/benchmarks.md');
      writeFileSync(file, addRun(existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n<!-- runs -->\n', section));
    }
  } finally {
    clearInterval(sampler);
    server.kill('SIGTERM');
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`bench failed: ${error.message}\n`);
  process.exitCode = 1;
});
