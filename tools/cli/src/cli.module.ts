import { Module } from '@nestjs/common';
import { AuthModule } from '@calendar/shared/auth';
import { ConfigModule } from '@calendar/shared/config';
import { DatabaseModule } from '@calendar/shared/database';
import { HttpPlatformModule } from '@calendar/shared/http';

@Module({ imports: [ConfigModule.forRoot(), HttpPlatformModule, DatabaseModule.forRoot(), AuthModule] })
export class CliModule {}
