import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createTable, exactText } from './schema-helpers';

/**
 * Webhooks (SPEC §17). `webhooks` are the endpoints administrators subscribe, with the key that signs (and, for a
 * day after a rotation, the previous one). `webhook_messages` is the outbox: a write adds a row per message and
 * subscribed endpoint in its own transaction; the delivery workers of every instance claim due rows under a lease
 * (`claimed_until`, `claimed_by`: the claim that holds it), render the body at the first attempt (kept for every
 * retry, and for the messages of the same change to other endpoints), and record each attempt in `webhook_attempts`. Times are milliseconds since 1970.
 */
export class Webhooks1768521600000 implements MigrationInterface {
  name = 'Webhooks1768521600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(
      queryRunner,
      new Table({
        name: 'webhooks',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'url', type: 'varchar', length: '2000' },
          { name: 'types', type: 'varchar', length: '1000', default: "''" },
          { name: 'description', type: 'varchar', length: '1000', default: "''" },
          { name: 'enabled', type: 'integer', default: 1 },
          { name: 'disabled_reason', type: 'varchar', length: '20', isNullable: true },
          exactText(queryRunner, 'secret', 100),
          { ...exactText(queryRunner, 'previous_secret', 100), isNullable: true },
          { name: 'previous_until', type: 'bigint', isNullable: true },
          { name: 'failing_since', type: 'bigint', isNullable: true },
          { name: 'origin', type: 'varchar', length: '300' },
          { name: 'created_at', type: 'bigint' },
          { name: 'modified_at', type: 'bigint' },
        ],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'webhook_messages',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'webhook_id', type: 'integer' },
          exactText(queryRunner, 'msg_id', 40),
          { name: 'type', type: 'varchar', length: '40' },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'record_id', type: 'integer' },
          { name: 'body', type: 'text', isNullable: true },
          { name: 'state', type: 'varchar', length: '12', default: "'pending'" },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'next_at', type: 'bigint' },
          { name: 'claimed_until', type: 'bigint', isNullable: true },
          { ...exactText(queryRunner, 'claimed_by', 24), isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        indices: [
          { name: 'idx_webhook_messages_due', columnNames: ['state', 'next_at'] },
          { name: 'idx_webhook_messages_record', columnNames: ['webhook_id', 'kind', 'record_id', 'id'] },
          { name: 'idx_webhook_messages_msg', columnNames: ['msg_id'], isUnique: true },
        ],
      }),
    );
    await createTable(
      queryRunner,
      new Table({
        name: 'webhook_attempts',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'message_id', type: 'integer' },
          { name: 'webhook_id', type: 'integer' },
          { name: 'at', type: 'bigint' },
          { name: 'status', type: 'integer', isNullable: true },
          { name: 'duration_ms', type: 'integer' },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'response', type: 'text', isNullable: true },
        ],
        indices: [
          { name: 'idx_webhook_attempts_message', columnNames: ['message_id', 'id'] },
          { name: 'idx_webhook_attempts_at', columnNames: ['at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['webhook_attempts', 'webhook_messages', 'webhooks']) await queryRunner.dropTable(table);
  }
}
