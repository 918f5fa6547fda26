import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminBootstrap } from './admin-bootstrap';
import { AuthGuard } from './auth.guard';
import { ApiTokenEntity } from './entities/api-token.entity';
import { UserEntity } from './entities/user.entity';
import { TokenService } from './token.service';
import { UserService } from './user.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, ApiTokenEntity])],
  providers: [UserService, TokenService, AdminBootstrap, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [UserService, TokenService],
})
export class AuthModule {}
