import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { AppConfig } from '@calendar/shared/config';
import { Clock, onTransactionEnd, TransactionRunner } from '@calendar/shared/database';
import { ApiException, assertPageExists, LinkBuilder, ListResult } from '@calendar/shared/http';
import { hostProblem, urlProblem } from './address';
import { newMessageId, newSecret } from './signing';
import { CreateWebhookDto, DeliveryResponse, ListWebhooksQueryDto, UpdateWebhookDto, WebhookResponse } from './webhook.dto';
import { AttemptRow, MessageRow, WebhookRow, WebhookStore } from './webhook.store';
import { WebhookWorker } from './webhook.worker';
import { messageType, PING_TYPE, subscribed } from './webhook-types';

/** For how long the previous secret also signs after a rotation (SPEC §17.1). */
const ROTATION_OVERLAP_MS = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString();

export class WebhookException extends ApiException {
  static notFound(): WebhookException {
    return new WebhookException(404, 'rest-webhook-not-found', 'The webhook does not exist.');
  }

  static deliveryNotFound(): WebhookException {
    return new WebhookException(404, 'rest-delivery-not-found', 'The delivery does not exist.');
  }
}

/**
 * Webhook endpoints and their deliveries (SPEC §17), for administrators only; and, on the one write path, the
 * messages every write makes for the endpoints subscribed to them, added to the outbox in the write's transaction.
 */
@Injectable()
export class WebhookService implements OnModuleInit {
  constructor(
    private readonly store: WebhookStore,
    private readonly worker: WebhookWorker,
    private readonly transactions: TransactionRunner,
    private readonly links: LinkBuilder,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The outbox: a message per record the write created, updated, trashed or deleted, per subscribed endpoint. */
  onModuleInit(): void {
    this.transactions.coordinator.register('webhook messages', async (manager, effects) => {
      const changes = effects.changes;
      if (changes.length === 0) return;
      const endpoints = await this.store.subscribers(manager);
      if (endpoints.length === 0) return;
      const messages = changes.flatMap((change) => {
        const type = messageType(change.kind, change.action);
        return endpoints.filter((endpoint) => subscribed(endpoint.types, type)).map((endpoint) => ({ webhookId: endpoint.id, msgId: newMessageId(), type, kind: change.kind, recordId: change.id }));
      });
      if (messages.length === 0) return;
      await this.store.enqueue(manager, messages, this.clock.now().getTime());
      // Once the write has committed, this instance's worker sends them at once.
      onTransactionEnd(manager, () => this.worker.wake());
    });
  }

  async list(query: ListWebhooksQueryDto, scope: RequestContext): Promise<ListResult<WebhookResponse>> {
    this.assertAdministrator(scope);
    const { rows, total } = await this.store.page((query.page - 1) * query.per_page, query.per_page);
    assertPageExists('webhook', query, total);
    return new ListResult('webhooks', rows.map((row) => this.present(row, scope)), total, query, (page) => this.links.rest(scope.origin, scope.language, 'webhooks', { per_page: query.per_page, page }));
  }

  async get(id: number, scope: RequestContext): Promise<WebhookResponse> {
    this.assertAdministrator(scope);
    return this.present(await this.require(id), scope);
  }

  async create(input: CreateWebhookDto, scope: RequestContext): Promise<WebhookResponse> {
    this.assertAdministrator(scope);
    await this.checkUrl(input.url);
    const secret = newSecret();
    const id = await this.store.create(
      { url: input.url, types: [...new Set(input.types ?? [])], description: input.description ?? '', enabled: input.enabled ?? true, secret, origin: scope.origin },
      this.clock.now().getTime(),
    );
    return { ...this.present(await this.require(id), scope), secret };
  }

  async update(id: number, input: UpdateWebhookDto, scope: RequestContext): Promise<WebhookResponse> {
    this.assertAdministrator(scope);
    const found = await this.require(id);
    if (input.url !== undefined) await this.checkUrl(input.url);
    const now = this.clock.now().getTime();
    const columns: Record<string, unknown> = {};
    if (input.url !== undefined) columns['url'] = input.url;
    if (input.types !== undefined) columns['types'] = [...new Set(input.types)].join(',');
    if (input.description !== undefined) columns['description'] = input.description;
    if (input.enabled !== undefined) {
      columns['enabled'] = input.enabled ? 1 : 0;
      columns['disabled_reason'] = input.enabled ? null : 'manual';
      if (input.enabled) columns['failing_since'] = null;
    }
    let secret: string | undefined;
    if (input.rotate_secret) {
      secret = newSecret();
      Object.assign(columns, { secret, previous_secret: found.secret, previous_until: now + ROTATION_OVERLAP_MS });
    }
    await this.store.update(id, columns, now);
    if (input.enabled) this.worker.wake();
    const answer = this.present(await this.require(id), scope);
    return secret ? { ...answer, secret } : answer;
  }

  /** Deletes the endpoint with its messages and their log; answers it as it was. */
  async remove(id: number, scope: RequestContext): Promise<WebhookResponse> {
    this.assertAdministrator(scope);
    const found = await this.require(id);
    await this.store.delete(id);
    return this.present(found, scope);
  }

  async deliveries(id: number, query: ListWebhooksQueryDto, scope: RequestContext): Promise<ListResult<DeliveryResponse>> {
    this.assertAdministrator(scope);
    await this.require(id);
    const { rows, attempts, total } = await this.store.deliveries(id, (query.page - 1) * query.per_page, query.per_page);
    assertPageExists('delivery', query, total);
    return new ListResult(
      'deliveries',
      rows.map((row) => this.presentDelivery(row, attempts.get(row.id) ?? [])),
      total,
      query,
      (page) => this.links.rest(scope.origin, scope.language, `webhooks/${id}/deliveries`, { per_page: query.per_page, page }),
    );
  }

  /** Sends a message again, as a new run of attempts (its id and body kept). */
  async redeliver(id: number, deliveryId: number, scope: RequestContext): Promise<DeliveryResponse> {
    this.assertAdministrator(scope);
    await this.require(id);
    const message = await this.store.message(id, deliveryId);
    if (!message) throw WebhookException.deliveryNotFound();
    await this.store.redeliver(message.id, this.clock.now().getTime());
    this.worker.wake();
    return this.delivery(id, message.id);
  }

  /** A `webhook.ping` message to the endpoint, whatever types it subscribes to. */
  async ping(id: number, scope: RequestContext): Promise<DeliveryResponse> {
    this.assertAdministrator(scope);
    await this.require(id);
    const message = await this.store.enqueueApart({ webhookId: id, msgId: newMessageId(), type: PING_TYPE, kind: 'webhook', recordId: id }, this.clock.now().getTime());
    this.worker.wake();
    return this.delivery(id, message.id);
  }

  private async delivery(webhookId: number, id: number): Promise<DeliveryResponse> {
    const message = (await this.store.message(webhookId, id)) as MessageRow;
    return this.presentDelivery(message, []);
  }

  private async require(id: number): Promise<WebhookRow> {
    const found = await this.store.get(id);
    if (!found) throw WebhookException.notFound();
    return found;
  }

  /** 400 for a URL that is not absolute http(s), or whose host is internal (unless WEBHOOK_ALLOW_PRIVATE). */
  private async checkUrl(url: string): Promise<void> {
    const problem = urlProblem(url) ?? (this.config.webhookAllowPrivate ? null : await hostProblem(url));
    if (problem) throw ApiException.invalidParams({ url: problem });
  }

  /** Webhooks are administrators' (SPEC §17.1): others 403 (anonymous callers are 401 before this). */
  private assertAdministrator(scope: RequestContext): void {
    if (scope.caller?.role !== 'administrator') throw ApiException.forbidden();
  }

  private present(row: WebhookRow, scope: RequestContext): WebhookResponse {
    return {
      id: row.id,
      url: row.url,
      types: row.types,
      description: row.description,
      enabled: row.enabled,
      disabled_reason: row.enabled ? null : ((row.disabledReason ?? 'manual') as WebhookResponse['disabled_reason']),
      created: iso(row.createdAt),
      modified: iso(row.modifiedAt),
      rest_url: this.links.rest(scope.origin, scope.language, `webhooks/${row.id}`),
    };
  }

  private presentDelivery(row: MessageRow, attempts: AttemptRow[]): DeliveryResponse {
    return {
      id: row.id,
      message_id: row.msgId,
      type: row.type,
      record: { kind: row.kind, id: row.recordId },
      state: row.state,
      next_attempt_at: row.state === 'pending' ? iso(row.nextAt) : null,
      created: iso(row.createdAt),
      attempts: attempts.map((attempt) => ({ at: iso(attempt.at), status: attempt.status, duration_ms: attempt.durationMs, error: attempt.error, response: attempt.response })),
    };
  }
}
