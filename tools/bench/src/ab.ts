import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startBuiltService } from '@calendar/shared/testing';
import { NAMESPACE } from './scenarios';

/*
 * `DATABASE_URL=<seeded database> npm run bench:ab -- --main <bundle> [--duration 10] [--connections 10]`: a quick
 * comparison of two builds on the hot paths every request crosses. It starts the bundle as `npm start` does (a
 * build kept elsewhere, such as one of an earlier commit in a worktree of this repository whose node_modules links
 * to this one's) and measures the default list served from the response cache, then single events read in turn
 * with the response cache off. Run it for each build in turn, twice: identical runs spread about ±10 %.
 */

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { main: { type: 'string' }, duration: { type: 'string' }, connections: { type: 'string' } }, strict: true });
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl || !values.main) throw new Error('Usage: DATABASE_URL=<seeded database> npm run bench:ab -- --main <bundle> [--duration 10] [--connections 10]');
  const duration = Number(values.duration ?? 10);
  const connections = Number(values.connections ?? 10);
  const figures: Record<string, string> = {};
  for (const [scenario, env] of [
    ['cached default list', {}],
    ['single events, response cache off', { RESPONSE_CACHE_MB: '0' }],
  ] as const) {
    const service = await startBuiltService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env }, { main: values.main });
    try {
      // The list asked twice, so that the cache holds it (a URL's first request is not looked up).
      for (let i = 0; i < 2; i += 1) await fetch(`${service.base}${NAMESPACE}/events`);
      let n = 0;
      const path = () => (scenario === 'cached default list' ? `${NAMESPACE}/events` : `${NAMESPACE}/events/${1 + ((n++ * 7919) % 90_000)}`);
      const result = await autocannon({ url: service.base, connections, duration, requests: [{ setupRequest: (request) => ({ ...request, path: path() }) }] });
      figures[scenario] = `${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`;
    } finally {
      await service.stop();
    }
  }
  process.stdout.write(`${JSON.stringify({ main: values.main, ...figures })}\n`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
