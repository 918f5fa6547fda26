import { Global, Module } from '@nestjs/common';
import { CacheRegistry } from './cache-registry';

/** The application's one `CacheRegistry`, for every module (the database module imports this). */
@Global()
@Module({ providers: [CacheRegistry], exports: [CacheRegistry] })
export class CacheModule {}
