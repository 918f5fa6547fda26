import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@calendar/shared/config';
import { buildDataSourceOptions } from './data-source-options';
import { CountMemo, DataVersionSource, FragmentCache } from '@calendar/shared/http';
import { DatabaseDataVersion } from './data-version';
import { HealthController } from './health.controller';
import { TransactionRunner } from './transaction';

@Global()
@Module({})
export class DatabaseModule {
  /** The data source of the service; pending migrations are applied at start-up (SPEC §9). */
  static forRoot(): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions(config.database),
            autoLoadEntities: true,
            migrationsRun: true,
            migrationsTransactionMode: 'each',
            retryAttempts: 3,
            retryDelay: 1000,
          }),
        }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: TransactionRunner, inject: [DataSource], useFactory: (dataSource: DataSource) => new TransactionRunner(dataSource) },
        { provide: DataVersionSource, useClass: DatabaseDataVersion },
        { provide: CountMemo, inject: [DataVersionSource, AppConfig], useFactory: (versions: DataVersionSource, config: AppConfig) => new CountMemo(versions, config.countMemoEntries) },
        {
          provide: FragmentCache,
          inject: [DataVersionSource, AppConfig],
          useFactory: (versions: DataVersionSource, config: AppConfig) => new FragmentCache(versions, config.fragmentCacheEntries),
        },
      ],
      exports: [TransactionRunner, DataVersionSource, CountMemo, FragmentCache],
    };
  }
}
