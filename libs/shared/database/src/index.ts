export * from './data-source-options';
export * from './database.module';
export * from './transaction';
export { MIGRATIONS } from './migrations';
export * from './query-counter';
export * from './data-version';
export * from './translated-loader';
export * from './migrate';
export * from './idempotency';
