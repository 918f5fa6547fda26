export * from './discovery.module';
export * from './discovery.service';
export * from './openapi';
