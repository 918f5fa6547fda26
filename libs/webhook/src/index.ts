export * from './webhook.module';
export * from './webhook.service';
export * from './webhook.worker';
export * from './webhook.store';
export * from './webhook.dto';
export * from './webhook-types';
export * from './signing';
export * from './address';
