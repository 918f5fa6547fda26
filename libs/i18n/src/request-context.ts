import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Caller } from '@calendar/shared/http';
import type { FastifyRequest } from 'fastify';

/** What a service needs to know about the request it serves: who asks, in which language, at which address. */
export interface RequestContext {
  request: FastifyRequest;
  language: string;
  caller: Caller | null;
}

export const Context = createParamDecorator((_data: unknown, context: ExecutionContext): RequestContext => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (!request.language) throw new Error('Context used on a request whose language was not resolved (installRequestLanguage)');
  return { request, language: request.language, caller: request.caller ?? null };
});
