import { join } from 'node:path';
// Jest loads this file before the workspace's path aliases are known, hence the relative import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mysqlReachable, mysqlServerUrl } from '../../../libs/shared/testing/src/mysql-server';

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
  return {
    rootDir: __dirname,
    maxWorkers: 2,
    projects: engines.map((engine) => ({
      displayName: `e2e-${engine}`,
      preset: join(__dirname, '../../../jest.preset.js'),
      rootDir: __dirname,
      testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
      globals: { E2E_ENGINE: engine },
      testTimeout: 30000,
    })),
  };
};
