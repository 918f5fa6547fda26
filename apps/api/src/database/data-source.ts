import 'reflect-metadata';
import { loadConfig } from '@calendar/shared/config';
import { buildDataSourceOptions } from '@calendar/shared/database';
import { DataSource } from 'typeorm';

/** The data source of the TypeORM CLI (nx targets api:migrate, api:migrate-revert, api:migrate-show). */
export default new DataSource(buildDataSourceOptions(loadConfig().database));
