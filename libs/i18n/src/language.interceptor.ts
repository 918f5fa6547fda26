import { CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { I18nService } from './i18n.service';

/** Settles the language of each request once its parameters are merged (after authentication). */
@Injectable()
export class LanguageInterceptor implements NestInterceptor {
  constructor(private readonly i18n: I18nService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    request.language = this.i18n.resolve(request.params_?.['translation_language'], request.urlLanguage);
    return next.handle();
  }
}

/** The language of the request (SPEC §2.3). */
export const RequestLanguage = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const language = context.switchToHttp().getRequest<FastifyRequest>().language;
  if (!language) throw new Error('RequestLanguage used on a route the LanguageInterceptor did not see');
  return language;
});
