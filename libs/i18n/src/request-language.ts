import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { I18nService } from './i18n.service';

/**
 * Resolves the language of every request (SPEC §2.3) in a Fastify `preValidation` hook, installed after the one that
 * merges the parameters (`translation_language` may come in the query or the body): guards, handlers and the
 * exception filter all find it on the request. A hook rather than a Nest interceptor, which would cost every
 * request an rxjs chain and an async resource (docs/benchmarks.md, "Interceptors").
 */
export function installRequestLanguage(app: NestFastifyApplication): void {
  const i18n = app.get(I18nService);
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.addHook('preValidation', (request, _reply, done) => {
    request.language = i18n.resolve(request.params_?.['translation_language'], request.urlLanguage);
    done();
  });
}

/** The language of the request (SPEC §2.3). */
export const RequestLanguage = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const language = context.switchToHttp().getRequest<FastifyRequest>().language;
  if (!language) throw new Error('RequestLanguage used on a request whose language was not resolved (installRequestLanguage)');
  return language;
});
