import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The columns of a row that stands for an event in a list read from a set (search rows, venue links): its event's
 * listing state as the event's row holds it (`listing-state.ts` in the database library, migration
 * ListingStateCarried1769644800000), written with its start; null on search rows of other kinds.
 */
export abstract class CarriedListingState {
  @Column({ type: 'boolean', nullable: true })
  listed: boolean | null;

  @Column({ name: 'end_utc', type: 'datetime', nullable: true })
  endUtc: Date | null;

  @Column({ type: 'boolean', nullable: true })
  featured: boolean | null;
}

/** A row of the full-text index (migration SearchTokens1767571200000): `record_id` of `kind` has `token` in `lang`. */
@Entity('search_tokens')
@Index('ix_search_tokens_record', ['kind', 'recordId'])
@Index('ix_search_tokens_start', ['kind', 'token', 'startUtc', 'recordId', 'lang', 'original', 'listed', 'endUtc', 'featured'])
export class SearchTokenEntity extends CarriedListingState {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  token: string;

  @PrimaryColumn({ name: 'record_id', type: 'integer' })
  recordId: number;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  lang: string;

  /** The row comes from the record's original language, which also serves languages it has no text in. */
  @Column({ type: 'boolean', default: false })
  original: boolean;

  /** An event's start as `events.start_utc` holds it (migration SearchTokenStart1768694400000); null for other kinds. */
  @Column({ name: 'start_utc', type: 'datetime', nullable: true })
  startUtc: Date | null;
}
