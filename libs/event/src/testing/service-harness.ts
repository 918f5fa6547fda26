import { ValidationPipe } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { I18nModule, RequestContext } from '@calendar/i18n';
import { OrganizerModule } from '@calendar/organizer';
import { AuthModule, UserService } from '@calendar/shared/auth';
import { ConfigModule, loadConfig } from '@calendar/shared/config';
import { DatabaseModule, EffectApplier, TransactionRunner, WriteEffects } from '@calendar/shared/database';
import { Caller, ConfiguredLanguageConstraint, createValidationPipe, HttpPlatformModule } from '@calendar/shared/http';
import { createTestDatabase, Engine, resetDatabase, TestDatabase } from '@calendar/shared/testing';
import { TaxonomyModule } from '@calendar/taxonomy';
import { VenueModule } from '@calendar/venue';
import { useContainer } from 'class-validator';
import { DataSource } from 'typeorm';
import { EventModule } from '../event.module';

/** The engines of this run: SQLite always, MySQL when the project's jest configuration found it (see jest.config.ts). */
export function testEngines(): Engine[] {
  return (globalThis as { TEST_ENGINES?: Engine[] }).TEST_ENGINES ?? ['sqlite'];
}

/**
 * The event library's services on a real database of their own, without HTTP: the modules the application composes
 * for events, venues, organizers and terms, started (their `onModuleInit` registers what they apply of writes), and
 * called with plain read scopes and write fields checked by the same validation pipe as requests'.
 */
export interface ServiceHarness {
  module: TestingModule;
  dataSource: DataSource;
  get<T>(type: new (...args: never[]) => T): T;
  /** A user of the role, as the caller of a scope. */
  caller(role: Caller['role']): Promise<Caller>;
  scope(caller: Caller | null, language?: string): RequestContext;
  /** Write fields or query parameters as the validation pipe turns them into the DTO a service takes. */
  fields<T>(type: new () => T, raw: Record<string, unknown>): Promise<T>;
  /** The effects of every write from now on, as the coordinator applies them. */
  effects(): WriteEffects[];
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startServices(engine: Engine): Promise<ServiceHarness> {
  const database: TestDatabase = await createTestDatabase(engine);
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  const module = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(config), HttpPlatformModule, DatabaseModule.forRoot(), I18nModule, AuthModule, EventModule, VenueModule, OrganizerModule, TaxonomyModule],
  }).compile();
  module.enableShutdownHooks();
  await module.init();
  useContainer({ get: (type: unknown) => (type === ConfiguredLanguageConstraint ? module.get(ConfiguredLanguageConstraint) : undefined) } as never, {
    fallback: true,
    fallbackOnErrors: true,
  });
  const pipe: ValidationPipe = createValidationPipe();
  const seen: WriteEffects[] = [];
  const probe: EffectApplier = async (_manager, effects) => {
    seen.push(effects);
  };
  module.get(TransactionRunner).coordinator.register('test probe', probe);
  const dataSource = module.get(DataSource);
  let users = 0;
  return {
    module,
    dataSource,
    get: (type) => module.get(type),
    async caller(role) {
      users += 1;
      const user = await module.get(UserService).create(`${role}${users}`, role);
      return { id: user.id, login: user.login, role };
    },
    scope: (caller, language = config.defaultLanguage) => ({ caller, language, origin: 'http://calendar.test', versions: {} }),
    fields: async (type, raw) => (await pipe.transform(raw, { type: 'body', metatype: type })) as never,
    effects: () => seen.splice(0),
    reset: async () => {
      await resetDatabase(dataSource);
      seen.splice(0);
    },
    async close() {
      await module.close();
      await database.drop();
    },
  };
}
