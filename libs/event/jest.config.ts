// Jest loads this file before the workspace's path aliases are known, hence the relative import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { reachableEngines } from '../shared/testing/src/mysql-server';

/*
 * The library's tests: pure units, and its services on a real database without HTTP (`*.integration.spec.ts`,
 * through `startServices`), on SQLite and, whenever it is reachable, on MySQL; with REQUIRE_MYSQL=1 an unreachable
 * MySQL fails the run instead of being left out.
 */
export default async () => ({
  displayName: 'event',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  globals: { TEST_ENGINES: await reachableEngines() },
  testTimeout: 60000,
});
