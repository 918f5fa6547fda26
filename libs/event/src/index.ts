export * from './cost';
export * from './dto/event.mapper';
export * from './entities/event.entity';
export * from './event-dates';
export * from './event.module';
export * from './event.service';
export * from './event.repository';
