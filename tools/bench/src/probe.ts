import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { NAMESPACE } from './scenarios';

/*
 * `npm run bench:probe -- --query "categories=5" [--duration 6] [--connections 10] [--base http://127.0.0.1:3000]`:
 * drives an already running service with one event-list filter, every request a URL of its own (an ignored
 * `probe=<n>` parameter), and prints req/s and latencies. For profiling one kind of list (start the service with
 * `RESPONSE_CACHE_MB=0` and `node --cpu-prof`); `npm run bench` remains the reference.
 */

const USAGE = 'npm run bench:probe -- --query "<event list query>" [--duration S] [--connections N] [--base URL]';

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { query: { type: 'string' }, duration: { type: 'string' }, connections: { type: 'string' }, base: { type: 'string' } },
    strict: true,
  });
  if (values.query === undefined) throw new Error(USAGE);
  const duration = Number(values.duration ?? 6);
  const connections = Number(values.connections ?? 10);
  if (!(duration > 0) || !(connections > 0)) throw new Error(`durations and connections are positive numbers\n${USAGE}`);
  let n = 0;
  const result = await autocannon({
    url: values.base ?? 'http://127.0.0.1:3000',
    connections,
    duration,
    requests: [
      {
        setupRequest: (request) => {
          request.path = `${NAMESPACE}/events?${values.query ? `${values.query}&` : ''}probe=${n++}`;
          return request;
        },
      },
    ],
  });
  process.stdout.write(`${JSON.stringify({ query: values.query, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx })}\n`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
