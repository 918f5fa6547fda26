export * from './mysql-server';
export * from './test-database';
