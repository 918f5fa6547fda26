import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startBuiltService } from '@calendar/shared/testing';
import { NAMESPACE } from './scenarios';

/*
 * `DATABASE_URL=<mysql url> npm run bench:webhooks [-- --duration 10 --connections 10]` measures webhooks (SPEC
 * §17.3) with the bundle `npm start` runs, against receivers on loopback that answer 200 at once:
 * 1. creates of events with no endpoint subscribed, then with three, each for `--duration` seconds (within 10 %),
 *    on an instance that only answers the API (`WEBHOOK_DELIVERY=off`): what the messages cost the write path;
 * 2. deliveries per second: an instance that delivers is started, and the outbox the creates filled (three
 *    messages per create) is timed from its first delivery to its last (≥ 200/s).
 * It prints one JSON line of figures. The endpoints it subscribes are deleted at the end.
 */

const ROOT = join(__dirname, '../../..');

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { duration: { type: 'string' }, connections: { type: 'string' } }, strict: true });
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) throw new Error('DATABASE_URL must name a database (a seeded MySQL one for figures worth recording)');
  const duration = Number(values.duration ?? 10);
  const connections = Number(values.connections ?? 10);
  execFileSync('npx', ['nx', 'run', 'api:build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NX_DAEMON: 'false' } });
  const login = `bench-hooks-${Date.now()}`;
  const created = JSON.parse(
    execFileSync(process.execPath, ['-r', '@swc-node/register', 'tools/cli/src/main.ts', 'users:create', '--login', login, '--role', 'administrator'], { cwd: ROOT, env: process.env }).toString(),
  ) as { token: string };
  const headers = { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' };

  let received = 0;
  const ids = new Set<string>();
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      ids.add(String(request.headers['webhook-id']));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const service = await startBuiltService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_DELIVERY: 'off' });
  let deliverer: Awaited<ReturnType<typeof startBuiltService>> | null = null;
  const hooks: number[] = [];
  try {
    let n = 0;
    const creates = async () => {
      const result = await autocannon({
        url: service.base,
        connections,
        duration,
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (request) => ({ ...request, path: `${NAMESPACE}/events`, body: JSON.stringify({ title: `Hooked ${n++}`, start_date: '2032-01-10 19:00', end_date: '2032-01-10 21:00' }) }),
          },
        ],
      });
      return { requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
    };
    const without = await creates();
    for (let index = 0; index < 3; index += 1) {
      const reply = await fetch(`${service.base}${NAMESPACE}/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url, types: ['event.created'] }) });
      if (reply.status !== 201) throw new Error(`subscribing answered ${reply.status}: ${await reply.text()}`);
      hooks.push(((await reply.json()) as { id: number }).id);
    }
    const withThree = await creates();
    // Creates still answering when the run ended have added their messages too.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    let total = 0;
    for (const id of hooks) total += Number((await (await fetch(`${service.base}${NAMESPACE}/webhooks/${id}/deliveries?per_page=1`, { headers })).headers.get('x-wp-total')) ?? 0);
    // The outbox the creates filled, delivered by an instance that delivers, timed from its first delivery.
    if (received !== 0) throw new Error('an instance with WEBHOOK_DELIVERY=off delivered');
    deliverer = await startBuiltService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE: 'true' });
    while (received === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const drainStart = performance.now();
    while (received < total && performance.now() - drainStart < 300_000) await new Promise((resolve) => setTimeout(resolve, 20));
    const drainSeconds = (performance.now() - drainStart) / 1000;
    process.stdout.write(
      `${JSON.stringify({
        createsWithoutEndpoints: without,
        createsWithThreeEndpoints: withThree,
        createsRatio: Math.round((withThree.requestsPerSecond / without.requestsPerSecond) * 1000) / 1000,
        messages: total,
        delivered: received,
        distinctMessages: ids.size,
        drainSeconds: Math.round(drainSeconds * 10) / 10,
        deliveriesPerSecond: Math.round(received / drainSeconds),
      })}\n`,
    );
  } finally {
    for (const id of hooks) await fetch(`${service.base}${NAMESPACE}/webhooks/${id}`, { method: 'DELETE', headers });
    await service.stop();
    await deliverer?.stop();
    receiver.close();
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
