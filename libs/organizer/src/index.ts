export * from './dto/organizer.mapper';
export * from './entities/organizer.entity';
export * from './organizer.module';
export * from './organizer.service';
export * from './dto/organizer.dto';
