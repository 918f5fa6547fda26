import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, dateTimeColumn, exactText, idColumn } from './schema-helpers';

/** Users and API tokens; categories and tags with their translations. */
export class Foundation1767225600000 implements MigrationInterface {
  name = 'Foundation1767225600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'users',
        columns: [idColumn(), exactText(queryRunner, 'login', 60), { name: 'role', type: 'varchar', length: '20' }, dateTimeColumn('created_at')],
        uniques: [{ name: 'uq_users_login', columnNames: ['login'] }],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'api_tokens',
        columns: [
          idColumn(),
          { name: 'user_id', type: 'integer' },
          exactText(queryRunner, 'token_hash', 64),
          dateTimeColumn('created_at'),
          dateTimeColumn('revoked_at', true),
        ],
        uniques: [{ name: 'uq_api_tokens_hash', columnNames: ['token_hash'] }],
        indices: [{ name: 'ix_api_tokens_user', columnNames: ['user_id'] }],
        foreignKeys: [{ name: 'fk_api_tokens_user', columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'terms',
        columns: [
          idColumn(),
          { name: 'taxonomy', type: 'varchar', length: '32' },
          { name: 'parent_id', type: 'integer', default: 0 },
          { name: 'original_lang', type: 'varchar', length: '16' },
          { name: 'event_count', type: 'integer', default: 0 },
          dateTimeColumn('created_at'),
          dateTimeColumn('modified_at'),
        ],
        indices: [
          { name: 'ix_terms_taxonomy_parent', columnNames: ['taxonomy', 'parent_id'] },
          { name: 'ix_terms_taxonomy_count', columnNames: ['taxonomy', 'event_count'] },
        ],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'term_translations',
        columns: [
          idColumn(),
          { name: 'term_id', type: 'integer' },
          { name: 'taxonomy', type: 'varchar', length: '32' },
          { name: 'lang', type: 'varchar', length: '16' },
          { name: 'name', type: 'varchar', length: '200', isNullable: true },
          exactText(queryRunner, 'slug', 200),
          { name: 'description', type: 'text', isNullable: true },
        ],
        uniques: [
          { name: 'uq_term_translations_term_lang', columnNames: ['term_id', 'lang'] },
          { name: 'uq_term_translations_slug', columnNames: ['taxonomy', 'lang', 'slug'] },
        ],
        indices: [
          { name: 'ix_term_translations_name', columnNames: ['taxonomy', 'lang', 'name'] },
          { name: 'ix_term_translations_slug', columnNames: ['taxonomy', 'slug'] },
        ],
        foreignKeys: [{ name: 'fk_term_translations_term', columnNames: ['term_id'], referencedTableName: 'terms', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('term_translations');
    await queryRunner.dropTable('terms');
    await queryRunner.dropTable('api_tokens');
    await queryRunner.dropTable('users');
  }
}
