import { createConnection } from 'mysql2/promise';

// This file imports no workspace alias: the e2e jest configuration loads it before aliases are known.

/** The server the MySQL tests use: MYSQL_TEST_URL, else the local MariaDB/MySQL as root. */
export function mysqlServerUrl(): string {
  return process.env['MYSQL_TEST_URL'] ?? 'mysql://root@127.0.0.1:3306';
}

export async function mysqlReachable(url = mysqlServerUrl()): Promise<boolean> {
  try {
    const connection = await createConnection({ uri: url, connectTimeout: 3000 });
    await connection.query('SELECT 1');
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The engines a project's database tests run on: SQLite, and MySQL whenever it is reachable; with REQUIRE_MYSQL=1 an
 * unreachable MySQL fails the run instead of being left out.
 */
export async function reachableEngines(): Promise<string[]> {
  if (await mysqlReachable()) return ['sqlite', 'mysql'];
  if (process.env['REQUIRE_MYSQL'] === '1') throw new Error(`REQUIRE_MYSQL=1 but MySQL is not reachable at ${mysqlServerUrl()}`);
  return ['sqlite'];
}
