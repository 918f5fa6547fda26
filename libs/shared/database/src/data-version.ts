import { Injectable } from '@nestjs/common';
import { DataVersionSource } from '@calendar/shared/http';
import { DataSource } from 'typeorm';

/** The data version as the database holds it: one primary-key read. */
@Injectable()
export class DatabaseDataVersion extends DataVersionSource {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async current(): Promise<number> {
    const rows = await this.dataSource.query('SELECT version FROM data_version WHERE id = 1');
    return Number(rows[0]?.version ?? 0);
  }
}
