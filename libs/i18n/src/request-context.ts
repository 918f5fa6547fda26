import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ReadScope, requestOrigin, versionsOf } from '@calendar/shared/http';
import type { FastifyRequest } from 'fastify';

/** What a service is given of the request it serves: the read scope (no HTTP request reaches a service). */
export type RequestContext = ReadScope;

/** The read scope of a request: its caller, language, origin and the data versions it is answered at. */
export function scopeOf(request: FastifyRequest): RequestContext {
  if (!request.language) throw new Error('A scope asked of a request whose language was not resolved (installRequestLanguage)');
  return { language: request.language, caller: request.caller ?? null, origin: requestOrigin(request), versions: versionsOf(request) };
}

export const Context = createParamDecorator((_data: unknown, context: ExecutionContext): RequestContext => scopeOf(context.switchToHttp().getRequest<FastifyRequest>()));
