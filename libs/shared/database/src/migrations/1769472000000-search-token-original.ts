import { MigrationInterface, QueryRunner } from 'typeorm';
import { replaceIndex } from './schema-helpers';

/**
 * The index of the search rows by start (`ix_search_tokens_start`) also holds whether a row comes from its record's
 * original language: the language check of a searched list (a row of the request language, or of the original
 * language for records with no text in it) is then read from the index, not from each matching row (SPEC §10.2: a
 * searched total at a million events read its word's rows of the window a second time, by key). The key's record
 * and language are named before it, so that a word's rows stay in (start, record) order (a page read along them).
 */
export class SearchTokenOriginal1769472000000 implements MigrationInterface {
  name = 'SearchTokenOriginal1769472000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await replaceIndex(queryRunner, 'search_tokens', 'ix_search_tokens_start', ['kind', 'token', 'start_utc', 'record_id', 'lang', 'original']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await replaceIndex(queryRunner, 'search_tokens', 'ix_search_tokens_start', ['kind', 'token', 'start_utc']);
  }
}
