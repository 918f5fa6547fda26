import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Relation } from 'typeorm';
import type { Taxonomy } from '../taxonomy';
import { TermEntity } from './term.entity';

/** One language's texts of a term. The slug is unique per taxonomy and language. */
@Entity('term_translations')
export class TermTranslationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'term_id', type: 'integer' })
  termId: number;

  @ManyToOne(() => TermEntity, (term) => term.translations, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'term_id' })
  term: Relation<TermEntity>;

  @Column({ type: 'varchar', length: 32 })
  taxonomy: Taxonomy;

  @Column({ type: 'varchar', length: 16 })
  lang: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 200 })
  slug: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;
}
