import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@calendar/shared/config';
import { createLogger, DiscoveryService } from '@calendar/shared/http';
// The application itself, as main.ts creates it: the document is the one the service serves.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApp } from '../../../apps/api/src/bootstrap';

/*
 * `npm run client:generate`: writes the service's OpenAPI document, exactly as `GET .../doc` serves it, to
 * tools/client/generated/openapi.json (the application is created on an in-memory database, nothing listens), and
 * `openapi-typescript` then turns it into the types of tools/client/generated/calendar-api.d.ts.
 */
async function main(): Promise<void> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const app = await createApp(config, createLogger('silent'));
  try {
    const document = app.get(DiscoveryService).openApi('http://127.0.0.1:3000', config.defaultLanguage);
    const folder = join(__dirname, '..', 'generated');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'openapi.json'), `${JSON.stringify(document, null, 1)}\n`);
  } finally {
    await app.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
