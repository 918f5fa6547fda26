import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { rssMb, startBuiltService } from '@calendar/shared/testing';
import { measureCeiling } from './ceiling';
import { NAMESPACE } from './scenarios';
import { waitUntilSettled } from './settle';

/*
 * `DATABASE_URL=<mysql url> npm run bench:sync [-- --duration 10 --warmup 3 --connections 10 --main <bundle>]` measures sync
 * (SPEC §16.2) on a seeded database with the bundle `npm start` runs:
 * 1. a full sync of every event an anonymous client sees, at per_page=1000, timed from the first page to the token,
 *    with the service's resident memory sampled every 100 ms (§10: ≤ 250 MB);
 * 2. incremental syncs with no change: each request the token of another client (one per venue: a full sync of
 *    the venue's events gives it), ≥ 1,500 req/s;
 * 3. ten events updated, then incremental syncs of a hundred clients that mirror every event, each request the token
 *    of another client (each taken at the full sync's position), each answering those ten, ≥ 800 req/s;
 * 4. the machine's ceiling (SPEC §10.2, as `npm run bench` measures it), after the syncs: a machine's speed moves
 *    between runs, and the budgets of §16.2 are absolute, so each run carries the figure that tells its pace.
 * Each run first waits until the service has caught up with its start-up work (see `waitUntilSettled`).
 * It prints one JSON line of figures. `--main <bundle>` measures another build instead (one kept elsewhere, such as
 * `dist/cmp/<name>/main.js`, a copy of an earlier build inside the workspace), without building.
 */

const ROOT = join(__dirname, '../../..');

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { duration: { type: 'string' }, warmup: { type: 'string' }, connections: { type: 'string' }, main: { type: 'string' } }, strict: true });
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl?.startsWith('mysql://')) throw new Error('DATABASE_URL must name a seeded MySQL database (npm run seed -- --events 100000)');
  const duration = Number(values.duration ?? 10);
  const warmup = Number(values.warmup ?? 3);
  const connections = Number(values.connections ?? 10);
  if (values.main === undefined) execFileSync('npx', ['nx', 'run', 'api:build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NX_DAEMON: 'false' } });
  const login = `bench-sync-${Date.now()}`;
  const { token: editor } = JSON.parse(
    execFileSync(process.execPath, ['-r', '@swc-node/register', 'tools/cli/src/main.ts', 'users:create', '--login', login, '--role', 'editor'], { cwd: ROOT, env: process.env }).toString(),
  ) as { token: string };
  const service = await startBuiltService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, { main: values.main === undefined ? undefined : join(ROOT, values.main) });
  try {
    await waitUntilSettled(databaseUrl);
    const get = async (path: string) => {
      const reply = await fetch(`${service.base}${path}`);
      if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}: ${await reply.text()}`);
      return (await reply.json()) as { events: { id: number }[]; next_rest_url?: string; sync_token?: string };
    };
    /** Every page of one sync; the number of items and the token. */
    const syncAll = async (query: string) => {
      let body = await get(`${NAMESPACE}/events/sync?${query}`);
      let items = body.events.length;
      while (body.next_rest_url) {
        body = await get(new URL(body.next_rest_url).pathname + new URL(body.next_rest_url).search);
        items += body.events.length;
      }
      return { items, token: body.sync_token as string };
    };

    let peak = rssMb(service.process.pid as number);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(service.process.pid as number))), 100);
    const started = performance.now();
    const full = await syncAll('per_page=1000');
    const fullSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);

    // A hundred clients that mirror every event, each with a token of its own at the full sync's position: each
    // synced again from the full sync's token, at a moment of its own, while nothing changed (a token carries when
    // it was issued, so no two are the same text).
    const mirrors = new Set<string>();
    while (mirrors.size < 100) {
      const again = await get(`${NAMESPACE}/events/sync?sync_token=${encodeURIComponent(full.token)}`);
      if (again.events.length !== 0 || again.sync_token === undefined) throw new Error(`a sync from the full sync's token answered ${again.events.length} events: something else wrote to the database meanwhile`);
      mirrors.add(again.sync_token);
    }

    const venues = ((await (await fetch(`${service.base}${NAMESPACE}/venues?per_page=100`)).json()) as { venues: { id: number }[] }).venues.map((venue) => venue.id);
    const tokens: string[] = [];
    for (const venue of venues) tokens.push(`venue=${venue}&sync_token=${encodeURIComponent((await syncAll(`venue=${venue}&per_page=1000`)).token)}`);
    // Each scenario is warmed up first, as in `npm run bench` (the JIT's compilation of its code path is not part of
    // it), and its requests are built once, as the ceiling's are.
    const drive = async (paths: string[]) => {
      const requests = paths.map((path) => ({ path }));
      await autocannon({ url: service.base, connections, duration: warmup, requests });
      const result = await autocannon({ url: service.base, connections, duration, requests });
      return { requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
    };
    // Each connection goes through the clients' tokens in turn.
    const noChange = await drive(tokens.map((token) => `${NAMESPACE}/events/sync?${token}`));

    const list = (await get(`${NAMESPACE}/events?per_page=10&start_date=2000-01-01&end_date=2100-01-01`)).events.map((event) => event.id);
    for (const id of list) {
      const reply = await fetch(`${service.base}${NAMESPACE}/events/${id}`, { method: 'POST', headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json' }, body: JSON.stringify({ excerpt: `Changed ${Date.now()}` }) });
      if (reply.status !== 200) throw new Error(`updating event ${id} answered ${reply.status}`);
    }
    const tenPaths = [...mirrors].map((token) => `${NAMESPACE}/events/sync?sync_token=${encodeURIComponent(token)}`);
    // Anything else written meanwhile (another process on the database) would make this scenario measure other syncs.
    for (const path of tenPaths) {
      const changed = await get(path);
      if (changed.events.length !== list.length || changed.next_rest_url) throw new Error(`a client's sync answered ${changed.events.length} events${changed.next_rest_url ? ' and more pages' : ''}, not the ${list.length} updated: something else wrote to the database meanwhile`);
    }
    // Each connection goes through the hundred clients' tokens in turn.
    const tenChanges = await drive(tenPaths);
    const ceiling = Math.round(await measureCeiling(service.base, { connections, duration, warmup: 3 }));
    process.stdout.write(
      `${JSON.stringify({
        fullSync: { events: full.items, seconds: Math.round(fullSeconds * 10) / 10, peakRssMb: peak },
        noChange: { clients: tokens.length, ...noChange },
        tenChanges: { clients: tenPaths.length, shown: list.length, ...tenChanges },
        rssMbAfter: rssMb(service.process.pid as number),
        ceiling,
      })}\n`,
    );
  } finally {
    await service.stop();
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
