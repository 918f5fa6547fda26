import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Injectable, SetMetadata } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CacheRegistry, CacheStats } from '@calendar/shared/cache';
import { AppConfig } from '@calendar/shared/config';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ApiException } from './api-exception';
import { TextAnswer } from './json-text';

/** Marks a route that reads its own `Authorization` header: the auth guard leaves it alone. */
export const OWN_CREDENTIALS = 'calendar:own-credentials';

/** Seconds: from a cached answer (about 0.1 ms) to a slow export page. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The service's metrics (SPEC §19), in one prom-client registry of its own (so that several applications in one
 * process, as in tests, keep theirs apart). The platform records every request; the database, the caches, the
 * webhook worker and sync record theirs here; what is read at scrape time (pool use, cache counts, the webhook
 * queue) is collected when `/metrics` is asked for.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly requests = new Histogram({
    name: 'calendar_http_request_duration_seconds',
    help: 'Requests answered, by route (the route pattern; "unmatched" for none), method and status, with their duration',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly queries = new Histogram({
    name: 'calendar_db_query_duration_seconds',
    help: 'SQL statements sent to the database, by outcome, with their duration (to the millisecond)',
    labelNames: ['outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly writeRetries = new Counter({
    name: 'calendar_db_write_retries_total',
    help: 'Writes run again whole after a deadlock, a lost certification or a concurrent unique value (SPEC §15), by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly syncs = new Counter({
    name: 'calendar_sync_requests_total',
    help: 'Sync pages answered (SPEC §16.2), by kind and mode (full: a page of a full sync, changes: of a sync from a token)',
    labelNames: ['kind', 'mode'] as const,
    registers: [this.registry],
  });

  readonly deliveries = new Counter({
    name: 'calendar_webhook_deliveries_total',
    help: 'Webhook delivery attempts (SPEC §17.3), by outcome: delivered, failed (to be retried), given_up, disabled (the endpoint was disabled by it)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(caches: CacheRegistry) {
    collectDefaultMetrics({ register: this.registry, prefix: 'calendar_' });
    const stats = () => caches.stats();
    const fromCaches = (name: string, help: string, count: (cache: CacheStats) => number) =>
      new Counter({
        name,
        help,
        labelNames: ['cache'] as const,
        registers: [this.registry],
        collect() {
          // The caches count for themselves: the counter is set to their counts when scraped.
          this.reset();
          for (const cache of stats()) this.inc({ cache: cache.name }, count(cache));
        },
      });
    fromCaches('calendar_cache_hits_total', 'Answers and parts of answers served from each cache', (cache) => cache.hits);
    fromCaches('calendar_cache_misses_total', 'Answers and parts of answers each cache did not hold, computed instead', (cache) => cache.misses);
    new Gauge({
      name: 'calendar_cache_entries',
      help: 'Entries each cache holds now',
      labelNames: ['cache'] as const,
      registers: [this.registry],
      collect() {
        for (const cache of stats()) this.set({ cache: cache.name }, cache.entries);
      },
    });
    new Gauge({
      name: 'calendar_cache_used',
      help: 'What the entries of each cache hold now, and its capacity, in its unit (bytes, about, or entries)',
      labelNames: ['cache', 'unit', 'of'] as const,
      registers: [this.registry],
      collect() {
        for (const cache of stats()) {
          this.set({ cache: cache.name, unit: cache.unit, of: 'used' }, cache.used);
          this.set({ cache: cache.name, unit: cache.unit, of: 'capacity' }, cache.capacity);
        }
      },
    });
  }

  /** A gauge read at scrape time (`read` may query the database). */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[], read: () => Promise<{ labels: Partial<Record<L, string>>; value: number }[]>): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { labels, value } of await read()) this.set(labels, value);
      },
    });
  }

  /** Route labels by route pattern, made once per route rather than once per request. */
  private readonly routes = new Map<string, string>();

  /** The route label of a request: its pattern without the patterns of its parameters (`/events/:id`). */
  routeOf(pattern: string | undefined): string {
    if (pattern === undefined) return 'unmatched';
    let label = this.routes.get(pattern);
    if (label === undefined) {
      label = pattern.replace(/\([^)]*\)/g, '');
      this.routes.set(pattern, label);
    }
    return label;
  }
}

/**
 * `GET /metrics`, outside the API root, in Prometheus' text format (SPEC §19); with `METRICS_TOKEN` set, only for
 * `Authorization: Bearer <that token>`. Never cached, never rate-limited, not in the API description.
 */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  @SetMetadata(OWN_CREDENTIALS, true)
  async scrape(@Headers('authorization') authorization: string | undefined): Promise<TextAnswer> {
    const token = this.config.metricsToken;
    if (token !== null && !sameText(authorization ?? '', `Bearer ${token}`)) {
      throw new ApiException(401, 'rest_forbidden', 'The metrics need Authorization: Bearer <METRICS_TOKEN>.', {}, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    return new TextAnswer(await this.metrics.registry.metrics(), this.metrics.registry.contentType);
  }
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
