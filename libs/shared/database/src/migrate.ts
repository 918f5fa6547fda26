import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeadlock, isUniqueViolation } from '@calendar/shared/http';
import { DataSource } from 'typeorm';
import { isGaleraNode } from './galera';

/** The name of the lock instances take to migrate (MySQL/MariaDB `GET_LOCK`, server-wide). */
const MIGRATION_LOCK = 'calendar_migrations';
const LOCK_WAIT_SECONDS = 300;

/**
 * SQLite's write lock for the migrations, waited for as long as MySQL's named lock is: the driver's busy handler
 * gives up after its 5 s, and another instance migrating an empty database on a loaded machine may hold the lock
 * longer than that.
 */
async function beginImmediate(dataSource: DataSource): Promise<void> {
  const giveUp = Date.now() + LOCK_WAIT_SECONDS * 1000;
  for (;;) {
    try {
      await dataSource.query('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      // On SQLite, `isDeadlock` is SQLITE_BUSY: another connection holds the file's write lock.
      if (!isDeadlock(error) || Date.now() > giveUp) throw error;
    }
    // The driver's wait blocks this process; a pause lets its other work (and an owner in this process) go on.
    await sleep(50);
  }
}

/**
 * Applies the pending migrations (SPEC §9, §15), one instance at a time, so that instances started at once wait
 * for the first one and then find nothing left to do. MySQL/MariaDB: each instance takes a named lock on a
 * connection of its own and holds it while it migrates. SQLite: all of them in one transaction that takes the
 * file's write lock first (`BEGIN IMMEDIATE`; another process waits for it), in which the history is read again.
 */
export async function migrate(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    await beginImmediate(dataSource);
    try {
      await dataSource.runMigrations({ transaction: 'none' });
      await dataSource.query('COMMIT');
    } catch (error) {
      await dataSource.query('ROLLBACK');
      throw error;
    }
    return;
  }
  if (await isGaleraNode((sql) => dataSource.query(sql))) {
    await migrateUnderLease(dataSource);
    return;
  }
  const holder = dataSource.createQueryRunner();
  await holder.connect();
  // Locks are named per server: the name carries the database, so that databases of one server migrate apart.
  const lock = `${MIGRATION_LOCK}:${String(dataSource.options.database ?? '')}`.slice(0, 64);
  try {
    const [row] = await holder.query('SELECT GET_LOCK(?, ?) AS locked', [lock, LOCK_WAIT_SECONDS]);
    if (Number(row.locked) !== 1) throw new Error(`another instance held the migration lock for more than ${LOCK_WAIT_SECONDS} s`);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await holder.query('SELECT RELEASE_LOCK(?)', [lock]);
    }
  } finally {
    await holder.release();
  }
}

/**
 * Galera replicates neither `GET_LOCK` nor row locks before commit: the lock there is a row that one instance of
 * the cluster manages to insert (a second insert of it on another node fails certification or meets the key), for
 * ten minutes at most, removed when the migrations are done.
 */
async function migrateUnderLease(dataSource: DataSource): Promise<void> {
  const holder = randomUUID();
  await dataSource.query('CREATE TABLE IF NOT EXISTS schema_migration_lease (id INT PRIMARY KEY, holder VARCHAR(64) NOT NULL, expires_at DATETIME NOT NULL) ENGINE=InnoDB');
  const deadline = Date.now() + LOCK_WAIT_SECONDS * 1000;
  for (;;) {
    await dataSource.query('DELETE FROM schema_migration_lease WHERE id = 1 AND expires_at < UTC_TIMESTAMP()');
    try {
      await dataSource.query('INSERT INTO schema_migration_lease (id, holder, expires_at) VALUES (1, ?, UTC_TIMESTAMP() + INTERVAL 10 MINUTE)', [holder]);
      break;
    } catch (error) {
      if (!isUniqueViolation(error) && !isDeadlock(error)) throw error;
      if (Date.now() > deadline) throw new Error(`another instance held the migration lease for more than ${LOCK_WAIT_SECONDS} s`);
      await sleep(250 + Math.random() * 250);
    }
  }
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.query('DELETE FROM schema_migration_lease WHERE id = 1 AND holder = ?', [holder]);
  }
}

