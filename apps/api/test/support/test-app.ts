import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TokenService, UserService } from '@calendar/shared/auth';
import { AppConfig, loadConfig } from '@calendar/shared/config';
import { createLogger, DiscoveryService, Logger } from '@calendar/shared/http';
import { createTestDatabase, Engine, resetDatabase, TestDatabase } from '@calendar/shared/testing';
import type { Role } from '@calendar/shared/http';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/bootstrap';
import { OpenApiCheck } from './openapi-check';
import { PrismProxy, prismDocument, startPrism, violationsOf } from './prism';

declare const E2E_ENGINE: Engine;
declare const E2E_PRISM: boolean;
declare const E2E_REDIS_URL: string | null;

export const ENGINE: Engine = typeof E2E_ENGINE === 'undefined' ? 'sqlite' : E2E_ENGINE;
/** Whether requests go over HTTP through Prism's validating proxy (the `-prism` projects of the suite). */
export const THROUGH_PRISM: boolean = typeof E2E_PRISM !== 'undefined' && E2E_PRISM;
/** A Redis the suite may use (rate-limit counters shared by instances), or null when none answers. */
export const REDIS_URL: string | null = typeof E2E_REDIS_URL === 'undefined' ? null : E2E_REDIS_URL;
export const HOST = 'calendar.test';
export const ORIGIN = `http://${HOST}`;
export const API = `${ORIGIN}/wp-json/calendar/events/v1`;
export const FR_API = `${ORIGIN}/fr/wp-json/calendar/events/v1`;

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

export interface RequestOptions {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** A raw body with its content type. */
  raw?: { body: string | Buffer; type: string };
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  config: AppConfig;
  dataSource: DataSource;
  /** `path` is below the host: `/wp-json/calendar/events/v1/categories`. */
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  /** A new user with the role, and a token for it. */
  user(role: Role, login?: string): Promise<{ id: number; login: string; token: string }>;
  reset(): Promise<void>;
  close(): Promise<void>;
  /** A provider of the running application (to watch what it does). */
  get<T>(type: new (...args: never[]) => T): T;
}

/**
 * Whether Prism's proxy can read a request at all: a URL that does not decode, a very long one, or a JSON body that
 * does not parse or is no object it cannot forward (it answers such requests itself, or stops answering), so those
 * go to the application directly.
 */
function prismCanRead(target: string, headers: Record<string, string>, payload: string | Buffer | undefined): boolean {
  // Its HTTP server refuses request heads over Node's 16 KiB (431) before anything is validated.
  if (target.length > 8192) return false;
  try {
    decodeURI(target);
    // A JSON body that is no object (`null`, `"text"`: the service refuses those with 400) makes it stop answering.
    if (payload === undefined || !/json/i.test(headers['content-type'] ?? '')) return true;
    const body: unknown = JSON.parse(payload.toString());
    return typeof body === 'object' && body !== null;
  } catch {
    return false;
  }
}

/**
 * The real application, through the same `createApp`/`bootstrap` as `main.ts`, on a database of its own
 * (SQLite in memory or a new MySQL database, per E2E_ENGINE).
 */
export async function startTestApp(env: Record<string, string> = {}, options: { logger?: Logger; database?: TestDatabase } = {}): Promise<TestApp> {
  const database: TestDatabase = options.database ?? (await createTestDatabase(ENGINE));
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', ...env });
  let app: NestFastifyApplication;
  try {
    app = await createApp(config, options.logger ?? createLogger(process.env['E2E_LOG_LEVEL'] ?? 'silent'));
  } catch (error) {
    if (!options.database) await database.drop();
    throw error;
  }
  const dataSource = app.get(DataSource);
  let users = 0;
  let check: OpenApiCheck | undefined;
  // The document as `GET .../doc` serves it (taken from the service itself, so that no request is added).
  const described = () => app.get(DiscoveryService).openApi(ORIGIN, config.defaultLanguage);
  // The language bases, as the document's second server has them.
  const bases = (described().servers ?? []).flatMap((server) => server.variables?.['language']?.enum ?? []);
  // In the `-prism` projects every request goes over HTTP through Prism's validating proxy as well.
  let prism: PrismProxy | undefined;
  if (THROUGH_PRISM) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as { port: number };
    prism = await startPrism(prismDocument(described() as never, `${config.apiRoot}/calendar/events/v1`, bases), `http://127.0.0.1:${port}`);
  }
  const send = async (method: string, target: string, requestHeaders: Record<string, string>, payload: string | Buffer | undefined) => {
    if (!prism || !prismCanRead(target, requestHeaders, payload)) {
      const response = await app.inject({ method: method as 'GET', url: target, headers: requestHeaders, payload });
      return { status: response.statusCode, headers: response.headers, text: response.body };
    }
    // An absolute-form target (`GET http://host/path`) names its host as the Host header would.
    const absolute = /^https?:\/\//i.test(target) ? new URL(target) : null;
    const path = absolute ? `${absolute.pathname}${absolute.search}` : target;
    const headers = absolute ? { ...requestHeaders, host: absolute.host } : requestHeaders;
    // The proxy sends its own Host upstream; the service takes the request's from X-Forwarded-Host (as behind any proxy).
    const { host, ...rest } = headers;
    // A connection of its own for each request (`Connection: close`): a kept-alive one may be reused by the client
    // just as the proxy, idle past its keep-alive time, closes it ("other side closed"), which a loaded run met on
    // reads and on writes alike; a write cannot simply be sent again.
    const response = await fetch(`${prism.url}${path}`, {
      method,
      headers: { 'x-forwarded-host': host, ...rest, connection: 'close' },
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(20_000),
    });
    const text = method === 'HEAD' ? '' : await response.text();
    const violations = violationsOf(response.headers.get('sl-violations'), response.status);
    if (violations.length > 0) {
      throw new Error(`Prism finds the exchange off the API description:\n${violations.map((v) => `${method} ${path} → ${response.status}: ${v.location.join('.')} ${v.message}`).join('\n')}`);
    }
    const answerHeaders: Reply['headers'] = {};
    response.headers.forEach((value, name) => {
      if (name !== 'sl-violations') answerHeaders[name] = value;
    });
    return { status: response.status, headers: answerHeaders, text };
  };
  return {
    config,
    dataSource,
    get: (type) => app.get(type),
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { host: HOST, ...options.headers };
      if (options.token) headers['authorization'] = `Bearer ${options.token}`;
      let payload: string | Buffer | undefined;
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(options.json);
      } else if (options.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = new URLSearchParams(options.form).toString();
      } else if (options.raw) {
        headers['content-type'] = options.raw.type;
        payload = options.raw.body;
      }
      const response = await send(method, path, headers, payload);
      let body: unknown = undefined;
      const contentType = String(response.headers['content-type'] ?? '');
      if (contentType.includes('json') && response.text !== '') body = JSON.parse(response.text);
      // Every answer is held to the API description the service serves.
      check ??= new OpenApiCheck(described() as never, config.apiRoot, bases);
      const problems = check.problems({ method, url: path, contentType: headers['content-type'], payload }, response.status, contentType, body);
      if (problems.length > 0) throw new Error(`The answer is not as the API description says:\n${problems.join('\n')}`);
      return { status: response.status, headers: response.headers, body, text: response.text };
    },
    async user(role, login) {
      users += 1;
      const user = await app.get(UserService).create(login ?? `${role}${users}`, role);
      const token = await app.get(TokenService).issue(user);
      return { id: user.id, login: user.login, token };
    },
    reset: () => resetDatabase(dataSource),
    async close() {
      await prism?.close();
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}

/** Two instances of the application on one database of their own: a shared SQLite file, or a new MySQL database. */
export async function startTwoInstances(env: Record<string, string> = {}): Promise<{ a: TestApp; b: TestApp; close(): Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 'calendar-instances-'));
  const database: TestDatabase = ENGINE === 'sqlite' ? { url: `sqlite:${join(directory, 'shared.sqlite')}`, drop: async () => undefined } : await createTestDatabase('mysql');
  const a = await startTestApp(env, { database });
  const b = await startTestApp(env, { database });
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await database.drop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
