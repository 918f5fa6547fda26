import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startBuiltService, WORKSPACE_ROOT } from '@calendar/shared/testing';
import autocannon from 'autocannon';

/*
 * `npm run bench:cpu -- --bundle <main.js> [--bundle <other main.js>] --path "/events/month/{month}/" [--requests 3000]
 * [--warmup 500] [--rounds 4] [--connections 10]`: the service's own CPU time per request of one kind of answer, for
 * one build or for two in turn (A, B, A, B, ... on the same DATABASE_URL, each start new). Every request is a URL of
 * its own (`{month}` cycles through the 36 months from next January, `{n}` is the request's number, and a
 * `cpu=<round>-<n>` parameter is added), so the response cache answers none. CPU time is read from /proc for the
 * service's process alone (user + system, after the warm-up and after the measured requests): it does not count the
 * load generator, and moves much less than req/s when the machine is shared. The builds must lie inside the
 * workspace (they require the packages of its node_modules).
 */

const USAGE = 'npm run bench:cpu -- --bundle <main.js> [--bundle <main.js>] --path <path with {month} or {n}> [--requests N] [--warmup N] [--rounds N] [--connections N]';
const TICKS_PER_SECOND = 100;

/** User + system CPU time of a process so far, in milliseconds (/proc/<pid>/stat, fields 14 and 15). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function pathOf(template: string, round: string, n: number): string {
  const year = new Date().getUTCFullYear() + 1 + Math.floor((n % 36) / 12);
  const month = `${year}-${String((n % 12) + 1).padStart(2, '0')}`;
  const path = template.replaceAll('{month}', month).replaceAll('{n}', String(n));
  return `${path}${path.includes('?') ? '&' : '?'}cpu=${round}-${n}`;
}

async function drive(base: string, template: string, round: string, amount: number, connections: number): Promise<{ requestsPerSecond: number; non2xx: number }> {
  let n = 0;
  const result = await autocannon({
    url: base,
    connections,
    amount,
    requests: [{ setupRequest: (request) => ({ ...request, path: pathOf(template, round, n++) }) }],
  });
  return { requestsPerSecond: result.requests.total / result.duration, non2xx: result.non2xx };
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      bundle: { type: 'string', multiple: true },
      path: { type: 'string' },
      requests: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
    },
    strict: true,
  });
  const bundles = (values.bundle ?? []).map((bundle) => resolve(WORKSPACE_ROOT, bundle));
  if (bundles.length === 0 || !values.path) throw new Error(USAGE);
  const [requests, warmup, rounds, connections] = [values.requests ?? '3000', values.warmup ?? '500', values.rounds ?? '4', values.connections ?? '10'].map(Number);
  if (![requests, warmup, rounds, connections].every((value) => Number.isInteger(value) && value > 0)) throw new Error(`counts are positive integers\n${USAGE}`);
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) throw new Error('set DATABASE_URL to a seeded database');
  const results = new Map<string, number[]>(bundles.map((bundle) => [bundle, []]));
  for (let round = 1; round <= rounds; round += 1) {
    for (const bundle of bundles) {
      const service = await startBuiltService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, { main: bundle });
      try {
        const pid = service.process.pid as number;
        await drive(service.base, values.path, `w${round}`, warmup, connections);
        const before = cpuMs(pid);
        const { requestsPerSecond, non2xx } = await drive(service.base, values.path, `m${round}`, requests, connections);
        const perRequest = (cpuMs(pid) - before) / requests;
        if (non2xx > 0) throw new Error(`${bundle}: ${non2xx} answers were not 2xx`);
        results.get(bundle)?.push(perRequest);
        process.stdout.write(`${JSON.stringify({ round, bundle, cpuMsPerRequest: Number(perRequest.toFixed(3)), requestsPerSecond: Math.round(requestsPerSecond) })}\n`);
      } finally {
        await service.stop();
      }
    }
  }
  for (const [bundle, figures] of results) {
    const mean = figures.reduce((sum, value) => sum + value, 0) / figures.length;
    const spread = Math.sqrt(figures.reduce((sum, value) => sum + (value - mean) ** 2, 0) / Math.max(1, figures.length - 1));
    process.stdout.write(`${JSON.stringify({ bundle, rounds: figures.length, meanCpuMsPerRequest: Number(mean.toFixed(3)), standardDeviation: Number(spread.toFixed(3)) })}\n`);
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
