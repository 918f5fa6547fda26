import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from '@calendar/shared/http';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 60 })
  login: string;

  @Column({ type: 'varchar', length: 20 })
  role: Role;

  @CreateDateColumn({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
