import { Global, Module } from '@nestjs/common';
import { LinkBuilder } from './links';
import { ConfiguredLanguageConstraint } from './localized.dto';
import { Metrics, MetricsController } from './metrics';

@Global()
@Module({ controllers: [MetricsController], providers: [LinkBuilder, ConfiguredLanguageConstraint, Metrics], exports: [LinkBuilder, ConfiguredLanguageConstraint, Metrics] })
export class HttpPlatformModule {}
