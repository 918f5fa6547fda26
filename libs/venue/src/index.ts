export * from './dto/venue.mapper';
export * from './entities/venue.entity';
export * from './venue.module';
export * from './venue.service';
export * from './dto/venue.dto';
