import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, exactText } from './schema-helpers';

/**
 * Exact list totals whose cost does not grow with the window (SPEC §10.2). `event_day_counts` holds, per filter key
 * (`*` for every event, `k<term id>`, `v<venue id>`, `o<organizer id>`, `f0`/`f1` for featured) and per local day
 * an event starts on in the service's time zone (days since 1970-01-01), how many events start that day and end
 * `length` days later, as anonymous readers see them (`public_n`) and as editors do (`editor_n`). Each write adds to
 * the rows of its `slot` (0, or on a Galera node the node's own), so that writes through different nodes never
 * certify against each other on a count; a total sums the slots. `event_tallies` is what each event
 * counts for now (its audiences, start day, length and keys), so that a write takes exactly that back.
 * `event_tally_state` names the time zone the days were counted in; the service counts everything again at start
 * when it differs, and fills the tables the first time.
 */
export class EventDayCounts1768348800000 implements MigrationInterface {
  name = 'EventDayCounts1768348800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'event_day_counts',
        columns: [
          { ...exactText(queryRunner, 'filter_key', 24), isPrimary: true },
          { name: 'day', type: 'integer', isPrimary: true },
          { name: 'length', type: 'integer', isPrimary: true },
          { name: 'slot', type: 'integer', isPrimary: true },
          { name: 'public_n', type: 'integer', default: 0 },
          { name: 'editor_n', type: 'integer', default: 0 },
        ],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'event_tallies',
        columns: [
          { name: 'event_id', type: 'integer', isPrimary: true },
          { name: 'audiences', type: 'integer' },
          { name: 'day', type: 'integer' },
          { name: 'length', type: 'integer' },
          { name: 'filter_keys', type: 'text' },
        ],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'event_tally_state',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'zone', type: 'varchar', length: '64', isNullable: true },
        ],
      }),
    );
    await queryRunner.query('INSERT INTO event_tally_state (id, zone) VALUES (1, NULL)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['event_tally_state', 'event_tallies', 'event_day_counts']) await queryRunner.dropTable(table);
  }
}
