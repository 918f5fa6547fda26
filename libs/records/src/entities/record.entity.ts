import { BeforeInsert, Column, PrimaryGeneratedColumn } from 'typeorm';
import type { RecordStatus } from '../record-status';

/**
 * The columns every publishable record has (SPEC §3.4): venues, organizers and events extend it.
 * Times are stored in UTC.
 */
export abstract class RecordEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'author_id', type: 'integer' })
  authorId: number;

  @Column({ type: 'varchar', length: 20 })
  status: RecordStatus;

  /** The status before the record went to the trash, so that a restore loses nothing. */
  @Column({ name: 'previous_status', type: 'varchar', length: 20, nullable: true })
  previousStatus: RecordStatus | null;

  @Column({ name: 'original_lang', type: 'varchar', length: 16 })
  originalLang: string;

  @Column({ name: 'image_id', type: 'integer', nullable: true })
  imageId: number | null;

  /** Publication date. */
  @Column({ name: 'published_at', type: 'datetime' })
  publishedAt: Date;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'modified_at', type: 'datetime' })
  modifiedAt: Date;

  abstract translations: RecordTranslationEntity[];

  @BeforeInsert()
  protected stampCreation(): void {
    const now = new Date();
    this.createdAt ??= now;
    this.modifiedAt ??= now;
    this.publishedAt ??= now;
  }
}

/** One language's texts of a record; the owner's foreign key is declared by each subclass. */
export abstract class RecordTranslationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 16 })
  lang: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 200 })
  slug: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;
}
