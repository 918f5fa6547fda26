export * from './search';
export * from './search-token.entity';
