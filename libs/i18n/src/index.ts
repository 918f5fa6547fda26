export * from './i18n.module';
export * from './i18n.service';
export * from './language.interceptor';
export * from './slug';
export * from './translation';
export * from './request-context';
