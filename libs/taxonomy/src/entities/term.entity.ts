import { Column, CreateDateColumn, Entity, OneToMany, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Taxonomy } from '../taxonomy';
import { TermTranslationEntity } from './term-translation.entity';

/** A category or a tag. Both share one id sequence (SPEC §11.17). */
@Entity('terms')
export class TermEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 32 })
  taxonomy: Taxonomy;

  /** 0 at the top level; tags are always 0. */
  @Column({ name: 'parent_id', type: 'integer', default: 0 })
  parentId: number;

  @Column({ name: 'original_lang', type: 'varchar', length: 16 })
  originalLang: string;

  /** Published events carrying the term; kept up to date by the side that links events to terms. */
  @Column({ name: 'event_count', type: 'integer', default: 0 })
  eventCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'modified_at', type: 'datetime' })
  modifiedAt: Date;

  @OneToMany(() => TermTranslationEntity, (translation) => translation.term, { cascade: ['insert', 'update'] })
  translations: TermTranslationEntity[];
}
