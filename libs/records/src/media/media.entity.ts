import { BeforeInsert, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An image the service knows by URL (SPEC §4.6); the service never downloads it. */
@Entity('media')
export class MediaEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  url: string;

  /** SHA-256 of the URL: a fixed-size unique key for URLs of any length. */
  @Column({ name: 'url_hash', type: 'varchar', length: 64 })
  urlHash: string;

  @Column({ type: 'varchar', length: 10 })
  extension: string;

  @Column({ type: 'integer', nullable: true })
  width: number | null;

  @Column({ type: 'integer', nullable: true })
  height: number | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @BeforeInsert()
  protected stampCreation(): void {
    this.createdAt ??= new Date();
  }
}
