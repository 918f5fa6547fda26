import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Role } from '@calendar/shared/http';
import { EntityManager, Repository } from 'typeorm';
import { UserEntity } from './entities/user.entity';
import { ROLES } from './permissions';

export class UserInputError extends Error {}

export const LOGIN_PATTERN = /^[A-Za-z0-9._@-]{1,60}$/;

@Injectable()
export class UserService {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  async create(login: string, role: string): Promise<UserEntity> {
    if (!LOGIN_PATTERN.test(login)) throw new UserInputError('login must be 1 to 60 letters, digits or . _ @ -');
    if (!ROLES.includes(role as Role)) throw new UserInputError(`role must be one of: ${ROLES.join(', ')}`);
    if (await this.users.exists({ where: { login } })) throw new UserInputError(`a user with login "${login}" already exists`);
    return this.users.save(this.users.create({ login, role: role as Role }));
  }

  findByLogin(login: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { login } });
  }

  /** `manager`: the transaction of a write that asks (its queries must stay on its connection). */
  findById(id: number, manager: EntityManager = this.users.manager): Promise<UserEntity | null> {
    return manager.getRepository(UserEntity).findOne({ where: { id } });
  }

  list(): Promise<UserEntity[]> {
    return this.users.find({ order: { id: 'ASC' } });
  }

  /**
   * Makes sure the user exists with the role (created or updated). Two callers doing so at once may both find no
   * user: the second insert then fails on the unique login, and the caller asks again (see `AdminBootstrap`).
   */
  async ensure(login: string, role: Role): Promise<UserEntity> {
    const existing = await this.findByLogin(login);
    if (!existing) return this.users.save(this.users.create({ login, role }));
    if (existing.role !== role) {
      existing.role = role;
      await this.users.save(existing);
    }
    return existing;
  }
}
