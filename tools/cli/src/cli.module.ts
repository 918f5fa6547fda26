import { Module } from '@nestjs/common';
import { AuthModule } from '@calendar/shared/auth';
import { ConfigModule } from '@calendar/shared/config';
import { DatabaseModule } from '@calendar/shared/database';

@Module({ imports: [ConfigModule.forRoot(), DatabaseModule.forRoot(), AuthModule] })
export class CliModule {}
