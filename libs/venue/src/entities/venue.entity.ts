import { RecordEntity, RecordTranslationEntity } from '@calendar/records';
import { Column, Entity, JoinColumn, ManyToOne, OneToMany, Relation } from 'typeorm';

@Entity('venues')
export class VenueEntity extends RecordEntity {
  @Column({ type: 'varchar', length: 255, default: '' })
  address: string;

  @Column({ type: 'varchar', length: 120, default: '' })
  city: string;

  @Column({ type: 'varchar', length: 120, default: '' })
  country: string;

  @Column({ type: 'varchar', length: 120, default: '' })
  province: string;

  @Column({ type: 'varchar', length: 120, default: '' })
  state: string;

  @Column({ type: 'varchar', length: 40, default: '' })
  zip: string;

  @Column({ type: 'varchar', length: 60, default: '' })
  phone: string;

  @Column({ type: 'varchar', length: 120, default: '' })
  stateprovince: string;

  @Column({ type: 'varchar', length: 2000, default: '' })
  website: string;

  @Column({ name: 'show_map', type: 'boolean', default: true })
  showMap: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', default: true })
  showMapLink: boolean;

  @Column({ name: 'geo_lat', type: 'double', nullable: true })
  geoLat: number | null;

  @Column({ name: 'geo_lng', type: 'double', nullable: true })
  geoLng: number | null;

  @OneToMany(() => VenueTranslationEntity, (translation) => translation.venue)
  translations: Relation<VenueTranslationEntity[]>;
}

@Entity('venue_translations')
export class VenueTranslationEntity extends RecordTranslationEntity {
  @Column({ name: 'venue_id', type: 'integer' })
  venueId: number;

  @ManyToOne(() => VenueEntity, (venue) => venue.translations, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'venue_id' })
  venue: Relation<VenueEntity>;
}
