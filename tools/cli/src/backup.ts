import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AppConfig } from '@calendar/shared/config';
import { DataMoveError } from './data-move';

/**
 * A consistent copy of the embedded SQLite database while the service runs and writes (SQLite's online backup
 * API): the copy is of one moment, and the service goes on writing meanwhile. After a first step of 100 pages,
 * every page left is copied in one step, so that writes made between steps do not start the copy again and again.
 * The copy is checked (`PRAGMA integrity_check`) before the command answers.
 */
export async function backupSqlite(config: AppConfig, to: string): Promise<{ backup: string; pages: number; bytes: number }> {
  if (config.database.type !== 'sqlite') {
    throw new DataMoveError('backup copies the embedded SQLite database; for MySQL or MariaDB use mariadb-dump --single-transaction or mariabackup (see the README, "Backups")');
  }
  if (config.database.file === ':memory:') throw new DataMoveError('an in-memory database has nothing to back up');
  if (!existsSync(config.database.file)) throw new DataMoveError(`there is no database file ${config.database.file}`);
  if (existsSync(to)) throw new DataMoveError(`${to} exists already: name a new file`);
  const source = new Database(config.database.file, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 10000');
    const result = await source.backup(to, { progress: ({ totalPages }) => totalPages });
    const copy = new Database(to, { readonly: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new DataMoveError(`the copy failed its integrity check: ${String(check)}`);
      const pageSize = Number(copy.pragma('page_size', { simple: true }));
      return { backup: to, pages: result.totalPages, bytes: result.totalPages * pageSize };
    } finally {
      copy.close();
    }
  } finally {
    source.close();
  }
}
