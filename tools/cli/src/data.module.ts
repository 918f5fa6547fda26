import { DynamicModule, Module } from '@nestjs/common';
import { EventModule } from '@calendar/event';
import { I18nModule } from '@calendar/i18n';
import { OrganizerModule } from '@calendar/organizer';
import { AuthModule } from '@calendar/shared/auth';
import { ConfigModule, loadConfig } from '@calendar/shared/config';
import { DatabaseModule } from '@calendar/shared/database';
import { HttpPlatformModule } from '@calendar/shared/http';
import { TaxonomyModule } from '@calendar/taxonomy';
import { VenueModule } from '@calendar/venue';

/**
 * What `export` and `import` need: the database (migrated at start) and every record kind, whose writers apply
 * what an import's write changes (search rows, term counts, the span, the totals per day). Webhooks are left out:
 * moving a calendar is no change to announce; so are the service's timed jobs (the series horizon would add
 * occurrences to the database being exported).
 */
@Module({})
export class DataModule {
  static forRoot(): DynamicModule {
    const config = loadConfig();
    config.runsJobs = false;
    return { module: DataModule, imports: [ConfigModule.forRoot(config), HttpPlatformModule, DatabaseModule.forRoot(), I18nModule, AuthModule, EventModule, VenueModule, OrganizerModule, TaxonomyModule] };
  }
}
