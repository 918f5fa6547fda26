import { Injectable } from '@nestjs/common';
import { DATA_PARTS, DataPart, DataVersions, DataVersionSource } from '@calendar/shared/http';
import { DataSource } from 'typeorm';

/** The data versions as the database holds them: one read of the few rows of `data_version`. */
@Injectable()
export class DatabaseDataVersion extends DataVersionSource {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async read(): Promise<DataVersions> {
    const rows: { id: number; version: number }[] = await this.dataSource.query('SELECT id, version FROM data_version');
    const versions: DataVersions = { global: 0, parts: {} };
    for (const row of rows) {
      if (Number(row.id) === 1) versions.global = Number(row.version);
      const part = (Object.keys(DATA_PARTS) as DataPart[]).find((name) => DATA_PARTS[name] === Number(row.id));
      if (part) versions.parts[part] = Number(row.version);
    }
    return versions;
  }
}
