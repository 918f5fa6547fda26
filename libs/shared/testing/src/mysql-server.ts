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
