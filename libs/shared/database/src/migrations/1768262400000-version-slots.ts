import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';
import { createTable } from './schema-helpers';

/** Rows the versions are spread over (VERSION_SLOTS; fixed here as the migration wrote them). */
const SLOTS = 32;

const key = (name: string, type: string): TableColumnOptions => ({ name, type, isPrimary: true });

/** The write log anew with these key columns (what it held is of no use under another keying). */
async function replaceWriteLog(queryRunner: QueryRunner, columns: TableColumnOptions[]): Promise<void> {
  await queryRunner.dropTable('write_log');
  await createTable(queryRunner, new Table({ name: 'write_log', columns }));
}

/**
 * The data versions spread over rows: every write transaction moves one slot's counts on (`writes`, and those of
 * the parts it changes) instead of the one row of `data_version` that every write had to update, so that
 * concurrent writes, on one server or on the nodes of a cluster, do not all wait on or conflict over that row.
 * The versions are the sums over the slots. The write log records each write by its slot and the slot's count.
 */
export class VersionSlots1768262400000 implements MigrationInterface {
  name = 'VersionSlots1768262400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const counter = (name: string) => ({ name, type: 'bigint', default: 0 });
    await createTable(
      queryRunner,
      new Table({
        name: 'version_slots',
        columns: [{ name: 'slot', type: 'integer', isPrimary: true }, counter('writes'), counter('venues'), counter('organizers'), counter('terms')],
      }),
    );
    // Slot 0 carries the versions on from where the single row left them.
    const [old] = await queryRunner.query(
      'SELECT MAX(CASE WHEN id = 1 THEN version END) AS writes, MAX(CASE WHEN id = 2 THEN version END) AS venues, MAX(CASE WHEN id = 3 THEN version END) AS organizers, MAX(CASE WHEN id = 4 THEN version END) AS terms FROM data_version',
    );
    const rows = Array.from({ length: SLOTS }, (_, slot) => (slot === 0 ? [0, old.writes, old.venues, old.organizers, old.terms].map((value) => Number(value ?? 0)) : [slot, 0, 0, 0, 0]));
    await queryRunner.query(`INSERT INTO version_slots (slot, writes, venues, organizers, terms) VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}`, rows.flat());
    await queryRunner.dropTable('data_version');
    await replaceWriteLog(queryRunner, [key('slot', 'integer'), key('seq', 'bigint'), key('event_id', 'integer')]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [sums] = await queryRunner.query('SELECT SUM(writes) AS writes, SUM(venues) AS venues, SUM(organizers) AS organizers, SUM(terms) AS terms FROM version_slots');
    await createTable(
      queryRunner,
      new Table({
        name: 'data_version',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'version', type: 'integer', default: 0 },
        ],
      }),
    );
    const versions = [sums.writes, sums.venues, sums.organizers, sums.terms].map((value) => Number(value ?? 0));
    await queryRunner.query('INSERT INTO data_version (id, version) VALUES (1, ?), (2, ?), (3, ?), (4, ?)', versions);
    await replaceWriteLog(queryRunner, [key('version', 'integer'), key('event_id', 'integer')]);
    await queryRunner.dropTable('version_slots');
  }
}
