import { Module } from '@nestjs/common';
import { EventModule } from '@calendar/event';
import { I18nModule } from '@calendar/i18n';
import { AuthModule } from '@calendar/shared/auth';
import { ConfigModule } from '@calendar/shared/config';
import { DatabaseModule } from '@calendar/shared/database';
import { HttpPlatformModule } from '@calendar/shared/http';

/** The service's modules without HTTP: its database (migrated at start) and what event writes apply of their effects. */
@Module({ imports: [ConfigModule.forRoot(), HttpPlatformModule, DatabaseModule.forRoot(), I18nModule, AuthModule, EventModule] })
export class SeedModule {}
