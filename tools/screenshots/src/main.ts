import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startBuiltService, WORKSPACE_ROOT, writeShowcase } from '@calendar/shared/testing';
import { chromium } from 'playwright-core';

/*
 * `npm run screenshots`: the README's pictures of the public pages (docs/images/), taken in Chromium from the built
 * service on an empty SQLite database with the showcase calendar. CHROMIUM_PATH names the browser (default
 * /usr/bin/chromium).
 */

const ADMIN_TOKEN = 'screenshots-administrator-token-0123456789abcdef';
const OUT = join(WORKSPACE_ROOT, 'docs/images');

async function main(): Promise<void> {
  const service = await startBuiltService({ DATABASE_URL: 'sqlite::memory:', ADMIN_TOKEN, TIMEZONE: 'Europe/Paris', SITE_NAME: 'Lyon events' });
  const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' });
  try {
    const { paths } = await writeShowcase(service.base, ADMIN_TOKEN);
    mkdirSync(OUT, { recursive: true });
    const shots: [string, string, { width: number; height: number }][] = [
      ['month.png', paths.month, { width: 1100, height: 820 }],
      ['event.png', paths.event, { width: 1100, height: 560 }],
      ['event-360.png', `/fr${paths.event}`, { width: 360, height: 740 }],
    ];
    for (const [file, path, viewport] of shots) {
      const page = await browser.newPage({ viewport });
      const answer = await page.goto(`${service.base}${path}`);
      if (answer?.status() !== 200) throw new Error(`${path} answered ${answer?.status()}`);
      await page.screenshot({ path: join(OUT, file) });
      await page.close();
      process.stdout.write(`docs/images/${file}\n`);
    }
  } finally {
    await browser.close();
    await service.stop();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
