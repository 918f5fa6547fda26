import { existsSync } from 'node:fs';
import { join } from 'node:path';
// Jest loads this file before the workspace's path aliases are known, hence the relative import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mysqlReachable, mysqlServerUrl } from '../../../libs/shared/testing/src/mysql-server';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { redisReachable, redisServerUrl } from '../../../libs/shared/testing/src/redis-server';

/*
 * The HTTP suite runs once on SQLite and once on MySQL. MySQL is used whenever it is reachable; with
 * REQUIRE_MYSQL=1 an unreachable MySQL fails the run instead of being skipped.
 */
export default async () => {
  const engines = ['sqlite'];
  if (await mysqlReachable()) {
    engines.push('mysql');
  } else if (process.env['REQUIRE_MYSQL'] === '1') {
    throw new Error(`REQUIRE_MYSQL=1 but MySQL is not reachable at ${mysqlServerUrl()}`);
  } else {
    process.stderr.write(`MySQL is not reachable at ${mysqlServerUrl()}: the HTTP suite runs on SQLite only.\n`);
  }
  // The rate-limit counters shared through Redis (SPEC §18) are tested whenever a Redis answers; REQUIRE_REDIS=1
  // makes a missing one a failure.
  const redis = (await redisReachable()) ? redisServerUrl() : null;
  if (redis === null && process.env['REQUIRE_REDIS'] === '1') throw new Error(`REQUIRE_REDIS=1 but Redis is not reachable at ${redisServerUrl()}`);
  if (redis === null) process.stderr.write(`Redis is not reachable at ${redisServerUrl()}: rate-limit counters shared by instances are not tested.\n`);
  // Each engine with requests injected into the application (every answer held to the served OpenAPI document by
  // the suite's own check); then the same suite over HTTP through Stoplight Prism's validating proxy, a second
  // validator of the same document, once: on MySQL when it is reachable, else on SQLite (the answers are the same on
  // both, which the two direct runs check). E2E_PRISM=0 leaves it out, for a quicker run while working.
  const prismEngine = process.env['E2E_PRISM'] === '0' ? null : engines[engines.length - 1];
  const projects = engines.flatMap((engine) =>
    [false, ...(engine === prismEngine ? [true] : [])].map((throughPrism) => ({
      displayName: `e2e-${engine}${throughPrism ? '-prism' : ''}`,
      preset: join(__dirname, '../../../jest.preset.js'),
      rootDir: __dirname,
      testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
      // Once per engine, not again through Prism: the sync property test (many writes and syncs checks the service,
      // not its description), the built bundle's suite (its requests go to the bundle's own port, not the proxy) and
      // the move between engines (it compares answers before and after, and its commands talk to the databases).
      testPathIgnorePatterns: throughPrism ? ['/sync-guarantee\\.e2e-spec\\.ts$', '/bundle\\.e2e-spec\\.ts$', '/moving\\.e2e-spec\\.ts$'] : [],
      globals: { E2E_ENGINE: engine, E2E_PRISM: throughPrism, E2E_REDIS_URL: redis },
    })),
  );
  // The browser tests run when Chromium is installed; with REQUIRE_BROWSER=1 a missing one fails the run.
  const chromium = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  if (existsSync(chromium)) {
    (projects as object[]).push({
      displayName: 'browser',
      preset: join(__dirname, '../../../jest.preset.js'),
      rootDir: __dirname,
      testMatch: ['<rootDir>/browser/**/*.browser-spec.ts'],
      globals: { CHROMIUM_PATH: chromium } as never,
    });
  } else if (process.env['REQUIRE_BROWSER'] === '1') {
    throw new Error(`REQUIRE_BROWSER=1 but there is no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`);
  } else {
    process.stderr.write(`No Chromium at ${chromium}: the browser tests do not run (apt-get install chromium, or set CHROMIUM_PATH).\n`);
  }
  // The cluster suite runs when Galera is installed (it comes with Debian's mariadb-server); E2E_GALERA=0 leaves
  // it out, REQUIRE_GALERA=1 makes a missing provider a failure.
  const galera = process.env['GALERA_PROVIDER'] ?? '/usr/lib/galera/libgalera_smm.so';
  if (existsSync(galera) && process.env['E2E_GALERA'] !== '0') {
    (projects as object[]).push({
      displayName: 'galera',
      preset: join(__dirname, '../../../jest.preset.js'),
      rootDir: __dirname,
      testMatch: ['<rootDir>/galera/**/*.galera-spec.ts'],
    });
  } else if (process.env['REQUIRE_GALERA'] === '1') {
    throw new Error(`REQUIRE_GALERA=1 but there is no Galera provider at ${galera} (apt-get install galera-4)`);
  }
  // The time limit of a test is a setting of the whole run (jest ignores it inside `projects`).
  return { rootDir: __dirname, maxWorkers: 2, testTimeout: 60000, projects };
};
