import { Global, Module } from '@nestjs/common';
import { LinkBuilder } from './links';
import { ConfiguredLanguageConstraint } from './localized.dto';

@Global()
@Module({ providers: [LinkBuilder, ConfiguredLanguageConstraint], exports: [LinkBuilder, ConfiguredLanguageConstraint] })
export class HttpPlatformModule {}
