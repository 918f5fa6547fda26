import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@calendar/shared/auth';
import { MediaEntity } from './media/media.entity';
import { MediaService } from './media/media.service';
import { EventLinkRegistry } from './record-links';
import { RecordServiceDeps } from './record-deps';

/** The shared record mechanisms: the media registry and the registry of event links. */
@Module({
  imports: [TypeOrmModule.forFeature([MediaEntity]), AuthModule],
  providers: [MediaService, EventLinkRegistry, RecordServiceDeps],
  exports: [MediaService, EventLinkRegistry, RecordServiceDeps, AuthModule],
})
export class RecordsModule {}
