import { MigrationInterface, QueryRunner } from 'typeorm';
import { addLinkStarts, dropLinkStarts } from './schema-helpers';

/**
 * Each category and tag link of an event carries the event's start (`event_terms.start_utc`, as `events.start_utc`
 * holds it), indexed after the term: a list of a term then reads the term's links that start in its window (one
 * index range per term) instead of every event that ever carried the term (SPEC §10.2: the cost follows the
 * events of the window, not the calendar's age). The write path writes it with the link lists, as it writes the
 * venue links' starts (EventVenueStarts1769040000000).
 */
export class EventTermStarts1769126400000 implements MigrationInterface {
  name = 'EventTermStarts1769126400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addLinkStarts(queryRunner, 'event_terms', 'term_id');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropLinkStarts(queryRunner, 'event_terms');
  }
}
