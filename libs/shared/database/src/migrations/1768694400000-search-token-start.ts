import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { dateTimeColumn, isMysql } from './schema-helpers';

/**
 * Each search row of an event carries the event's start, so that a list searching a window reads the rows of its
 * words that start within it (index on kind, token and start) instead of probing the words of every event of the
 * window (SPEC §10.2: with `search`, the cost follows the events that match).
 */
export class SearchTokenStart1768694400000 implements MigrationInterface {
  name = 'SearchTokenStart1768694400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('search_tokens', new TableColumn(dateTimeColumn('start_utc', true)));
    await queryRunner.query(
      isMysql(queryRunner)
        ? `UPDATE search_tokens s INNER JOIN events e ON e.id = s.record_id SET s.start_utc = e.start_utc WHERE s.kind = 'event'`
        : `UPDATE search_tokens SET start_utc = (SELECT e.start_utc FROM events e WHERE e.id = search_tokens.record_id) WHERE kind = 'event'`,
    );
    await queryRunner.createIndex('search_tokens', new TableIndex({ name: 'ix_search_tokens_start', columnNames: ['kind', 'token', 'start_utc'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('search_tokens', 'ix_search_tokens_start');
    await queryRunner.dropColumn('search_tokens', 'start_utc');
  }
}
