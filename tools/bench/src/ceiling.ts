import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@calendar/shared/testing';
import autocannon from 'autocannon';
import { NAMESPACE } from './scenarios';

/**
 * The machine's ceiling (SPEC §10.2), measured in the run: the service's default 10-event page is read once, then a
 * plain Node.js HTTP server in a process of its own sends those bytes to every request, and autocannon drives it as
 * it drives the scenarios (same connections, warm-up and duration). Gives its requests per second.
 */
export async function measureCeiling(serviceBase: string, load: { connections: number; duration: number; warmup: number }): Promise<number> {
  const page = await fetch(`${serviceBase}${NAMESPACE}/events`);
  if (page.status !== 200) throw new Error(`the default list answered ${page.status}`);
  const folder = mkdtempSync(join(tmpdir(), 'ceiling-'));
  const file = join(folder, 'page');
  writeFileSync(file, Buffer.from(await page.arrayBuffer()));
  const port = await freePort();
  const server = spawn(process.execPath, [join(__dirname, 'ceiling-server.js'), file, page.headers.get('content-type') ?? 'application/json', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((ready, fail) => {
      server.once('exit', (code) => fail(new Error(`the ceiling server exited with ${code}`)));
      server.stdout?.once('data', () => ready());
    });
    const url = `http://127.0.0.1:${port}${NAMESPACE}/events`;
    await autocannon({ url, connections: load.connections, duration: load.warmup });
    const result = await autocannon({ url, connections: load.connections, duration: load.duration });
    if (result.non2xx + result.errors > 0) throw new Error('the ceiling server did not answer every request');
    return result.requests.average;
  } finally {
    server.kill();
    rmSync(folder, { recursive: true, force: true });
  }
}
