export * from './bounded-map';
export * from './cache-registry';
export * from './revision-cache';
export * from './cache.module';
