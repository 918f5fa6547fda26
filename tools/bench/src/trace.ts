import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeCoverage } from 'node:v8';
import { TokenService, UserService } from '@calendar/shared/auth';
import { loadConfig } from '@calendar/shared/config';
import { createLogger } from '@calendar/shared/http';
// The application as main.ts composes it; this tool runs it from the sources.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApp } from '../../../apps/api/src/bootstrap';

/*
 * Which of the project's files one request passes through: `npm run trace` starts the application from its sources
 * on an in-memory SQLite database, writes a little data, then sends each traced request once through Fastify's
 * `inject` and lists the source files whose functions ran for it (V8's precise coverage, reset just before the
 * request and read just after). Files run only at start-up (module set-up, decorators) are not counted.
 */

const ROOT = join(__dirname, '../../..');
const NS = '/wp-json/calendar/events/v1';

interface Traced {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  body?: Record<string, unknown>;
}

/** The files of the workspace (apps, libs) any of whose functions ran since the last call. */
function filesRun(folder: string): string[] {
  takeCoverage();
  const newest = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(folder, name))
    .sort()
    .pop() as string;
  const coverage = JSON.parse(readFileSync(newest, 'utf8')) as { result: { url: string; functions: { ranges: { count: number }[] }[] }[] };
  rmSync(newest);
  const files = new Set<string>();
  for (const script of coverage.result) {
    if (!script.url.startsWith('file://')) continue;
    const path = relative(ROOT, fileURLToPath(script.url));
    if (!/^(apps|libs)\//.test(path) || path.includes('node_modules')) continue;
    if (script.functions.some((fn) => fn.ranges[0]?.count > 0)) files.add(path);
  }
  return [...files].sort();
}

async function main(): Promise<void> {
  const folder = process.env['NODE_V8_COVERAGE'];
  if (!folder) {
    // Coverage is collected only when the process starts with it: start again with it on.
    const dir = mkdtempSync(join(tmpdir(), 'calendar-trace-'));
    const run = spawnSync(process.execPath, [...process.execArgv, __filename, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, NODE_V8_COVERAGE: dir } });
    rmSync(dir, { recursive: true, force: true });
    process.exitCode = run.status ?? 1;
    return;
  }
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const app = await createApp(config, createLogger('silent'));
  await app.getHttpAdapter().getInstance().ready();
  const user = await app.get(UserService).create('trace-editor', 'editor');
  const token = await app.get(TokenService).issue(user);
  const send = (traced: Omit<Traced, 'name'>) =>
    app.inject({
      method: traced.method,
      url: traced.url,
      headers: { host: '127.0.0.1:3000', ...(traced.body ? { authorization: `Bearer ${token}`, 'content-type': 'application/json' } : {}) },
      payload: traced.body ? JSON.stringify(traced.body) : undefined,
    });
  // Data for the reads, and one of each write first so that what runs once per process is not counted.
  await send({ method: 'POST', url: `${NS}/events`, body: { title: 'Warm-up', start_date: '2027-03-02 19:00', end_date: '2027-03-02 21:00', categories: ['Jazz'], recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] } });
  await send({ method: 'GET', url: `${NS}/events?categories=jazz&start_date=2027-01-01` });
  const traced: Traced[] = [
    { name: 'GET /events?categories=x', method: 'GET', url: `${NS}/events?categories=jazz` },
    {
      name: 'POST /events with a recurrence',
      method: 'POST',
      url: `${NS}/events`,
      body: { title: 'Weekly jazz', start_date: '2027-03-04 19:00', end_date: '2027-03-04 21:00', categories: ['Jazz'], recurrence: ['RRULE:FREQ=WEEKLY;COUNT=10'] },
    },
  ];
  const only = process.argv[2];
  for (const request of traced.filter((item) => !only || item.name.includes(only))) {
    filesRun(folder);
    const answer = await send(request);
    const files = filesRun(folder);
    process.stdout.write(`${request.name} → ${answer.statusCode}: ${files.length} files\n${files.map((file) => `  ${file}`).join('\n')}\n`);
  }
  await app.close();
}

main().catch((error: Error) => {
  process.stderr.write(`trace failed: ${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
