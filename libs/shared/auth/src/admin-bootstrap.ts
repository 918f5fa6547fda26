import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '@calendar/shared/config';
import { TokenService } from './token.service';
import { UserService } from './user.service';

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
    if (!token) return;
    const admin = await this.users.ensure('admin', 'administrator');
    if (!(await this.tokens.hasLiveToken(admin, token))) await this.tokens.issue(admin, token);
  }
}
