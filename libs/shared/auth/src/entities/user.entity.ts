import { BeforeInsert, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from '@calendar/shared/http';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 60 })
  login: string;

  @Column({ type: 'varchar', length: 20 })
  role: Role;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @BeforeInsert()
  protected stampCreation(): void {
    this.createdAt ??= new Date();
  }
}
