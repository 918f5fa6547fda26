import { loadConfig } from '@calendar/shared/config';
import { buildDataSourceOptions } from '@calendar/shared/database';
import { DataSource } from 'typeorm';

/**
 * Waits until the service just started on `databaseUrl` has done its start-up work: no change written to the log
 * for `quietMs`. On a freshly seeded database the series horizon adds, at the first start, the occurrences that came
 * due since the seed, and each moves the counts of its categories and tags, so every event embedding one of those
 * terms changes with it. Measured meanwhile, the "ten changes" of a sync bench were thousands of events, and lists
 * competed with those writes. Says on stderr how long it waited, when that was longer than the quiet time itself.
 */
export async function waitUntilSettled(databaseUrl: string, options: { quietMs?: number; timeoutMs?: number } = {}): Promise<void> {
  const quietMs = options.quietMs ?? 3000;
  const timeoutMs = options.timeoutMs ?? 180_000;
  const dataSource = new DataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl }).database));
  await dataSource.initialize();
  const started = Date.now();
  try {
    let last: string | null = null;
    let stillSince = Date.now();
    for (;;) {
      const [row] = await dataSource.query('SELECT MAX(id) AS newest FROM changes');
      const state = String(row.newest);
      if (state !== last) {
        last = state;
        stillSince = Date.now();
      } else if (Date.now() - stillSince >= quietMs) {
        const waited = Date.now() - started;
        if (waited > quietMs + 500) process.stderr.write(`Waited ${(waited / 1000).toFixed(1)} s for the service's start-up writes (series horizon)\n`);
        return;
      }
      if (Date.now() - started > timeoutMs) throw new Error(`the service was still writing changes after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await dataSource.destroy();
  }
}
