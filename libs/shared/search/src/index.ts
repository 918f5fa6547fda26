export * from './search';
export * from './search-token.entity';
export * from './search-index';
