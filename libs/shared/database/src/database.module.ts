import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '@calendar/shared/config';
import { CacheModule, CacheRegistry } from '@calendar/shared/cache';
import { buildDataSourceOptions, SQLITE_CACHE_KIB } from './data-source-options';
import { readOnThread, SqliteReader } from './sqlite-reader';
import { CurrentVersion, Metrics } from '@calendar/shared/http';
import { ChangeLog } from './change-log';
import { Clock } from './clock';
import { CountMemo } from './count-memo';
import { FragmentCache } from './fragment-cache';
import { DatabaseDataVersion, DataVersionSource, GlobalVersion } from './data-version';
import { ConditionalWrites } from './conditional-write';
import { DatabaseMetrics } from './database-metrics';
import { GaleraNode, isGaleraNode, mysqlSessionSettings, onEveryConnection, syncWaitFor } from './galera';
import { HealthController } from './health.controller';
import { IdempotencyInterceptor, IdempotencyStore } from './idempotency';
import { migrate } from './migrate';
import { TransactionRunner, WRITE_ATTEMPTS } from './transaction';

/**
 * Statements the SQLite reading thread keeps prepared (as TypeORM keeps on the main connection), and the texts it
 * remembers as seen once (a text is kept prepared from its second sight).
 */
const SQLITE_READER_STATEMENTS = 100;
const SQLITE_READER_SEEN = 1000;
/** Statements the reading thread prepares between two full collections of its heap (see `SqliteReader`). */
const SQLITE_READER_COLLECT_EVERY = 200;

@Global()
@Module({})
export class DatabaseModule {
  /** The data source of the service; pending migrations are applied at start-up (SPEC §9), under a lock. */
  static forRoot(): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        CacheModule,
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions(config.database),
            autoLoadEntities: true,
            retryAttempts: 3,
            retryDelay: 1000,
            // Read by the factory below, not by TypeORM.
            syncWait: config.syncWait,
            sqliteReads: config.sqliteReads,
          }),
          // On a Galera node every session waits for the cluster's writes before it reads; migrations run under a
          // lock, so that any number of instances may start at once (SPEC §15).
          dataSourceFactory: async (given) => {
            const { syncWait, sqliteReads, ...options } = given as DataSourceOptions & { syncWait: AppConfig['syncWait']; sqliteReads: AppConfig['sqliteReads'] };
            const opened = (wait: number | null) => {
              const made = new DataSource(options as DataSourceOptions);
              if (options.type === 'mysql') onEveryConnection(made, mysqlSessionSettings(wait));
              return made.initialize();
            };
            let dataSource = await opened(null);
            const wait = options.type === 'mysql' ? syncWaitFor(syncWait, await isGaleraNode((sql) => dataSource.query(sql))) : null;
            if (wait !== null) {
              await dataSource.destroy();
              dataSource = await opened(wait);
            }
            try {
              await migrate(dataSource);
            } catch (error) {
              await dataSource.destroy();
              throw error;
            }
            // A database file's reads run on a connection of their own, beside the main thread (an in-memory database
            // has no second connection: it is the connection's own).
            if (options.type === 'better-sqlite3' && options.database !== ':memory:' && sqliteReads === 'thread') {
              readOnThread(dataSource, new SqliteReader(options.database, { cacheKib: SQLITE_CACHE_KIB, statements: SQLITE_READER_STATEMENTS, seen: SQLITE_READER_SEEN, collectEvery: SQLITE_READER_COLLECT_EVERY }));
            }
            return dataSource;
          },
        }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: GaleraNode, inject: [DataSource], useFactory: (dataSource: DataSource) => GaleraNode.of(dataSource) },
        {
          provide: TransactionRunner,
          inject: [DataSource, GaleraNode, Metrics],
          useFactory: (dataSource: DataSource, galera: GaleraNode, metrics: Metrics) => new TransactionRunner(dataSource, WRITE_ATTEMPTS, galera, metrics),
        },
        { provide: DataVersionSource, useClass: DatabaseDataVersion },
        { provide: CurrentVersion, inject: [DataVersionSource], useFactory: (versions: DataVersionSource) => new GlobalVersion(versions) },
        IdempotencyStore,
        IdempotencyInterceptor,
        {
          provide: CountMemo,
          inject: [DataVersionSource, AppConfig, CacheRegistry],
          useFactory: (versions: DataVersionSource, config: AppConfig, caches: CacheRegistry) => new CountMemo(versions, config.countMemoEntries, caches),
        },
        {
          provide: FragmentCache,
          inject: [DataVersionSource, AppConfig, CacheRegistry],
          useFactory: (versions: DataVersionSource, config: AppConfig, caches: CacheRegistry) => new FragmentCache(versions, config.fragmentCacheBytes, caches),
        },
        Clock,
        ChangeLog,
        ConditionalWrites,
        DatabaseMetrics,
      ],
      exports: [GaleraNode, TransactionRunner, DataVersionSource, CurrentVersion, CountMemo, FragmentCache, IdempotencyStore, IdempotencyInterceptor, Clock, ChangeLog, ConditionalWrites],
    };
  }
}
