import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './schema-helpers';

const BEFORE = ['status', 'hide_from_listings', 'start_utc', 'id', 'end_utc'];

/**
 * The listing index (`ix_events_listing`) also holds whether an event is featured: a list driven from a word's
 * matches or a radius's links that asks for `featured` finds and checks its events on that index alone, as the
 * others do (`EventRepository.joinsByListing`), instead of reading each event's row by key.
 */
export class EventListingFeatured1769558400000 implements MigrationInterface {
  name = 'EventListingFeatured1769558400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.replace(queryRunner, [...BEFORE, 'featured']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.replace(queryRunner, BEFORE);
  }

  /** The index under the same name with `columns`: in one statement on MySQL and MariaDB, so a read never lacks it. */
  private async replace(queryRunner: QueryRunner, columns: string[]): Promise<void> {
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE events DROP INDEX ix_events_listing, ADD INDEX ix_events_listing (${columns.join(', ')})`);
      return;
    }
    await queryRunner.query('DROP INDEX ix_events_listing');
    await queryRunner.query(`CREATE INDEX ix_events_listing ON events (${columns.join(', ')})`);
  }
}
