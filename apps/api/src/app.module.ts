import { DynamicModule, Module } from '@nestjs/common';
import { EventModule } from '@calendar/event';
import { I18nModule } from '@calendar/i18n';
import { AuthModule } from '@calendar/shared/auth';
import { AppConfig, ConfigModule } from '@calendar/shared/config';
import { DatabaseModule } from '@calendar/shared/database';
import { DiscoveryModule, HttpPlatformModule } from '@calendar/shared/http';
import { OrganizerModule } from '@calendar/organizer';
import { TaxonomyModule } from '@calendar/taxonomy';
import { VenueModule } from '@calendar/venue';
import { WebModule } from '@calendar/web';
import { WebhookModule } from '@calendar/webhook';

/** The composition root: the platform, then one module per bounded context, and the public pages on top of them. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), HttpPlatformModule, DatabaseModule.forRoot(), I18nModule, AuthModule, DiscoveryModule, EventModule, VenueModule, OrganizerModule, TaxonomyModule, WebModule, WebhookModule],
    };
  }
}
