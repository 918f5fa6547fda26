export * from './i18n.module';
export * from './i18n.service';
export * from './request-language';
export * from './slug';
export * from './translation';
export * from './request-context';
