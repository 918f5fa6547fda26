import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@calendar/shared/auth';
import { AppConfig } from '@calendar/shared/config';
import { CountMemo, DataVersionSource } from '@calendar/shared/http';
import { MediaEntity } from './media/media.entity';
import { MediaService } from './media/media.service';
import { EventLinkRegistry } from './record-links';
import { RecordServiceDeps } from './record.service';

/** The shared record mechanisms: the media registry and the registry of event links. */
@Module({
  imports: [TypeOrmModule.forFeature([MediaEntity]), AuthModule],
  providers: [
    MediaService,
    EventLinkRegistry,
    RecordServiceDeps,
    { provide: CountMemo, useFactory: (versions: DataVersionSource, config: AppConfig) => new CountMemo(versions, config.countMemoEntries), inject: [DataVersionSource, AppConfig] },
  ],
  exports: [MediaService, EventLinkRegistry, RecordServiceDeps, AuthModule, CountMemo],
})
export class RecordsModule {}
