export * from './auth.guard';
export * from './auth.module';
export * from './caller.decorator';
export * from './entities/api-token.entity';
export * from './entities/user.entity';
export * from './permissions';
export * from './token.service';
export * from './user.service';
