import 'reflect-metadata';
import { ConfigError, loadConfig } from '@calendar/shared/config';
import { createLogger } from '@calendar/shared/http';
import { createApp } from './bootstrap';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const app = await createApp(config, logger);
  await app.listen(config.port, config.host);
  logger.info({ host: config.host, port: config.port, database: config.database.type, api_root: config.apiRoot }, 'listening');
}

main().catch((error: Error) => {
  process.stderr.write(`The service could not start: ${error.message}\n`);
  process.exit(1);
});
