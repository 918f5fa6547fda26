import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TokenService, UserService } from '@calendar/shared/auth';
import { AppConfig, loadConfig } from '@calendar/shared/config';
import { createLogger, DiscoveryService, Logger } from '@calendar/shared/http';
import { createTestDatabase, Engine, resetDatabase, TestDatabase } from '@calendar/shared/testing';
import type { Role } from '@calendar/shared/http';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/bootstrap';
import { OpenApiCheck } from './openapi-check';

declare const E2E_ENGINE: Engine;

export const ENGINE: Engine = typeof E2E_ENGINE === 'undefined' ? 'sqlite' : E2E_ENGINE;
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
      const response = await app.inject({ method: method as 'GET', url: path, headers, payload });
      let body: unknown = undefined;
      const contentType = String(response.headers['content-type'] ?? '');
      if (contentType.includes('json') && response.body !== '') body = JSON.parse(response.body);
      // Every answer is held to the API description the service serves.
      // The document as `GET .../doc` serves it (taken from the service itself, so that no request is added).
      const described = () => app.get(DiscoveryService).openApi({ headers: { host: HOST }, protocol: 'http' } as never, config.defaultLanguage);
      check ??= new OpenApiCheck(described() as never, config.apiRoot, config.languages.filter((language) => language !== config.defaultLanguage));
      const problems = check.problems({ method, url: path, contentType: headers['content-type'], payload }, response.statusCode, contentType, body);
      if (problems.length > 0) throw new Error(`The answer is not as the API description says:\n${problems.join('\n')}`);
      return { status: response.statusCode, headers: response.headers, body, text: response.body };
    },
    async user(role, login) {
      users += 1;
      const user = await app.get(UserService).create(login ?? `${role}${users}`, role);
      const token = await app.get(TokenService).issue(user);
      return { id: user.id, login: user.login, token };
    },
    reset: () => resetDatabase(dataSource),
    async close() {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}
