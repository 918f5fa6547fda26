import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config';

@Global()
@Module({})
export class ConfigModule {
  /** Provides the validated AppConfig everywhere; `config` overrides the environment (tests). */
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
