import { RecordEntity, RecordTranslationEntity } from '@calendar/records';
import { CarriedListingState } from '@calendar/shared/search';
import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryColumn, Relation } from 'typeorm';

@Entity('events')
export class EventEntity extends RecordEntity {
  /** IANA name or `UTC±H[:MM]`, as the client gave it. */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  @Column({ name: 'all_day', type: 'boolean', default: false })
  allDay: boolean;

  @Column({ name: 'start_utc', type: 'datetime' })
  startUtc: Date;

  @Column({ name: 'end_utc', type: 'datetime' })
  endUtc: Date;

  /** The cost text as entered. */
  @Column({ type: 'varchar', length: 255, default: '' })
  cost: string;

  @Column({ type: 'varchar', length: 2000, default: '' })
  website: string;

  @Column({ name: 'show_map', type: 'boolean', default: true })
  showMap: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', default: true })
  showMapLink: boolean;

  @Column({ name: 'hide_from_listings', type: 'boolean', default: false })
  hideFromListings: boolean;

  @Column({ type: 'boolean', default: false })
  sticky: boolean;

  @Column({ type: 'boolean', default: false })
  featured: boolean;

  @Column({ name: 'post_parent', type: 'integer', default: 0 })
  postParent: number;

  /** scrypt hash of the event password (`salt:hash`), or null when the event is not protected. */
  @Column({ name: 'password_hash', type: 'varchar', length: 200, nullable: true })
  passwordHash: string | null;

  /** Replaced by a new random value on every write to the event: its renderings are kept under it. */
  @Column({ type: 'integer', default: 0 })
  revision: number;

  /** The series' RFC 5545 lines as normalised, one per line (SPEC §13); null for an event that does not recur. Heads and occurrences carry it. */
  @Column({ type: 'text', nullable: true })
  recurrence: string | null;

  /** On an occurrence: the id of its series' head; null on heads and single events. */
  @Column({ name: 'series_id', type: 'integer', nullable: true })
  seriesId: number | null;

  /** On an occurrence: the start its series' rule gives it (its RECURRENCE-ID), whatever start it was moved to. */
  @Column({ name: 'recurrence_start', type: 'datetime', nullable: true })
  recurrenceStart: Date | null;

  /** On an occurrence: the fields edited on it alone, which its head no longer writes (comma-separated keys). */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  detached: string | null;

  /** On an occurrence: it went to the trash with its head, and comes back with it. */
  @Column({ name: 'series_trashed', type: 'boolean', default: false })
  seriesTrashed: boolean;

  /** On a head: the time up to which its occurrences are written; null when the series ends within it. */
  @Column({ name: 'materialized_until', type: 'datetime', nullable: true })
  materializedUntil: Date | null;

  @OneToMany(() => EventTranslationEntity, (translation) => translation.event)
  translations: Relation<EventTranslationEntity[]>;
}

@Entity('event_translations')
export class EventTranslationEntity extends RecordTranslationEntity {
  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @Column({ type: 'text', nullable: true })
  excerpt: string | null;

  @ManyToOne(() => EventEntity, (event) => event.translations, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event: Relation<EventEntity>;
}

/**
 * An event's venues, in the order they were given; each carries the event's start and listing state (a radius list
 * checks its events on the links it reads).
 */
@Entity('event_venues')
@Index('ix_event_venues_start', ['venueId', 'startUtc', 'eventId'])
@Index('ix_event_venues_cell', ['geoCell', 'startUtc', 'venueId', 'eventId', 'listed', 'endUtc', 'featured'])
export class EventVenueEntity extends CarriedListingState {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId: number;

  @PrimaryColumn({ name: 'venue_id', type: 'integer' })
  venueId: number;

  @Column({ type: 'integer', default: 0 })
  position: number;

  /**
   * The event's start as `events.start_utc` holds it (migration EventVenueStarts1769040000000), written with the
   * link lists (`EventRepository.refreshLinkLists`): lists within a radius read the links of a window by it.
   */
  @Column({ name: 'start_utc', type: 'datetime', nullable: true })
  startUtc: Date | null;

  /**
   * The cell of the venue's coordinates (`geoCellSql`, migration EventVenueCells1769385600000), written with the
   * link lists and again when the venue's coordinates change: lists within a radius read the links of a window by it.
   */
  @Column({ name: 'geo_cell', type: 'integer', nullable: true })
  geoCell: number | null;
}

/** An event's organizers, in the order they were given. */
@Entity('event_organizers')
@Index('ix_event_organizers_start', ['organizerId', 'startUtc', 'eventId'])
export class EventOrganizerEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId: number;

  @PrimaryColumn({ name: 'organizer_id', type: 'integer' })
  organizerId: number;

  @Column({ type: 'integer', default: 0 })
  position: number;

  /**
   * The event's start as `events.start_utc` holds it (migration EventOrganizerStarts1769212800000), written with the
   * link lists (`EventRepository.refreshLinkLists`): lists of an organizer read the links of a window by it.
   */
  @Column({ name: 'start_utc', type: 'datetime', nullable: true })
  startUtc: Date | null;
}

/** An event's categories and tags. */
@Entity('event_terms')
@Index('ix_event_terms_start', ['termId', 'startUtc', 'eventId'])
export class EventTermEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId: number;

  @PrimaryColumn({ name: 'term_id', type: 'integer' })
  termId: number;

  @Column({ type: 'integer', default: 0 })
  position: number;

  /**
   * The event's start as `events.start_utc` holds it (migration EventTermStarts1769126400000), written with the
   * link lists (`EventRepository.refreshLinkLists`): lists of a category or tag read the links of a window by it.
   */
  @Column({ name: 'start_utc', type: 'datetime', nullable: true })
  startUtc: Date | null;
}
