import { searchEntries, SearchableTexts } from '@calendar/shared/search';
import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, exactText } from './schema-helpers';

const BATCH = 1000;

/**
 * The full-text index of SPEC §10.1 (see libs/shared/search): one row per record, language and token, found
 * by the token's B-tree index. Existing events are indexed here; writes keep the rows current from then on.
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
    let after = 0;
    for (;;) {
      const events: { id: number; original_lang: string }[] = await queryRunner.query(`SELECT id, original_lang FROM events WHERE id > ? ORDER BY id LIMIT ${BATCH}`, [after]);
      if (events.length === 0) break;
      after = Number(events[events.length - 1].id);
      const ids = events.map((event) => Number(event.id));
      const texts: { event_id: number; lang: string; name: string | null; excerpt: string | null; description: string | null }[] = await queryRunner.query(
        `SELECT event_id, lang, name, excerpt, description FROM event_translations WHERE event_id IN (${ids.map(() => '?').join(', ')})`,
        ids,
      );
      const byEvent = new Map<number, SearchableTexts[]>();
      for (const row of texts) {
        const list = byEvent.get(Number(row.event_id)) ?? [];
        list.push({ lang: row.lang, fields: [row.name, row.excerpt, row.description] });
        byEvent.set(Number(row.event_id), list);
      }
      const rows = events.flatMap((event) => searchEntries(byEvent.get(Number(event.id)) ?? [], event.original_lang).map((entry) => ['event', entry.token, Number(event.id), entry.lang, entry.original ? 1 : 0]));
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
