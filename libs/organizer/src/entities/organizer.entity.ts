import { RecordEntity, RecordTranslationEntity } from '@calendar/records';
import { Column, Entity, JoinColumn, ManyToOne, OneToMany, Relation } from 'typeorm';

@Entity('organizers')
export class OrganizerEntity extends RecordEntity {
  @Column({ type: 'varchar', length: 60, default: '' })
  phone: string;

  @Column({ type: 'varchar', length: 2000, default: '' })
  website: string;

  @Column({ type: 'varchar', length: 254, default: '' })
  email: string;

  @OneToMany(() => OrganizerTranslationEntity, (translation) => translation.organizer)
  translations: Relation<OrganizerTranslationEntity[]>;
}

@Entity('organizer_translations')
export class OrganizerTranslationEntity extends RecordTranslationEntity {
  @Column({ name: 'organizer_id', type: 'integer' })
  organizerId: number;

  @ManyToOne(() => OrganizerEntity, (organizer) => organizer.translations, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer: Relation<OrganizerEntity>;
}
