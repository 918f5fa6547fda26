import { recordSearchEntries } from '@calendar/shared/search';
import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, exactText } from './schema-helpers';

const BATCH = 1000;

interface IndexedKind {
  kind: string;
  table: string;
  translations: string;
  owner: string;
  excerpt: boolean;
  /** Searchable columns shared by all languages, as the kind's search reads them at the time of this migration. */
  shared: string[];
}

const INDEXED: IndexedKind[] = [
  { kind: 'event', table: 'events', translations: 'event_translations', owner: 'event_id', excerpt: true, shared: [] },
  {
    kind: 'venue',
    table: 'venues',
    translations: 'venue_translations',
    owner: 'venue_id',
    excerpt: false,
    shared: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone', 'country'],
  },
  { kind: 'organizer', table: 'organizers', translations: 'organizer_translations', owner: 'organizer_id', excerpt: false, shared: ['phone', 'email', 'website'] },
];

/**
 * The full-text index of SPEC §10.1 (see libs/shared/search): one row per record, language and token, found
 * by the token's B-tree index. Existing events, venues and organizers are indexed here; writes keep the rows
 * current from then on.
 */
export class SearchTokens1767571200000 implements MigrationInterface {
  name = 'SearchTokens1767571200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'search_tokens',
        columns: [
          { name: 'kind', type: 'varchar', length: '16', isPrimary: true },
          { ...exactText(queryRunner, 'token', 64), isPrimary: true },
          { name: 'record_id', type: 'integer', isPrimary: true },
          { name: 'lang', type: 'varchar', length: '16', isPrimary: true },
          { name: 'original', type: 'boolean', default: false },
        ],
        indices: [{ name: 'ix_search_tokens_record', columnNames: ['kind', 'record_id'] }],
      }),
    );
    for (const kind of INDEXED) await this.index(queryRunner, kind);
  }

  /** Indexes every record of a kind, a batch at a time. */
  private async index(queryRunner: QueryRunner, kind: IndexedKind): Promise<void> {
    let after = 0;
    for (;;) {
      const records: Record<string, unknown>[] = await queryRunner.query(
        `SELECT ${['id', 'original_lang', ...kind.shared].join(', ')} FROM ${kind.table} WHERE id > ? ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      if (records.length === 0) break;
      after = Number(records[records.length - 1]['id']);
      const ids = records.map((record) => Number(record['id']));
      const texts: { owner: number; lang: string; name: string | null; excerpt: string | null; description: string | null }[] = await queryRunner.query(
        `SELECT ${kind.owner} AS owner, lang, name, ${kind.excerpt ? 'excerpt' : 'NULL AS excerpt'}, description FROM ${kind.translations} WHERE ${kind.owner} IN (${ids.map(() => '?').join(', ')})`,
        ids,
      );
      const byRecord = new Map<number, typeof texts>();
      for (const row of texts) byRecord.set(Number(row.owner), [...(byRecord.get(Number(row.owner)) ?? []), row]);
      const rows = records.flatMap((record) =>
        recordSearchEntries(byRecord.get(Number(record['id'])) ?? [], String(record['original_lang']), kind.shared.map((field) => record[field] as string | null)).map((entry) => [
          kind.kind,
          entry.token,
          Number(record['id']),
          entry.lang,
          entry.original ? 1 : 0,
        ]),
      );
      for (let offset = 0; offset < rows.length; offset += BATCH) {
        const chunk = rows.slice(offset, offset + BATCH);
        await queryRunner.query(`INSERT INTO search_tokens (kind, token, record_id, lang, original) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`, chunk.flat());
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('search_tokens');
  }
}
