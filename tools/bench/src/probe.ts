import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { NAMESPACE, anyQuery, anyQueryData, newEvent } from './scenarios';

/*
 * `npm run bench:probe -- --query "categories=5" [--duration 6] [--connections 10] [--base http://127.0.0.1:3000]`:
 * drives an already running service with one event-list filter, every request a URL of its own (an ignored
 * `probe=<n>` parameter), and prints req/s and latencies. `--single` instead reads single events in turn (the
 * published ones of the first list page of 100, without a password); `--path "/events/month/2027-05/"` asks any
 * path the same way; `--any [--seed N] [--token T]` draws lists from SPEC §10.2's query space as `npm run bench` does
 * (with `Authorization: Bearer T` when a token is given); `--create-in C --token T` creates published events in
 * category C instead, each request one create (what a write into a large category costs). For profiling one kind
 * of answer (start the service with `RESPONSE_CACHE_MB=0` and `node --cpu-prof`); `npm run bench` remains the
 * reference.
 */

const USAGE = 'npm run bench:probe -- (--query "<event list query>" | --single | --path <path> | --any [--seed N] [--token T] | --create-in <category id> --token T) [--duration S] [--connections N] [--base URL]';

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { query: { type: 'string' }, single: { type: 'boolean' }, path: { type: 'string' }, any: { type: 'boolean' }, 'create-in': { type: 'string' }, seed: { type: 'string' }, token: { type: 'string' }, duration: { type: 'string' }, connections: { type: 'string' }, base: { type: 'string' } },
    strict: true,
  });
  if ([values.query, values.single, values.path, values.any, values['create-in']].filter((value) => value !== undefined).length !== 1) throw new Error(USAGE);
  const category = values['create-in'] === undefined ? undefined : Number(values['create-in']);
  if (category !== undefined && (!Number.isInteger(category) || category < 1 || !values.token)) throw new Error(`--create-in takes a category id, with --token\n${USAGE}`);
  const base = values.base ?? 'http://127.0.0.1:3000';
  let ids: number[] = [];
  if (values.single) {
    const list = (await (await fetch(`${base}${NAMESPACE}/events?per_page=100&start_date=2000-01-01&end_date=2100-01-01`)).json()) as { events: { id: number; description: string }[] };
    // A protected event is listed with its description blanked; reading it without the password is a 403.
    ids = list.events.filter((event) => event.description !== '').map((event) => event.id);
    if (ids.length === 0) throw new Error('the service lists no event to read');
  }
  const anyData = values.any ? await anyQueryData(base) : undefined;
  const seed = Number(values.seed ?? Math.floor(Math.random() * 2 ** 31));
  const run = `p${seed}`;
  const duration = Number(values.duration ?? 6);
  const connections = Number(values.connections ?? 10);
  if (!(duration > 0) || !(connections > 0)) throw new Error(`durations and connections are positive numbers\n${USAGE}`);
  let n = 0;
  const result = await autocannon({
    url: base,
    connections,
    duration,
    requests: [
      {
        setupRequest: (request) => {
          const probe = n++;
          if (category !== undefined) {
            request.method = 'POST';
            request.path = `${NAMESPACE}/events`;
            request.headers = { ...request.headers, authorization: `Bearer ${values.token}`, 'content-type': 'application/json' };
            request.body = newEvent(probe, run, [category]);
          } else if (anyData) {
            request.path = anyQuery(seed, probe, anyData, run);
            if (values.token) request.headers = { ...request.headers, authorization: `Bearer ${values.token}` };
          } else if (values.path) request.path = `${values.path}${values.path.includes('?') ? '&' : '?'}probe=${probe}`;
          else if (values.single) request.path = `${NAMESPACE}/events/${ids[probe % ids.length]}?probe=${probe}`;
          else request.path = `${NAMESPACE}/events?${values.query ? `${values.query}&` : ''}probe=${probe}`;
          return request;
        },
      },
    ],
  });
  process.stdout.write(`${JSON.stringify({ query: category !== undefined ? `creates in category ${category}` : anyData ? `any query, seed ${seed}` : (values.path ?? (values.single ? 'single events' : values.query)), requestsPerSecond: result.requests.average, p50: result.latency.p50, p90: result.latency.p90, p97: result.latency.p97_5, p99: result.latency.p99, max: result.latency.max, non2xx: result.non2xx })}\n`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
