export * from './bounded-map';
export * from './cache-registry';
export * from './revision-cache';
export * from './seen-keys';
export * from './cache.module';
export * from './approximate-bytes';
