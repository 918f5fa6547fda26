import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '@calendar/shared/config';
import { isDeadlock, isUniqueViolation } from '@calendar/shared/http';
import { TokenService } from './token.service';
import { UserService } from './user.service';

/** How often the bootstrap looks again after another instance made the same rows at the same time. */
export const BOOTSTRAP_ATTEMPTS = 8;

/** With ADMIN_TOKEN set, an `admin` administrator exists and that token works (SPEC §8). */
@Injectable()
export class AdminBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly config: AppConfig,
    private readonly users: UserService,
    private readonly tokens: TokenService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const token = this.config.adminToken;
    if (token) await this.ensureAdmin(token);
  }

  /**
   * Instances started together on one database (several behind a balancer, one per Galera node) all make sure of
   * the same user and token. One that loses the race meets a unique key or, on Galera, a certification conflict:
   * the rows are there by then, and looking again finds them.
   */
  async ensureAdmin(token: string): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.tokens.grant(await this.users.ensure('admin', 'administrator'), token);
        return;
      } catch (error) {
        if (attempt >= BOOTSTRAP_ATTEMPTS || !(isUniqueViolation(error) || isDeadlock(error))) throw error;
        await sleep(Math.random() * 20 * attempt);
      }
    }
  }
}
