import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * `event_tally_state.scheme` names which keys the totals per day were counted under: 1, each filter value alone;
 * from 2, every two of them too (lists that ask two filters, SPEC §10.2). The service counts everything again at
 * start when it differs from the one it counts under (`TALLY_SCHEME`), as it does when the time zone differs.
 */
export class TallyScheme1768780800000 implements MigrationInterface {
  name = 'TallyScheme1768780800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('event_tally_state', new TableColumn({ name: 'scheme', type: 'integer', default: 1 }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('event_tally_state', 'scheme');
  }
}
