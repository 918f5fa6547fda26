import { DataSource } from 'typeorm';

/** The name of the lock instances take to migrate (MySQL/MariaDB `GET_LOCK`, server-wide). */
const MIGRATION_LOCK = 'calendar_migrations';
const LOCK_WAIT_SECONDS = 300;

/**
 * Applies the pending migrations (SPEC §9, §15), one instance at a time, so that instances started at once wait
 * for the first one and then find nothing left to do. MySQL/MariaDB: each instance takes a named lock on a
 * connection of its own and holds it while it migrates. SQLite: all of them in one transaction that takes the
 * file's write lock first (`BEGIN IMMEDIATE`; another process waits for it), in which the history is read again.
 */
export async function migrate(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    await dataSource.query('BEGIN IMMEDIATE');
    try {
      await dataSource.runMigrations({ transaction: 'none' });
      await dataSource.query('COMMIT');
    } catch (error) {
      await dataSource.query('ROLLBACK');
      throw error;
    }
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
