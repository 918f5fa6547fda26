import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, dateTimeColumn, exactText, idColumn, recordColumns } from './schema-helpers';

function linkTable(name: string, target: string, targetTable: string): Table {
  return new Table({
    name,
    columns: [
      { name: 'event_id', type: 'integer', isPrimary: true },
      { name: target, type: 'integer', isPrimary: true },
      { name: 'position', type: 'integer', default: 0 },
    ],
    indices: [{ name: `ix_${name}_${target}`, columnNames: [target, 'event_id'] }],
    foreignKeys: [
      { name: `fk_${name}_event`, columnNames: ['event_id'], referencedTableName: 'events', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
      { name: `fk_${name}_${target}`, columnNames: [target], referencedTableName: targetTable, referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    ],
  });
}

/** Events, their translations, and their links to venues, organizers and terms (owned by the event side). */
export class Events1767398400000 implements MigrationInterface {
  name = 'Events1767398400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'events',
        columns: [
          ...recordColumns(),
          { name: 'timezone', type: 'varchar', length: '64' },
          { name: 'all_day', type: 'boolean', default: false },
          dateTimeColumn('start_utc'),
          dateTimeColumn('end_utc'),
          { name: 'cost', type: 'varchar', length: '255', default: "''" },
          { name: 'website', type: 'varchar', length: '2000', default: "''" },
          { name: 'show_map', type: 'boolean', default: true },
          { name: 'show_map_link', type: 'boolean', default: true },
          { name: 'hide_from_listings', type: 'boolean', default: false },
          { name: 'sticky', type: 'boolean', default: false },
          { name: 'featured', type: 'boolean', default: false },
          { name: 'post_parent', type: 'integer', default: 0 },
          { name: 'password_hash', type: 'varchar', length: '200', isNullable: true },
        ],
        indices: [
          { name: 'ix_events_listing', columnNames: ['status', 'hide_from_listings', 'start_utc', 'id', 'end_utc'] },
          { name: 'ix_events_start', columnNames: ['start_utc', 'id', 'end_utc'] },
          { name: 'ix_events_end', columnNames: ['end_utc'] },
          { name: 'ix_events_featured', columnNames: ['featured', 'start_utc'] },
          { name: 'ix_events_parent', columnNames: ['post_parent'] },
          { name: 'ix_events_author', columnNames: ['author_id', 'status'] },
        ],
        foreignKeys: [{ name: 'fk_events_image', columnNames: ['image_id'], referencedTableName: 'media', referencedColumnNames: ['id'] }],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'event_translations',
        columns: [
          idColumn(),
          { name: 'event_id', type: 'integer' },
          { name: 'lang', type: 'varchar', length: '16' },
          { name: 'name', type: 'varchar', length: '200', isNullable: true },
          exactText(queryRunner, 'slug', 200),
          { name: 'description', type: 'text', isNullable: true },
          { name: 'excerpt', type: 'text', isNullable: true },
        ],
        uniques: [
          { name: 'uq_event_translations_owner_lang', columnNames: ['event_id', 'lang'] },
          { name: 'uq_event_translations_slug', columnNames: ['lang', 'slug'] },
        ],
        indices: [{ name: 'ix_event_translations_slug', columnNames: ['slug'] }],
        foreignKeys: [{ name: 'fk_event_translations_owner', columnNames: ['event_id'], referencedTableName: 'events', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await createTable(queryRunner, linkTable('event_venues', 'venue_id', 'venues'));
    await createTable(queryRunner, linkTable('event_organizers', 'organizer_id', 'organizers'));
    await createTable(queryRunner, linkTable('event_terms', 'term_id', 'terms'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['event_terms', 'event_organizers', 'event_venues', 'event_translations', 'events']) await queryRunner.dropTable(table);
  }
}
