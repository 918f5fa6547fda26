export { Clock } from '@calendar/shared/database';
