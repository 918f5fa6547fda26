import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * `change_sequence.linked_seq`: the newest position given to a change of anything but an event (a venue, organizer,
 * category or tag, which events embed). A sync of events from a token whose position is at or after it reads no
 * such change, and its statement leaves out the branches that would look for them (`ChangeRange.linked`). Filled
 * from the rows already there; the sequencer (`ChangeLog.sequence`) moves it in the transaction that gives positions.
 */
export class ChangeSequenceLinked1768867200000 implements MigrationInterface {
  name = 'ChangeSequenceLinked1768867200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('change_sequence', new TableColumn({ name: 'linked_seq', type: 'bigint', default: 0 }));
    const [row] = await queryRunner.query("SELECT MAX(seq) AS seq FROM changes WHERE kind <> 'event'");
    await queryRunner.query('UPDATE change_sequence SET linked_seq = ? WHERE id = 1', [Number(row?.seq ?? 0)]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('change_sequence', 'linked_seq');
  }
}
