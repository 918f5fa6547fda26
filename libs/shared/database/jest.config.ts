// Jest loads this file before the workspace's path aliases are known, hence the relative import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { reachableEngines } from '../testing/src/mysql-server';

/*
 * The library's tests: pure units and SQLite in memory, and the migrations that differ on MySQL whenever it is
 * reachable (`*.mysql.spec.ts` reads the engines from `TEST_ENGINES`); with REQUIRE_MYSQL=1 an unreachable MySQL
 * fails the run instead of being left out. The migration tests build a database through every migration (DDL:
 * seconds on MySQL when the server is busy), and the reading thread's send hundreds of thousands of rows across
 * threads: a minute each, as the event library's.
 */
export default async () => ({
  displayName: 'shared-database',
  preset: '../../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  globals: { TEST_ENGINES: await reachableEngines() },
  testTimeout: 60000,
});
