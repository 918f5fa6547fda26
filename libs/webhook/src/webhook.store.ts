import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@calendar/shared/database';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

/** An endpoint as stored. */
export interface WebhookRow {
  id: number;
  url: string;
  types: string[];
  description: string;
  enabled: boolean;
  disabledReason: string | null;
  secret: string;
  previousSecret: string | null;
  previousUntil: number | null;
  failingSince: number | null;
  origin: string;
  createdAt: number;
  modifiedAt: number;
}

/** A message of the outbox, to one endpoint. */
export interface MessageRow {
  id: number;
  webhookId: number;
  msgId: string;
  type: string;
  kind: string;
  recordId: number;
  body: string | null;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAt: number;
  createdAt: number;
}

export interface AttemptRow {
  id: number;
  messageId: number;
  at: number;
  status: number | null;
  durationMs: number;
  error: string | null;
  response: string | null;
}

type Row = Record<string, unknown>;
const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function webhookOf(row: Row): WebhookRow {
  return {
    id: Number(row['id']),
    url: String(row['url']),
    types: String(row['types'] ?? '') === '' ? [] : String(row['types']).split(','),
    description: String(row['description'] ?? ''),
    enabled: Number(row['enabled']) === 1,
    disabledReason: (row['disabled_reason'] as string | null) ?? null,
    secret: String(row['secret']),
    previousSecret: (row['previous_secret'] as string | null) ?? null,
    previousUntil: num(row['previous_until']),
    failingSince: num(row['failing_since']),
    origin: String(row['origin']),
    createdAt: Number(row['created_at']),
    modifiedAt: Number(row['modified_at']),
  };
}

function messageOf(row: Row): MessageRow {
  return {
    id: Number(row['id']),
    webhookId: Number(row['webhook_id']),
    msgId: String(row['msg_id']),
    type: String(row['type']),
    kind: String(row['kind']),
    recordId: Number(row['record_id']),
    body: (row['body'] as string | null) ?? null,
    state: row['state'] as MessageRow['state'],
    attempts: Number(row['attempts']),
    nextAt: Number(row['next_at']),
    createdAt: Number(row['created_at']),
  };
}

function attemptOf(row: Row): AttemptRow {
  return {
    id: Number(row['id']),
    messageId: Number(row['message_id']),
    at: Number(row['at']),
    status: num(row['status']),
    durationMs: Number(row['duration_ms']),
    error: (row['error'] as string | null) ?? null,
    response: (row['response'] as string | null) ?? null,
  };
}

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/**
 * The tables of webhooks (SPEC §17): endpoints, the outbox and the attempts. Changes of endpoints and of the
 * outbox's delivery state run apart from the data writes (`TransactionRunner.runApart`: no data version moves);
 * messages are added inside the data write that makes them (`enqueue`).
 */
@Injectable()
export class WebhookStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  async page(offset: number, limit: number): Promise<{ rows: WebhookRow[]; total: number }> {
    const [{ n }] = await this.dataSource.query('SELECT COUNT(*) AS n FROM webhooks');
    const rows: Row[] = await this.dataSource.query('SELECT * FROM webhooks ORDER BY id LIMIT ? OFFSET ?', [limit, offset]);
    return { rows: rows.map(webhookOf), total: Number(n) };
  }

  async get(id: number): Promise<WebhookRow | null> {
    const [row] = await this.dataSource.query('SELECT * FROM webhooks WHERE id = ?', [id]);
    return row ? webhookOf(row) : null;
  }

  /** Endpoints by id (those that exist). */
  async many(ids: number[]): Promise<Map<number, WebhookRow>> {
    if (ids.length === 0) return new Map();
    const rows: Row[] = await this.dataSource.query(`SELECT * FROM webhooks WHERE id IN (${placeholders(ids.length)})`, ids);
    return new Map(rows.map((row) => [Number(row['id']), webhookOf(row)]));
  }

  async create(fields: { url: string; types: string[]; description: string; enabled: boolean; secret: string; origin: string }, now: number): Promise<number> {
    return this.transactions.runApart(async (manager) => {
      await manager.query('INSERT INTO webhooks (url, types, description, enabled, secret, origin, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
        fields.url,
        fields.types.join(','),
        fields.description,
        fields.enabled ? 1 : 0,
        fields.secret,
        fields.origin,
        now,
        now,
      ]);
      const [{ id }] = await manager.query('SELECT MAX(id) AS id FROM webhooks WHERE secret = ?', [fields.secret]);
      return Number(id);
    });
  }

  /** Sets the columns given (by their column names); `modified_at` moves. */
  async update(id: number, columns: Record<string, unknown>, now: number): Promise<void> {
    const entries = Object.entries({ ...columns, modified_at: now });
    await this.transactions.runApart((manager) => manager.query(`UPDATE webhooks SET ${entries.map(([name]) => `${name} = ?`).join(', ')} WHERE id = ?`, [...entries.map(([, value]) => value), id]));
  }

  /** The endpoint, its messages and their attempts. */
  async delete(id: number): Promise<void> {
    await this.transactions.runApart(async (manager) => {
      await manager.query('DELETE FROM webhook_attempts WHERE webhook_id = ?', [id]);
      await manager.query('DELETE FROM webhook_messages WHERE webhook_id = ?', [id]);
      await manager.query('DELETE FROM webhooks WHERE id = ?', [id]);
    });
  }

  /** The enabled endpoints and what they subscribe to, read inside a data write. */
  async subscribers(manager: EntityManager): Promise<{ id: number; types: string[] }[]> {
    const rows: Row[] = await manager.query('SELECT id, types FROM webhooks WHERE enabled = 1');
    return rows.map((row) => ({ id: Number(row['id']), types: String(row['types'] ?? '') === '' ? [] : String(row['types']).split(',') }));
  }

  /** Adds messages to the outbox, inside the write that makes them (or apart, for a ping), due at once. */
  async enqueue(manager: EntityManager, messages: { webhookId: number; msgId: string; type: string; kind: string; recordId: number }[], now: number): Promise<void> {
    for (let at = 0; at < messages.length; at += 200) {
      const batch = messages.slice(at, at + 200);
      await manager.query(
        `INSERT INTO webhook_messages (webhook_id, msg_id, type, kind, record_id, next_at, created_at) VALUES ${batch.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        batch.flatMap((message) => [message.webhookId, message.msgId, message.type, message.kind, message.recordId, now, now]),
      );
    }
  }

  /** A ping's message, apart from any data write. */
  async enqueueApart(message: { webhookId: number; msgId: string; type: string; kind: string; recordId: number }, now: number): Promise<MessageRow> {
    await this.transactions.runApart((manager) => this.enqueue(manager, [message], now));
    const [row] = await this.dataSource.query('SELECT * FROM webhook_messages WHERE msg_id = ?', [message.msgId]);
    return messageOf(row);
  }

  async deliveries(webhookId: number, offset: number, limit: number): Promise<{ rows: MessageRow[]; attempts: Map<number, AttemptRow[]>; total: number }> {
    const [{ n }] = await this.dataSource.query('SELECT COUNT(*) AS n FROM webhook_messages WHERE webhook_id = ?', [webhookId]);
    const rows = ((await this.dataSource.query('SELECT * FROM webhook_messages WHERE webhook_id = ? ORDER BY id DESC LIMIT ? OFFSET ?', [webhookId, limit, offset])) as Row[]).map(messageOf);
    const attempts = new Map<number, AttemptRow[]>();
    if (rows.length > 0) {
      const found: Row[] = await this.dataSource.query(`SELECT * FROM webhook_attempts WHERE message_id IN (${placeholders(rows.length)}) ORDER BY id`, rows.map((row) => row.id));
      for (const attempt of found.map(attemptOf)) attempts.set(attempt.messageId, [...(attempts.get(attempt.messageId) ?? []), attempt]);
    }
    return { rows, attempts, total: Number(n) };
  }

  async message(webhookId: number, id: number): Promise<MessageRow | null> {
    const [row] = await this.dataSource.query('SELECT * FROM webhook_messages WHERE webhook_id = ? AND id = ?', [webhookId, id]);
    return row ? messageOf(row) : null;
  }

  /**
   * A message sent again: pending and due at once, its attempts counted anew (its id and body kept). Its claim is
   * dropped, so an attempt in flight meanwhile is logged but does not mark it delivered (see `finish`).
   */
  async redeliver(id: number, now: number): Promise<void> {
    await this.transactions.runApart((manager) =>
      manager.query(`UPDATE webhook_messages SET state = 'pending', attempts = 0, next_at = ?, claimed_until = NULL, claimed_by = NULL WHERE id = ?`, [now, id]),
    );
  }

  /** How many messages wait to be delivered, to enabled endpoints and to disabled ones (the metrics' queue depth). */
  async pendingByEndpointState(): Promise<{ enabled: boolean; count: number }[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT w.enabled AS enabled, COUNT(*) AS count FROM webhook_messages m INNER JOIN webhooks w ON w.id = m.webhook_id WHERE m.state = 'pending' GROUP BY w.enabled`,
    );
    const counts = new Map(rows.map((row) => [Number(row['enabled']) === 1, Number(row['count'])]));
    return [true, false].map((enabled) => ({ enabled, count: counts.get(enabled) ?? 0 }));
  }

  /**
   * Up to `limit` messages due now to enabled endpoints, each the oldest pending one of its endpoint and record
   * (a later message about a record waits while an earlier one is retried), and not claimed by a live lease.
   */
  async due(now: number, limit: number): Promise<MessageRow[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT m.* FROM webhook_messages m INNER JOIN webhooks w ON w.id = m.webhook_id AND w.enabled = 1
       WHERE m.state = 'pending' AND m.next_at <= ? AND (m.claimed_until IS NULL OR m.claimed_until < ?)
         AND NOT EXISTS (SELECT 1 FROM webhook_messages e WHERE e.webhook_id = m.webhook_id AND e.kind = m.kind AND e.record_id = m.record_id AND e.state = 'pending' AND e.id < m.id)
       ORDER BY m.next_at, m.id LIMIT ?`,
      [now, now, limit],
    );
    return rows.map(messageOf);
  }

  /**
   * Claims messages for one attempt each until `until`, in one statement; answers the claim and the ids it holds
   * (not those another instance holds, nor those done meanwhile).
   */
  async claim(ids: number[], now: number, until: number): Promise<{ claim: string; held: Set<number> }> {
    const claim = randomBytes(12).toString('base64url');
    if (ids.length === 0) return { claim, held: new Set() };
    await this.transactions.runApart((manager) =>
      manager.query(`UPDATE webhook_messages SET claimed_until = ?, claimed_by = ? WHERE id IN (${placeholders(ids.length)}) AND state = 'pending' AND (claimed_until IS NULL OR claimed_until < ?)`, [until, claim, ...ids, now]),
    );
    const held: Row[] = await this.dataSource.query(`SELECT id FROM webhook_messages WHERE id IN (${placeholders(ids.length)}) AND claimed_by = ?`, [...ids, claim]);
    return { claim, held: new Set(held.map((row) => Number(row['id']))) };
  }

  /**
   * Keeps the body a message is sent with on every attempt (made at its first), and gives it to the messages of
   * the same change to other endpoints (same record, type and time) that have none yet.
   */
  async setBody(message: MessageRow, body: string): Promise<void> {
    await this.transactions.runApart((manager) =>
      manager.query('UPDATE webhook_messages SET body = ? WHERE body IS NULL AND kind = ? AND record_id = ? AND type = ? AND created_at = ?', [body, message.kind, message.recordId, message.type, message.createdAt]),
    );
  }

  async body(id: number): Promise<string | null> {
    const [row] = await this.dataSource.query('SELECT body FROM webhook_messages WHERE id = ?', [id]);
    return (row?.body as string | null) ?? null;
  }

  /**
   * The outcome of an attempt, in one transaction: the attempt logged, the message delivered, due again or given
   * up (and its lease released), and the endpoint's run of failures (or its disabling) recorded. The message's
   * state is left alone when `claim` no longer holds it: it was redelivered while the attempt was in flight (and
   * is due again), or the lease ran out and another instance took it.
   */
  async finish(
    message: MessageRow,
    claim: string,
    attempt: Omit<AttemptRow, 'id' | 'messageId'>,
    outcome: { state: MessageRow['state']; nextAt: number },
    endpoint: { failingSince: number | null; disable?: string },
  ): Promise<void> {
    await this.transactions.runApart(async (manager) => {
      await manager.query('INSERT INTO webhook_attempts (message_id, webhook_id, at, status, duration_ms, error, response) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        message.id,
        message.webhookId,
        attempt.at,
        attempt.status,
        attempt.durationMs,
        attempt.error,
        attempt.response,
      ]);
      await manager.query('UPDATE webhook_messages SET state = ?, attempts = attempts + 1, next_at = ?, claimed_until = NULL, claimed_by = NULL WHERE id = ? AND claimed_by = ?', [
        outcome.state,
        outcome.nextAt,
        message.id,
        claim,
      ]);
      if (endpoint.disable) await manager.query('UPDATE webhooks SET enabled = 0, disabled_reason = ?, failing_since = ? WHERE id = ?', [endpoint.disable, endpoint.failingSince, message.webhookId]);
      else await manager.query('UPDATE webhooks SET failing_since = ? WHERE id = ?', [endpoint.failingSince, message.webhookId]);
    });
  }

  /** Drops the attempts, and the finished messages, older than `before`. */
  async prune(before: number): Promise<void> {
    await this.transactions.runApart(async (manager) => {
      await manager.query('DELETE FROM webhook_attempts WHERE at < ?', [before]);
      await manager.query(`DELETE FROM webhook_messages WHERE state <> 'pending' AND created_at < ?`, [before]);
    });
  }
}
