import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startBuiltService, WORKSPACE_ROOT } from '@calendar/shared/testing';
import autocannon from 'autocannon';
import { machineCpu, machineSpent } from './machine-cpu';
import { ANY_QUERY_KINDS, anyQueriesOfKind, anyQuery, anyQueryData, AnyQueryData, AnyQueryKind, NAMESPACE, newEvent, publishedEvents } from './scenarios';

/*
 * `npm run bench:cpu -- --bundle <main.js> [--bundle <other main.js>] --path "/events/month/{month}/" [--requests 3000]
 * [--warmup 500] [--rounds 4] [--connections 10]`: the service's own CPU time per request of one kind of answer, for
 * one build or for two in turn (A, B, A, B, ... on the same DATABASE_URL, each start new). Every request is a URL of
 * its own (`{month}` cycles through the 36 months from next January, `{n}` is the request's number, and a
 * `cpu=<round>-<n>` parameter is added), so the response cache answers none. `--any [--seed N]` instead of `--path`
 * draws the lists of SPEC §10.2's query space as `npm run bench` does (the same lists for every build; a drawn page
 * past the last one is a 404, counted apart); `--kind K` keeps only the drawn lists of one kind (`ANY_QUERY_KINDS`:
 * no filter, one named filter, or two); `--mixed --token T` with `--any` makes every tenth request a create of a
 * published event by the token's user, as the bench's mixed scenario does. `--creates --token T [--category C]`
 * instead: every request such a create (in category C when given). `--single`: single published events, each URL new,
 * as the bench's "Single events, never cached" asks them. CPU time is read from /proc for the
 * service's process alone (user + system, after the warm-up and after the measured requests): it does not count the
 * load generator, and moves much less than req/s when the machine is shared. When DATABASE_URL names a server on
 * this machine (a MySQL or MariaDB host of 127.0.0.1 or localhost), the database server's CPU time over the same
 * requests is read the same way (`dbCpuMsPerRequest`; anything else it serves at that time is counted too). The
 * whole machine's busy CPU time over the same requests, every core summed (`machineCpuMsPerRequest`: the service,
 * the database, the load generator, the kernel), and the share of the cores' time left idle (`machineIdleShare`) are
 * read from /proc/stat. The builds must lie inside the workspace (they require the packages of its node_modules).
 */

const USAGE =
  'npm run bench:cpu -- --bundle <main.js> [--bundle <main.js>] (--path <path with {month} or {n}> | --single | --any [--seed N] [--kind K] [--mixed --token T] | --creates --token T [--category C]) [--requests N] [--warmup N] [--rounds N] [--connections N]';
const TICKS_PER_SECOND = 100;

/** User + system CPU time of a process so far, in milliseconds (/proc/<pid>/stat, fields 14 and 15). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The pid of the MySQL or MariaDB server that DATABASE_URL names, when it runs on this machine; else undefined. */
function localDatabaseServer(databaseUrl: string): number | undefined {
  if (!/^(mysql|mariadb):\/\//.test(databaseUrl)) return undefined;
  const url = new URL(databaseUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (['mariadbd', 'mysqld'].includes(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) return Number(entry);
    } catch {
      // The process ended while the list was read.
    }
  }
  return undefined;
}

function pathOf(template: string, round: string, n: number): string {
  const year = new Date().getUTCFullYear() + 1 + Math.floor((n % 36) / 12);
  const month = `${year}-${String((n % 12) + 1).padStart(2, '0')}`;
  const path = template.replaceAll('{month}', month).replaceAll('{n}', String(n));
  return `${path}${path.includes('?') ? '&' : '?'}cpu=${round}-${n}`;
}

/** Creates of published events by the token's user, in `categories`. */
interface Creates {
  token: string;
  categories: number[];
}

/**
 * What the requests ask: one path template, the lists of any query drawn with a seed (every tenth request a create
 * with `mixed`), or creates alone.
 */
type Asked = { template: string } | { single: number[] } | { seed: number; data: AnyQueryData; kind?: AnyQueryKind; mixed?: Creates } | { creates: Creates };

async function drive(base: string, asked: Asked, round: string, amount: number, connections: number): Promise<{ requestsPerSecond: number; non2xx: number; pastLastPage: number }> {
  let n = 0;
  let pastLastPage = 0;
  const ofKind = 'kind' in asked && asked.kind ? anyQueriesOfKind(asked.kind, asked.seed, amount, asked.data, `cpu${round}`) : null;
  const result = await autocannon({
    url: base,
    connections,
    amount,
    requests: [
      {
        setupRequest: (request) => {
          const at = n++;
          const create = ({ token, categories }: Creates) => {
            const headers = { ...request.headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
            return { ...request, method: 'POST' as const, path: `${NAMESPACE}/events`, headers, body: newEvent(at, `cpu${round}`, categories) };
          };
          if ('creates' in asked) return create(asked.creates);
          if ('template' in asked) return { ...request, method: 'GET' as const, path: pathOf(asked.template, round, at) };
          if ('single' in asked) return { ...request, method: 'GET' as const, path: `${NAMESPACE}/events/${asked.single[(at * 7919) % asked.single.length]}?cpu=${round}-${at}` };
          if (asked.mixed && at % 10 === 9) return create(asked.mixed);
          return { ...request, method: 'GET' as const, path: ofKind ? ofKind[at % ofKind.length] : anyQuery(asked.seed, at, asked.data, `cpu${round}`) };
        },
        onResponse: (status, body) => {
          if (status === 404 && body.includes('"event-archive-page-not-found"')) pastLastPage += 1;
        },
      },
    ],
  });
  return { requestsPerSecond: result.requests.total / result.duration, non2xx: result.non2xx - pastLastPage, pastLastPage };
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      bundle: { type: 'string', multiple: true },
      path: { type: 'string' },
      any: { type: 'boolean' },
      seed: { type: 'string' },
      kind: { type: 'string' },
      mixed: { type: 'boolean' },
      creates: { type: 'boolean' },
      single: { type: 'boolean' },
      token: { type: 'string' },
      category: { type: 'string' },
      requests: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
    },
    strict: true,
  });
  const bundles = (values.bundle ?? []).map((bundle) => resolve(WORKSPACE_ROOT, bundle));
  if (bundles.length === 0 || [values.path !== undefined, values.any === true, values.creates === true, values.single === true].filter(Boolean).length !== 1) throw new Error(USAGE);
  if ((values.mixed && !values.any) || ((values.mixed || values.creates) && !values.token) || (values.category !== undefined && !values.creates)) {
    throw new Error(`--mixed goes with --any, --category with --creates, and both need --token\n${USAGE}`);
  }
  const category = values.category === undefined ? undefined : Number(values.category);
  if (category !== undefined && !(Number.isInteger(category) && category > 0)) throw new Error(`--category takes a category id\n${USAGE}`);
  const creates: Creates | undefined = values.token === undefined ? undefined : { token: values.token, categories: category === undefined ? [] : [category] };
  const seed = Number(values.seed ?? Math.floor(Math.random() * 2 ** 31));
  const kind = values.kind as AnyQueryKind | undefined;
  if (kind !== undefined && (!values.any || !ANY_QUERY_KINDS.includes(kind))) throw new Error(`--kind goes with --any and is one of ${ANY_QUERY_KINDS.join(', ')}\n${USAGE}`);
  const [requests, warmup, rounds, connections] = [values.requests ?? '3000', values.warmup ?? '500', values.rounds ?? '4', values.connections ?? '10'].map(Number);
  if (![requests, warmup, rounds, connections].every((value) => Number.isInteger(value) && value > 0)) throw new Error(`counts are positive integers\n${USAGE}`);
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) throw new Error('set DATABASE_URL to a seeded database');
  const database = localDatabaseServer(databaseUrl);
  const results = new Map<string, number[]>(bundles.map((bundle) => [bundle, []]));
  const databaseResults = new Map<string, number[]>(bundles.map((bundle) => [bundle, []]));
  // With --single, the events of the first build's lists, read once: every build reads the same ones.
  let singleIds: number[] | undefined;
  for (let round = 1; round <= rounds; round += 1) {
    for (const bundle of bundles) {
      const service = await startBuiltService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, { main: bundle });
      try {
        const pid = service.process.pid as number;
        const asked: Asked =
          values.path !== undefined
            ? { template: values.path }
            : values.single
              ? { single: (singleIds ??= (await publishedEvents(service.base)).eventIds) }
              : values.creates && creates
                ? { creates }
                : { seed, data: await anyQueryData(service.base), kind, mixed: values.mixed ? creates : undefined };
        // The warm-up draws other lists than the measured ones (another seed), so that none of these is kept yet.
        await drive(service.base, 'seed' in asked ? { ...asked, seed: asked.seed + 1 } : asked, `w${round}`, warmup, connections);
        const before = cpuMs(pid);
        const databaseBefore = database === undefined ? 0 : cpuMs(database);
        const machineBefore = machineCpu();
        const { requestsPerSecond, non2xx, pastLastPage } = await drive(service.base, asked, `m${round}`, requests, connections);
        const perRequest = (cpuMs(pid) - before) / requests;
        const databasePerRequest = database === undefined ? undefined : (cpuMs(database) - databaseBefore) / requests;
        const machine = machineSpent(machineBefore, machineCpu(), requests);
        if (non2xx > 0) throw new Error(`${bundle}: ${non2xx} answers were not 2xx`);
        results.get(bundle)?.push(perRequest);
        if (databasePerRequest !== undefined) databaseResults.get(bundle)?.push(databasePerRequest);
        process.stdout.write(`${JSON.stringify({ round, bundle, cpuMsPerRequest: Number(perRequest.toFixed(3)), ...(databasePerRequest === undefined ? {} : { dbCpuMsPerRequest: Number(databasePerRequest.toFixed(3)) }), ...machine, requestsPerSecond: Math.round(requestsPerSecond), ...(values.any ? { seed, ...(kind ? { kind } : {}), ...(values.mixed ? { mixed: true } : {}), pastLastPage } : {}), ...(values.creates ? { creates: true, ...(category ? { category } : {}) } : {}) })}\n`);
      } finally {
        await service.stop();
      }
    }
  }
  const meanAndSpread = (figures: number[]): [number, number] => {
    const mean = figures.reduce((sum, value) => sum + value, 0) / figures.length;
    const spread = Math.sqrt(figures.reduce((sum, value) => sum + (value - mean) ** 2, 0) / Math.max(1, figures.length - 1));
    return [Number(mean.toFixed(3)), Number(spread.toFixed(3))];
  };
  for (const [bundle, figures] of results) {
    const [mean, spread] = meanAndSpread(figures);
    const databaseFigures = databaseResults.get(bundle) ?? [];
    const [databaseMean, databaseSpread] = databaseFigures.length > 0 ? meanAndSpread(databaseFigures) : [];
    process.stdout.write(`${JSON.stringify({ bundle, rounds: figures.length, meanCpuMsPerRequest: mean, standardDeviation: spread, ...(databaseMean === undefined ? {} : { meanDbCpuMsPerRequest: databaseMean, dbStandardDeviation: databaseSpread }) })}\n`);
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
