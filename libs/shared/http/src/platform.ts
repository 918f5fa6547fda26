import { CacheRegistry } from '@calendar/shared/cache';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { RequestMethod } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@calendar/shared/config';
import formBody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { ApiException } from './api-exception';
import { answerWhileDraining } from './refused-body';
import { applyCaching } from './caching';
import { Metrics } from './metrics';
import { BODY_LIMIT_BYTES } from './constants';
import { ApiExceptionFilter } from './exception.filter';
import { CurrentVersion, ResponseCache, sentBody } from './response-cache';
import { mergeRequestParams } from './params';
import { requestOrigin } from './request-context';
import { RouteRegistry } from './route-registry';
import { createValidationPipe } from './validation.pipe';

type RawRequest = IncomingMessage & { urlLanguage?: string };

/** The longest path parameter (a slug) the router reads; a longer one is answered 414. */
const MAX_PATH_SEGMENT = 500;

/**
 * What the router refuses before any route runs (an over-long slug, an unreadable URL) still gets the error
 * envelope. (The request and reply are typed loosely: Nest's adapter declares them with its own copy of Fastify.)
 */
function routerRefusal(error: { code?: string }, _request: unknown, reply: unknown): void {
  const mapped =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiException(414, 'rest_uri_too_long', `A path segment is longer than ${MAX_PATH_SEGMENT} characters.`)
      : new ApiException(400, 'rest_bad_url', 'The request URL could not be read.');
  void (reply as FastifyReply).code(mapped.status).type('application/json; charset=utf-8').send(mapped.toBody());
}

/** Paths answered outside the API root. */
export const OPERATIONAL_PATHS = ['healthz', 'readyz', 'metrics'];

/**
 * The Fastify adapter: language bases (`/fr/wp-json/...`) are rewritten onto the one route table and remembered
 * on the request; trailing slashes are accepted; request ids come from `X-Request-Id` when sane.
 */
export function createHttpAdapter(config: AppConfig): FastifyAdapter {
  const prefixes = new Map(config.languages.map((language) => [`/${language}${config.apiRoot}`, language]));
  return new FastifyAdapter({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: MAX_PATH_SEGMENT },
    frameworkErrors: routerRefusal,
    genReqId: (req: IncomingMessage) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
    },
    rewriteUrl: (req: RawRequest) => {
      const url = req.url ?? '/';
      const [, language] = /^\/([^/?]+)/.exec(url) ?? [];
      if (language === undefined) return url;
      for (const [prefix, code] of prefixes) {
        if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
          req.urlLanguage = code;
          return url.slice(prefix.length - config.apiRoot.length);
        }
      }
      // Public pages have the same language bases (`/fr/event/...`, SPEC §14).
      if (config.languages.includes(language) && language !== config.defaultLanguage) {
        const rest = url.slice(language.length + 1);
        if (rest === '' || rest.startsWith('/') || rest.startsWith('?')) {
          req.urlLanguage = language;
          return rest.startsWith('/') ? rest : `/${rest}`;
        }
      }
      return url;
    },
  });
}

/**
 * Installs the REST platform on an application before it starts: parsers, parameter merging, logging,
 * caching headers, error envelope, validation and list rendering. `main.ts` and every e2e test go through it.
 * `pagePaths`: the routes of the public pages, served outside the API root.
 */
export async function configureHttpPlatform(app: NestFastifyApplication, config: AppConfig, logger: Logger, pagePaths: string[] = []): Promise<RouteRegistry> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const routes = new RouteRegistry();

  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));

  await fastify.register(formBody, { bodyLimit: BODY_LIMIT_BYTES });
  // Multipart bodies carry form fields only: the service takes no file uploads.
  await fastify.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fieldSize: BODY_LIMIT_BYTES, files: 0, fields: 500 } });
  fastify.removeContentTypeParser(['application/json']);
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiException(400, 'rest_invalid_json', 'Invalid JSON body passed.'), undefined);
    }
  });

  fastify.addHook('onRequest', async (request, reply) => {
    request.urlLanguage = (request.raw as RawRequest).urlLanguage;
    request.caller = null;
    reply.header('X-Request-Id', request.id);
  });
  fastify.addHook('preValidation', async (request) => mergeRequestParams(request));
  // Answers rendered ahead (JsonText) and what the response cache's `answer` made are sent as they are; everything
  // else as JSON.stringify gives it. Fastify types a serializer's result as a string; a Buffer (an answer written as
  // bytes) goes to onSend and out as it is.
  fastify.setReplySerializer(sentBody as (payload: unknown) => string);
  const cache = new ResponseCache(app.get(CurrentVersion), config.responseCacheBytes, OPERATIONAL_PATHS.map((path) => `/${path}`), app.get(CacheRegistry));
  fastify.addHook('onSend', async (request, reply, payload) => {
    cache.settle(request);
    const discovery = `<${requestOrigin(request)}${config.apiRoot}/>; rel="https://api.w.org/"`;
    const existing = reply.getHeader('Link');
    reply.header('Link', [...(existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)]), discovery].join(', '));
    const answer = applyCaching(request, reply, payload);
    // A body refused as too large may still be arriving: the client gets to read the 413 before the connection closes.
    if (reply.statusCode === 413 && (typeof answer === 'string' || Buffer.isBuffer(answer))) {
      const draining = answerWhileDraining(request.raw, answer);
      if (draining) {
        reply.header('content-length', draining.length).header('connection', 'close');
        return draining.body;
      }
    }
    return answer;
  });
  const metrics = app.get(Metrics);
  fastify.addHook('onResponse', async (request, reply) => {
    metrics.requests.labels(metrics.routeOf(request.routeOptions.url), request.method, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
    // The line is built only when it is written (`LOG_LEVEL` at info or below).
    if (!logger.isLevelEnabled('info')) return;
    logger.info(
      {
        request_id: request.id,
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
  });

  // Browsers on other origins may read the API; credentials travel in the Authorization header, never in cookies.
  app.enableCors({
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'If-Match', 'If-Unmodified-Since', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: ['X-WP-Total', 'X-WP-TotalPages', 'X-TEC-Total', 'X-TEC-TotalPages', 'Link', 'ETag', 'Location', 'X-Request-Id', 'Allow'],
    maxAge: 600,
  });
  // Operational paths and public pages (`pagePaths`, Nest route paths) live outside the API root.
  app.setGlobalPrefix(config.apiRoot, { exclude: [...OPERATIONAL_PATHS, ...pagePaths].map((path) => ({ path, method: RequestMethod.GET })) });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter(routes, logger));
  // Cached anonymous answers are served by a hook before the Nest pipeline; what a handler gives is rendered (a
  // list's envelope and headers included) and kept by another before it is serialised, and handed to the identical
  // requests that waited for it when it is sent. No global Nest interceptor (see ResponseCache).
  fastify.addHook('preHandler', (request, reply) => cache.serveHit(request, reply));
  // Fastify hands what the hook throws to the error handler (Nest's filters) as for any hook.
  fastify.addHook('preSerialization', (request, reply, payload, done) => done(null, cache.answer(request, reply, payload)));
  return routes;
}
