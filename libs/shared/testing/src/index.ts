export * from './mysql-server';
export * from './test-database';
export * from './built-service';
export * from './showcase';
export * from './random';
export * from './redis-server';
