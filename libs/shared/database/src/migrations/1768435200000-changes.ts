import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, exactText } from './schema-helpers';

/**
 * The change log that sync reads (SPEC §16.2). Each write adds a row per record it changed (`kind`: event, venue,
 * organizer, category or tag), in its own transaction, with no position yet (`seq` null). A position is given
 * after commit, by the sequencer (`ChangeLog.sequence`): it takes the next number of `change_sequence` and gives it
 * to every committed row that has none, in one transaction. So a position is only ever given to rows that are
 * visible, and a row that commits late (after a later one, or on another Galera node) gets a later position, never
 * one behind a token already handed out. `sequenced_at` (milliseconds since 1970) is when, for the retention;
 * `change_sequence.pruned` is the newest position whose rows were dropped (a token at or before it is expired).
 */
export class Changes1768435200000 implements MigrationInterface {
  name = 'Changes1768435200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'changes',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          exactText(queryRunner, 'kind', 16),
          { name: 'record_id', type: 'integer' },
          { name: 'seq', type: 'bigint', isNullable: true },
          { name: 'sequenced_at', type: 'bigint', isNullable: true },
        ],
        indices: [
          { name: 'idx_changes_seq', columnNames: ['seq'] },
          { name: 'idx_changes_kind_seq', columnNames: ['kind', 'seq', 'record_id'] },
        ],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'change_sequence',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'seq', type: 'bigint' },
          { name: 'pruned', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.query('INSERT INTO change_sequence (id, seq, pruned) VALUES (1, 0, 0)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['change_sequence', 'changes']) await queryRunner.dropTable(table);
  }
}
