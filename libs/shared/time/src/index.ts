export * from './time-zone';
export * from './date-time';
