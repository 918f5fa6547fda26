import { BeforeInsert, Column, Entity, OneToMany, PrimaryGeneratedColumn, Relation } from 'typeorm';
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

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'modified_at', type: 'datetime' })
  modifiedAt: Date;

  @BeforeInsert()
  protected stampCreation(): void {
    this.createdAt ??= new Date();
    this.modifiedAt ??= this.createdAt;
  }


  @OneToMany(() => TermTranslationEntity, (translation) => translation.term)
  translations: Relation<TermTranslationEntity[]>;
}
