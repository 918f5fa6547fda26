import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiException } from './api-exception';
import { toApiException } from './error-mapping';
import { RouteRegistry } from './route-registry';

/**
 * An error answered as a page (public pages, SPEC §14): HTML with its status, never cached (errors do not reach
 * the response cache).
 */
export class HtmlErrorAnswer extends Error {
  constructor(
    readonly status: number,
    readonly html: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`page answered ${status}`);
  }
}

/** Renders every error as the envelope of SPEC §3.1; unknown ones are logged and become a generic 500. */
export function renderError(error: unknown, request: FastifyRequest, reply: FastifyReply, routes: RouteRegistry, logger: Logger): void {
  if (error instanceof HtmlErrorAnswer) {
    reply.status(error.status).headers(error.headers).type('text/html; charset=utf-8').send(error.html);
    return;
  }
  let mapped = toApiException(error);
  if (mapped === 'not-found') {
    const allowed = routes.methodsFor(request.url);
    mapped = allowed.length > 0 ? ApiException.methodNotAllowed(allowed) : ApiException.noRoute();
  }
  if (mapped.status === 503) logger.warn({ err: error, request_id: request.id }, 'database unavailable');
  else if (mapped.status >= 500) logger.error({ err: error, request_id: request.id }, 'request failed');
  reply.status(mapped.status).headers(mapped.headers).type('application/json; charset=utf-8').send(mapped.toBody());
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly routes: RouteRegistry,
    private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    renderError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.routes, this.logger);
  }
}
