import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '@calendar/shared/config';
import { ConfiguredLanguageConstraint, configureHttpPlatform, createHttpAdapter, createLogger, DiscoveryService, JsonNestLogger, Logger, OpenApiDocument } from '@calendar/shared/http';
import { installRequestLanguage } from '@calendar/i18n';
import { installRateLimits } from '@calendar/shared/auth';
import { PAGE_PATHS } from '@calendar/web';
import { useContainer } from 'class-validator';
import { AppModule } from './app.module';

/** Creates the application for a configuration: the one path used by `main.ts` and by every e2e test. */
export async function createApp(config: AppConfig, logger: Logger = createLogger(config.logLevel)): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), createHttpAdapter(config), {
    bodyParser: false,
    logger: new JsonNestLogger(logger),
    abortOnError: false,
  });
  await bootstrap(app, config, logger);
  return app;
}

/** Installs the platform (parsers, hooks, errors, validation) and the language hook, generates the API description, and initialises. */
export async function bootstrap(app: NestFastifyApplication, config: AppConfig, logger: Logger): Promise<void> {
  await configureHttpPlatform(app, config, logger, PAGE_PATHS);
  await installRateLimits(app, config, logger);
  installRequestLanguage(app);
  // Validators that need configuration (the language list) are resolved from Nest; all others from class-validator.
  useContainer({ get: (type: unknown) => (type === ConfiguredLanguageConstraint ? app.get(ConfiguredLanguageConstraint) : undefined) } as never, {
    fallback: true,
    fallbackOnErrors: true,
  });
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setOpenAPIVersion('3.1.0')
      .setTitle('Event Calendar Service')
      .setDescription('Events, venues, organizers, categories and tags in several languages.')
      .setVersion('1')
      .addBearerAuth()
      .addBasicAuth()
      .build(),
  );
  app.get(DiscoveryService).setDocument(document as unknown as OpenApiDocument);
  await app.init();
}
