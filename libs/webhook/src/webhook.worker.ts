import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { AppConfig } from '@calendar/shared/config';
import { Clock, inBackground } from '@calendar/shared/database';
import { ApiException, Caller, LinkBuilder, Metrics } from '@calendar/shared/http';
import { EventService } from '@calendar/event';
import { OrganizerService } from '@calendar/organizer';
import { TermService } from '@calendar/taxonomy';
import { VenueService } from '@calendar/venue';
import { hostProblem } from './address';
import { signature } from './signing';
import { MessageRow, WebhookRow, WebhookStore } from './webhook.store';
import { PING_TYPE, retryDelayMs } from './webhook-types';

/** How long one attempt may take (SPEC §17.3). */
const ATTEMPT_TIMEOUT_MS = 15_000;
/**
 * How long a claim holds a message: past it, another instance may make the attempt (this one was killed). An
 * attempt is cut off a second before its lease ends, so two attempts of one message never overlap.
 */
const LEASE_MS = 20_000;
/** An endpoint whose every delivery has failed this long is disabled. */
const FAILING_FOR_MS = 5 * 86_400_000;
/** How often an idle worker looks for due messages (a write through this instance wakes it at once). */
const IDLE_POLL_MS = 1_000;
/** Messages claimed per pass. */
const BATCH = 50;
/** Attempts (and finished messages) are kept this long. */
const KEEP_MS = 30 * 86_400_000;
/** The answer's first bytes kept with an attempt. */
const RESPONSE_KEPT = 1024;

/** Who the records are read as: an administrator, in the default language (SPEC §17.2). */
const DELIVERY_CALLER: Caller = { id: 0, login: 'webhooks', role: 'administrator' };

const PATHS: Record<string, string> = { event: 'events', venue: 'venues', organizer: 'organizers', category: 'categories', tag: 'tags' };

/**
 * The delivery worker of one instance (SPEC §17.3): the outbox is the queue. It claims due messages under a lease
 * (one attempt per message at a time, across instances), renders a message's body at its first attempt and keeps
 * it, signs and posts it, and records the outcome: delivered, due again on Standard Webhooks' schedule (or after
 * `Retry-After`), or given up after ten attempts; 410 disables the endpoint, and so do five days of failures. On
 * shutdown it takes no new message and lets those in flight finish.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  /** The passes running (the loop's and those asked for with `tick`). */
  private readonly passes = new Set<Promise<number>>();
  private lastPrune = 0;
  /** Bodies being made in this pass, by change (see `bodyOf`). */
  private readonly rendering = new Map<string, Promise<string>>();

  constructor(
    private readonly store: WebhookStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly links: LinkBuilder,
    private readonly events: EventService,
    private readonly venues: VenueService,
    private readonly organizers: OrganizerService,
    private readonly terms: TermService,
    private readonly metrics: Metrics,
  ) {}

  /** Started with the application unless `WEBHOOK_DELIVERY=off` (an instance that only answers the API). */
  onApplicationBootstrap(): void {
    this.metrics.gauge('calendar_webhook_queue_depth', 'Webhook messages waiting to be delivered (SPEC §17), by whether their endpoint is enabled', ['endpoint'], async () =>
      (await this.store.pendingByEndpointState()).map(({ enabled, count }) => ({ labels: { endpoint: enabled ? 'enabled' : 'disabled' }, value: count })),
    );
    if (this.config.webhookDelivery) this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    // Deliveries in flight finish (each ends within its timeout); the wait holds no timer once they did.
    if (this.inFlight.size > 0) await Promise.race([Promise.allSettled([...this.inFlight]), sleep(ATTEMPT_TIMEOUT_MS + 1_000, undefined, { ref: false })]);
  }

  /** Looks for due messages now (after a write through this instance added some). */
  wake(): void {
    this.wakeUp?.();
  }

  /** One pass: claims the messages due now and makes one attempt of each; answers how many. */
  tick(): Promise<number> {
    const pass = this.pass();
    this.passes.add(pass);
    return pass.finally(() => this.passes.delete(pass));
  }

  /**
   * Resolves once no pass is running and no attempt is in flight (what a pass started has been recorded): for a
   * caller about to change the tables under the worker (the tests empty them between cases).
   */
  async settled(): Promise<void> {
    while (this.passes.size > 0 || this.inFlight.size > 0) await Promise.allSettled([...this.passes, ...this.inFlight]);
  }

  private async pass(): Promise<number> {
    const now = this.clock.now().getTime();
    const due = await this.store.due(now, BATCH);
    const { claim, held } = await this.store.claim(due.map((message) => message.id), now, now + LEASE_MS);
    const claimed = due.filter((message) => held.has(message.id));
    // The lease is counted in real time (the clock of the claim may be a test's): the attempt stops before it ends.
    const leaseEnd = Date.now() + LEASE_MS;
    const endpoints = await this.store.many([...new Set(claimed.map((message) => message.webhookId))]);
    try {
      await Promise.all(claimed.map((message) => this.track(this.attempt(message, claim, endpoints.get(message.webhookId), leaseEnd))));
    } finally {
      this.rendering.clear();
    }
    if (now - this.lastPrune > 3_600_000) {
      this.lastPrune = now;
      await this.store.prune(now - KEEP_MS);
    }
    return claimed.length;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let made = 0;
      try {
        made = await inBackground(() => this.tick());
      } catch {
        // The database may be away for a moment (a restart, a node leaving): the next pass tries again.
      }
      if (made > 0 || this.stopping) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_POLL_MS);
        timer.unref();
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  private track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work);
    return work.finally(() => this.inFlight.delete(work));
  }

  /** One attempt of a claimed message, and its outcome recorded. */
  private async attempt(message: MessageRow, claim: string, webhook: WebhookRow | undefined, leaseEnd: number): Promise<void> {
    // Deleted since it was claimed: its messages went with it.
    if (!webhook) return;
    const started = this.clock.now().getTime();
    const result = await this.send(message, webhook, leaseEnd).catch((error: Error) => ({ status: null, error: error.message.slice(0, 500), response: null, retryAfter: null }));
    const finished = this.clock.now().getTime();
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const attempts = message.attempts + 1;
    let state: MessageRow['state'] = 'pending';
    let nextAt = finished;
    let failingSince: number | null = null;
    let disable: string | undefined;
    if (ok) {
      state = 'delivered';
    } else {
      failingSince = webhook.failingSince ?? started;
      if (result.status === 410) {
        // Gone: the endpoint is disabled; the message waits for it to be enabled again.
        disable = 'gone';
      } else {
        const delay = retryDelayMs(attempts);
        if (delay === null) state = 'failed';
        else nextAt = finished + Math.max(delay, (result.retryAfter ?? 0) * 1000);
        if (finished - failingSince >= FAILING_FOR_MS) disable = 'failing';
      }
    }
    this.metrics.deliveries.inc({ outcome: ok ? 'delivered' : disable !== undefined ? 'disabled' : state === 'failed' ? 'given_up' : 'failed' });
    await this.store.finish(
      message,
      claim,
      { at: started, status: result.status, durationMs: finished - started, error: ok ? null : result.error, response: result.response },
      { state, nextAt },
      { failingSince, disable },
    );
  }

  private async send(message: MessageRow, webhook: WebhookRow, leaseEnd: number): Promise<{ status: number | null; error: string | null; response: string | null; retryAfter: number | null }> {
    const body = message.body ?? (await this.bodyOf(message, webhook));
    if (!this.config.webhookAllowPrivate) {
      const problem = await hostProblem(webhook.url);
      if (problem) return { status: null, error: `not sent: the URL's host ${problem}`, response: null, retryAfter: null };
    }
    const now = this.clock.now().getTime();
    const timestamp = Math.floor(now / 1000);
    const left = leaseEnd - Date.now() - 1_000;
    if (left <= 0) return { status: null, error: 'not sent: the claim ran out while the body was made', response: null, retryAfter: null };
    const secrets = webhook.previousSecret && (webhook.previousUntil ?? 0) > now ? [webhook.secret, webhook.previousSecret] : [webhook.secret];
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'calendar-webhooks/1',
        'webhook-id': message.msgId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(secrets, message.msgId, timestamp, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(Math.min(ATTEMPT_TIMEOUT_MS, left)),
    });
    const text = (await response.text().catch(() => '')).slice(0, RESPONSE_KEPT);
    const retryAfter = [429, 503].includes(response.status) ? retryAfterSeconds(response.headers.get('retry-after'), now) : null;
    const error = response.status >= 300 && response.status < 400 ? `redirect to ${response.headers.get('location') ?? '(no location)'} not followed` : response.ok ? null : `HTTP ${response.status}`;
    return { status: response.status, error, response: text, retryAfter };
  }

  /** A message's body, made once for the messages of one change to several endpoints claimed together. */
  private bodyOf(message: MessageRow, webhook: WebhookRow): Promise<string> {
    const key = `${message.kind}:${message.recordId}:${message.type}:${message.createdAt}:${webhook.origin}`;
    let made = this.rendering.get(key);
    if (!made) {
      made = this.render(message, webhook);
      this.rendering.set(key, made);
      // Kept while the claims of its pass are attempted; a failed render is not kept.
      made.catch(() => this.rendering.delete(key));
    }
    return made;
  }

  /**
   * The body of a message (SPEC §17.2), made at its first attempt and kept for the others: the record as a read by
   * id answers an administrator in the default language, or null once it no longer exists.
   */
  private async render(message: MessageRow, webhook: WebhookRow): Promise<string> {
    const scope: RequestContext = { caller: DELIVERY_CALLER, language: this.config.defaultLanguage, origin: webhook.origin, versions: {} };
    const kindPath = message.type === PING_TYPE ? 'webhooks' : PATHS[message.kind];
    const restUrl = this.links.rest(webhook.origin, this.config.defaultLanguage, `${kindPath}/${message.recordId}`);
    const object = message.type === PING_TYPE ? 'null' : await this.objectOf(message.kind, message.recordId, scope);
    const head = JSON.stringify({ type: message.type, timestamp: new Date(message.createdAt).toISOString() });
    const data = `{"id":${message.recordId},"kind":${JSON.stringify(message.kind)},"rest_url":${JSON.stringify(restUrl)},"object":${object}}`;
    const body = `${head.slice(0, -1)},"data":${data}}`;
    await this.store.setBody(message, body);
    // Another instance may have kept its body first (a lease that ran out): the kept one is sent.
    return (await this.store.body(message.id)) ?? body;
  }

  private async objectOf(kind: string, id: number, scope: RequestContext): Promise<string> {
    try {
      if (kind === 'event') return (await this.events.getEvent({ id }, scope)).text;
      if (kind === 'venue') return JSON.stringify(await this.venues.get({ id }, scope));
      if (kind === 'organizer') return JSON.stringify(await this.organizers.get({ id }, scope));
      return JSON.stringify(await this.terms.get(kind === 'category' ? 'category' : 'tag', id, scope));
    } catch (error) {
      if (error instanceof ApiException && error.status === 404) return 'null';
      throw error;
    }
  }
}

/** `Retry-After` in seconds (a number of seconds or an HTTP date), or null. */
function retryAfterSeconds(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
