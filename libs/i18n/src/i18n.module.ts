import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { I18nService } from './i18n.service';
import { LanguageInterceptor } from './language.interceptor';

@Global()
@Module({
  providers: [I18nService, { provide: APP_INTERCEPTOR, useClass: LanguageInterceptor }],
  exports: [I18nService],
})
export class I18nModule {}
