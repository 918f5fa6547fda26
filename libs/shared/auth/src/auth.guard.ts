import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiException, OWN_CREDENTIALS } from '@calendar/shared/http';
import type { FastifyRequest } from 'fastify';
import { TokenService } from './token.service';

const REQUIRES_LOGIN = 'calendar:requires-login';

/** Marks a handler (or controller) that anonymous callers may not use: they get 401 before any parameter check. */
export const RequiresLogin = (): MethodDecorator & ClassDecorator => SetMetadata(REQUIRES_LOGIN, true);

/**
 * Authenticates every request that sends credentials (wrong ones are 401 on every route, SPEC §11.5) and
 * stops anonymous callers on routes that need a login. Runs before validation, as SPEC §3.1 orders.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly tokens: TokenService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // A route that reads its own credentials (/metrics and its METRICS_TOKEN).
    if (this.reflector.get<boolean>(OWN_CREDENTIALS, context.getHandler())) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    if (header !== undefined) {
      // Looked up already when rate limits are on (installRateLimits).
      const caller = request.authenticated !== undefined ? request.authenticated : await this.tokens.authenticate(header);
      if (!caller) throw ApiException.invalidCredentials();
      request.caller = caller;
    }
    const requiresLogin = this.reflector.getAllAndOverride<boolean>(REQUIRES_LOGIN, [context.getHandler(), context.getClass()]);
    if (requiresLogin && !request.caller) throw ApiException.notLoggedIn();
    return true;
  }
}
