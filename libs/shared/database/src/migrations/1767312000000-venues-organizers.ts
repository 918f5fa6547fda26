import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, dateTimeColumn, exactText, idColumn, recordColumns } from './schema-helpers';

function translationTable(queryRunner: QueryRunner, table: string, owner: string, ownerTable: string): Table {
  return new Table({
    name: table,
    columns: [
      idColumn(),
      { name: owner, type: 'integer' },
      { name: 'lang', type: 'varchar', length: '16' },
      { name: 'name', type: 'varchar', length: '200', isNullable: true },
      exactText(queryRunner, 'slug', 200),
      { name: 'description', type: 'text', isNullable: true },
    ],
    uniques: [
      { name: `uq_${table}_owner_lang`, columnNames: [owner, 'lang'] },
      { name: `uq_${table}_slug`, columnNames: ['lang', 'slug'] },
    ],
    indices: [{ name: `ix_${table}_slug`, columnNames: ['slug'] }],
    foreignKeys: [{ name: `fk_${table}_owner`, columnNames: [owner], referencedTableName: ownerTable, referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  });
}

/** The media registry, venues and organizers with their translations. */
export class VenuesOrganizers1767312000000 implements MigrationInterface {
  name = 'VenuesOrganizers1767312000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'media',
        columns: [
          idColumn(),
          { name: 'url', type: 'text' },
          exactText(queryRunner, 'url_hash', 64),
          { name: 'extension', type: 'varchar', length: '10' },
          { name: 'width', type: 'integer', isNullable: true },
          { name: 'height', type: 'integer', isNullable: true },
          dateTimeColumn('created_at'),
        ],
        uniques: [{ name: 'uq_media_url_hash', columnNames: ['url_hash'] }],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'venues',
        columns: [
          ...recordColumns(),
          { name: 'address', type: 'varchar', length: '255', default: "''" },
          { name: 'city', type: 'varchar', length: '120', default: "''" },
          { name: 'country', type: 'varchar', length: '120', default: "''" },
          { name: 'province', type: 'varchar', length: '120', default: "''" },
          { name: 'state', type: 'varchar', length: '120', default: "''" },
          { name: 'zip', type: 'varchar', length: '40', default: "''" },
          { name: 'phone', type: 'varchar', length: '60', default: "''" },
          { name: 'stateprovince', type: 'varchar', length: '120', default: "''" },
          { name: 'website', type: 'varchar', length: '2000', default: "''" },
          { name: 'show_map', type: 'boolean', default: true },
          { name: 'show_map_link', type: 'boolean', default: true },
          { name: 'geo_lat', type: 'double', isNullable: true },
          { name: 'geo_lng', type: 'double', isNullable: true },
        ],
        indices: [
          { name: 'ix_venues_status_published', columnNames: ['status', 'published_at', 'id'] },
          { name: 'ix_venues_published', columnNames: ['published_at', 'id'] },
          { name: 'ix_venues_author', columnNames: ['author_id', 'status'] },
          { name: 'ix_venues_geo', columnNames: ['geo_lat', 'geo_lng'] },
        ],
        foreignKeys: [{ name: 'fk_venues_image', columnNames: ['image_id'], referencedTableName: 'media', referencedColumnNames: ['id'] }],
      }),
    );
    await createTable(queryRunner, translationTable(queryRunner, 'venue_translations', 'venue_id', 'venues'));
    await createTable(
      queryRunner,
      new Table({
        name: 'organizers',
        columns: [
          ...recordColumns(),
          { name: 'phone', type: 'varchar', length: '60', default: "''" },
          { name: 'website', type: 'varchar', length: '2000', default: "''" },
          { name: 'email', type: 'varchar', length: '254', default: "''" },
        ],
        indices: [
          { name: 'ix_organizers_status_published', columnNames: ['status', 'published_at', 'id'] },
          { name: 'ix_organizers_published', columnNames: ['published_at', 'id'] },
          { name: 'ix_organizers_author', columnNames: ['author_id', 'status'] },
        ],
        foreignKeys: [{ name: 'fk_organizers_image', columnNames: ['image_id'], referencedTableName: 'media', referencedColumnNames: ['id'] }],
      }),
    );
    await createTable(queryRunner, translationTable(queryRunner, 'organizer_translations', 'organizer_id', 'organizers'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('organizer_translations');
    await queryRunner.dropTable('organizers');
    await queryRunner.dropTable('venue_translations');
    await queryRunner.dropTable('venues');
    await queryRunner.dropTable('media');
  }
}
