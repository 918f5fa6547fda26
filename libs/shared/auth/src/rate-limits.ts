import rateLimit from '@fastify/rate-limit';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@calendar/shared/config';
import { ApiException, Logger } from '@calendar/shared/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Redis from 'ioredis';
import { TokenService } from './token.service';

/** The window every limit counts requests in (SPEC §18: requests per minute). */
const WINDOW_MS = 60_000;

/** Paths never limited (SPEC §18): what probes and scrapers call. */
const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics']);

/** One limit: its policy name (as the headers name it), its quota per window, and its counter. */
interface Limit {
  name: 'anonymous' | 'user';
  quota: number;
  count: (request: FastifyRequest) => Promise<{ isAllowed: false; remaining: number; ttlInSeconds: number; isExceeded: boolean } | { isAllowed: true }>;
}

/** The counters' keys are per calendar: instances of one database share them, other calendars on one Redis do not. */
function namespaceOf(config: AppConfig): string {
  const database = config.database.type === 'mysql' ? `mysql:${new URL(config.database.url).host}/${config.database.database}` : `sqlite:${config.database.file}`;
  return `calendar-rate-limit:${database}:`;
}

function isUnlimited(request: FastifyRequest): boolean {
  const path = request.url.split('?', 1)[0].replace(/\/+$/, '');
  return UNLIMITED.has(path);
}

/**
 * Rate limits (SPEC §18), off unless `RATE_LIMIT_ANONYMOUS` or `RATE_LIMIT_USER` is set. `@fastify/rate-limit`
 * counts (per instance, or in Redis for every instance when `REDIS_URL` is set); this hook picks the limit of
 * the request's caller, writes the IETF `RateLimit-Policy` / `RateLimit` headers on every answer under a limit,
 * and answers 429 `rest_rate_limited` with `Retry-After` past it. It runs first (`onRequest`), before cached
 * answers are served. Credentials are looked up here once, and the auth guard uses what was found; a request
 * whose credentials are not valid counts as anonymous (and gets its 401 from the guard).
 */
export async function installRateLimits(app: NestFastifyApplication, config: AppConfig, logger: Logger): Promise<void> {
  if (config.rateLimitAnonymous === null && config.rateLimitUser === null) return;
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const redis = config.redisUrl === null ? null : new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: false });
  redis?.on('error', (error: Error) => logger.warn({ error: error.message }, 'rate limits: Redis is not reachable; requests are not limited meanwhile'));
  // Counting is the plugin's; which routes and headers is this hook's (global: false leaves every route alone).
  await fastify.register(rateLimit, {
    global: false,
    timeWindow: WINDOW_MS,
    ...(redis ? { redis, nameSpace: namespaceOf(config) } : {}),
    // A Redis that does not answer lets requests through rather than failing them.
    skipOnError: true,
  });
  if (redis) fastify.addHook('onClose', async () => void redis.disconnect());
  const limit = (name: Limit['name'], quota: number | null, key: (request: FastifyRequest) => string): Limit | null =>
    quota === null ? null : { name, quota, count: fastify.createRateLimit({ max: quota, timeWindow: WINDOW_MS, keyGenerator: (request) => `${name}:${key(request)}` }) };
  const anonymous = limit('anonymous', config.rateLimitAnonymous, (request) => request.ip);
  const users = limit('user', config.rateLimitUser, (request) => String(request.authenticated?.id));
  const tokens = app.get(TokenService);

  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (isUnlimited(request)) return;
    const header = request.headers.authorization;
    request.authenticated = header === undefined ? null : await tokens.authenticate(header);
    const applied = request.authenticated ? users : anonymous;
    if (!applied) return;
    const counted = await applied.count(request);
    if (counted.isAllowed) return;
    reply.header('RateLimit-Policy', `"${applied.name}";q=${applied.quota};w=${WINDOW_MS / 1000}`);
    reply.header('RateLimit', `"${applied.name}";r=${counted.remaining};t=${counted.ttlInSeconds}`);
    if (!counted.isExceeded) return;
    const refused = new ApiException(429, 'rest_rate_limited', `Too many requests: the ${applied.name} limit is ${applied.quota} a minute; try again in ${counted.ttlInSeconds} seconds.`, {}, { 'Retry-After': String(counted.ttlInSeconds) });
    return reply.code(429).headers(refused.headers).type('application/json; charset=utf-8').send(refused.toBody());
  });
}
