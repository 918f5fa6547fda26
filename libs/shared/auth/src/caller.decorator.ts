import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Caller } from '@calendar/shared/http';
import type { FastifyRequest } from 'fastify';

/** The authenticated caller, or null. */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller | null => {
  return context.switchToHttp().getRequest<FastifyRequest>().caller ?? null;
});
