import 'reflect-metadata';
import { ConfigError, loadConfig } from '@calendar/shared/config';
import { createLogger, NAMESPACE } from '@calendar/shared/http';
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
  // A wildcard address is not one to open: the loopback name reaches it from this machine.
  const shownHost = ['0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  const api = `http://${shownHost}:${config.port}${config.apiRoot}/${NAMESPACE}`;
  logger.info({ host: config.host, port: config.port, database: config.database.type }, `API at ${api}, explorer page at ${api}/doc/ui`);

  // On SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish, close the database, exit 0.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      app
        .close()
        .then(() => {
          logger.info('stopped');
          process.exit(0);
        })
        .catch((error: Error) => {
          logger.error({ err: { message: error.message } }, 'shutdown failed');
          process.exit(1);
        });
    });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`The service could not start: ${error.message}\n`);
  process.exit(1);
});
