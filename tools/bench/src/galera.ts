import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BuiltService, startBuiltService, WORKSPACE_ROOT } from '@calendar/shared/testing';
import autocannon from 'autocannon';
import { NAMESPACE } from './scenarios';

/*
 * `npm run bench:galera`: creates and never-cached reads per second through one instance on one Galera node, and
 * through three instances on three nodes (SPEC §15), on a 3-node cluster started on this machine for the run
 * (tools/galera/cluster.sh, data in tmp/galera-bench, removed afterwards). Prints one JSON line per measurement.
 */

const ADMIN_TOKEN = 'galera-bench-administrator-token-0123456789abcdef';
const SCRIPT = join(WORKSPACE_ROOT, 'tools/galera/cluster.sh');
const DIR = join(WORKSPACE_ROOT, 'tmp/galera-bench');
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = 10;

const cluster = (...args: string[]) => execFileSync(SCRIPT, args, { env: { ...process.env, GALERA_DIR: DIR }, stdio: 'inherit' });

/** Drives `instances` together, the connections shared among them; `request(n)` gives the n-th request. */
async function drive(instances: BuiltService[], request: (n: number) => { method: 'GET' | 'POST'; path: string; body?: string }): Promise<{ perSecond: number; p99: number; non2xx: number }> {
  let n = 0;
  const results = await Promise.all(
    instances.map((instance) =>
      autocannon({
        url: instance.base,
        connections: Math.max(1, Math.round(CONNECTIONS / instances.length)),
        duration: SECONDS,
        requests: [
          {
            setupRequest: (base) => {
              const next = request(n++);
              return { ...base, ...next, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' } };
            },
          },
        ],
      }),
    ),
  );
  return {
    perSecond: Math.round(results.reduce((sum, result) => sum + result.requests.average, 0)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
  };
}

async function main(): Promise<void> {
  cluster('clean');
  cluster('start');
  execFileSync('mariadb', ['--protocol=tcp', '-h127.0.0.1', '-P3311', '-uroot', '-e', 'CREATE DATABASE calendar CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci']);
  const services = await Promise.all([1, 2, 3].map((node) => startBuiltService({ DATABASE_URL: `mysql://root@127.0.0.1:${3310 + node}/calendar`, ADMIN_TOKEN, LOG_LEVEL: 'warn' })));
  try {
    const run = Date.now().toString(36);
    const create = (n: number) => ({ method: 'POST' as const, path: `${NAMESPACE}/events`, body: JSON.stringify({ title: `Galera bench ${run} ${n}`, start_date: '2030-05-01 19:00', end_date: '2030-05-01 21:00' }) });
    for (const [label, instances] of [
      ['1 node', services.slice(0, 1)],
      ['3 nodes', services],
    ] as const) {
      const creates = await drive([...instances], create);
      // Ids made on different nodes are spaced by the cluster (auto_increment_increment): the reads take real ones.
      const listed = (await (await fetch(`${services[0].base}${NAMESPACE}/events?start_date=2030-05-01&end_date=2030-05-01&per_page=100`)).json()) as { events: { id: number }[] };
      const ids = listed.events.map((event) => event.id);
      const reads = await drive([...instances], (n) => ({ method: 'GET', path: `${NAMESPACE}/events/${ids[n % ids.length]}?bench=${run}-${label.length}-${n}` }));
      process.stdout.write(`${JSON.stringify({ label, createsPerSecond: creates.perSecond, createsP99: creates.p99, createsNon2xx: creates.non2xx, readsPerSecond: reads.perSecond, readsP99: reads.p99, readsNon2xx: reads.non2xx })}\n`);
    }
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    cluster('clean');
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
