import { isIP } from 'node:net';
import { parseTimeZone, TIME_ZONE_RULE, TimeZone } from '@calendar/shared/time';

export type DatabaseConfig =
  | { type: 'mysql'; url: string; database: string }
  | { type: 'sqlite'; file: string };

/** The validated configuration of the service (SPEC §9). */
export class AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** Always starts with `/` and never ends with one: `/wp-json`. */
  apiRoot: string;
  /** Base of public `url` fields; when unset, the request's own origin. */
  siteUrl: string | null;
  /** The site's name, as calendar feeds are titled (SPEC §12); when unset, the host of the site. */
  siteName: string | null;
  languages: string[];
  defaultLanguage: string;
  timezone: TimeZone;
  adminToken: string | null;
  logLevel: LogLevel;
  /** Bytes the response cache may hold (keys and answers); 0 turns it off. */
  responseCacheBytes: number;
  /** List totals kept per filter and data version; 0 turns the memo off (every list counts its rows). */
  countMemoEntries: number;
  /** Bytes (about) of rendered venues, organizers and terms kept for embedding, per data version; 0 keeps none. */
  fragmentCacheBytes: number;
  /** Bytes (about) of event list renderings kept under each event's revision; 0 keeps none. */
  renderCacheBytes: number;
  /**
   * The longest expected walk of the start-ordered listing index for one page of a filtered list; a page whose
   * walk would be longer is read from the link side instead. 0 never walks.
   */
  pageWalkRows: number;
  /**
   * `wsrep_sync_wait` of the service's MySQL sessions (SPEC §15): `auto` sets 1 (reads wait for the cluster to
   * apply every write committed before them) on a Galera node and nothing elsewhere; a number from 0 to 15 is set as
   * it is on a Galera node.
   */
  syncWait: 'auto' | number;
  /**
   * Where the embedded SQLite database's statements that only read run: `thread` (a second, read-only connection on
   * a thread of its own, for a database file) or `main` (the one connection, on the main thread, as every write).
   */
  sqliteReads: 'thread' | 'main';
  /** Days a sync token stays usable, and the change log keeps what it names (SPEC §16.2). */
  syncRetentionDays: number;
  /** Whether webhook endpoints may be on loopback, private, link-local or unique-local addresses (SPEC §17.1). */
  webhookAllowPrivate: boolean;
  /** Whether this instance delivers webhook messages (instances that only answer the API may leave it to others). */
  webhookDelivery: boolean;
  /** Requests per minute per client address of anonymous callers (SPEC §18); null: no limit. */
  rateLimitAnonymous: number | null;
  /** Requests per minute per user, from any address (SPEC §18); null: no limit. */
  rateLimitUser: number | null;
  /** Where the rate-limit counters of every instance are kept (`redis://host:port/db`); null: per instance. */
  redisUrl: string | null;
  /**
   * The proxies whose `X-Forwarded-For` gives the client address: false (none: the address is the connection's),
   * true (every one), a number of hops, or the proxies' addresses and CIDR ranges.
   */
  trustProxy: boolean | number | string[];
  /** When set, `GET /metrics` asks for `Authorization: Bearer <this token>` (SPEC §19). */
  metricsToken: string | null;
  /**
   * Whether this process runs the service's timed jobs (the series horizon, the change log's pruning): the
   * service does; `export` and `import` do not, so that they change nothing but what they are asked to. Not read
   * from the environment.
   */
  runsJobs = true;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(readonly problems: Record<string, string>) {
    super(
      'Invalid configuration:\n' +
        Object.entries(problems)
          .map(([name, problem]) => `  ${name}: ${problem}`)
          .join('\n'),
    );
    this.name = 'ConfigError';
  }
}

const LANGUAGE_CODE = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;
const MIN_ADMIN_TOKEN_LENGTH = 32;

/** Reads and validates the environment; every bad variable is named in one ConfigError. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: Record<string, string> = {};
  const read = (name: string, fallback: string): string => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? fallback : value.trim();
  };

  const config = new AppConfig();

  const port = read('PORT', '3000');
  config.port = Number(port);
  if (!/^\d+$/.test(port) || config.port < 1 || config.port > 65535) problems['PORT'] = 'must be a port number from 1 to 65535';

  config.host = read('HOST', '127.0.0.1');

  const databaseUrl = read('DATABASE_URL', 'sqlite:data/calendar.sqlite');
  const database = parseDatabaseUrl(databaseUrl);
  if (database) config.database = database;
  else problems['DATABASE_URL'] = 'must be mysql://user:pass@host:port/database, sqlite:<file> or sqlite::memory:';

  const apiRoot = read('API_ROOT', '/wp-json');
  config.apiRoot = '/' + apiRoot.replace(/^\/+|\/+$/g, '');
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(config.apiRoot)) {
    problems['API_ROOT'] = 'must be a path such as /wp-json';
  }

  const siteUrl = read('SITE_URL', '');
  config.siteUrl = siteUrl === '' ? null : siteUrl.replace(/\/+$/, '');
  if (config.siteUrl !== null && !isHttpUrl(config.siteUrl)) problems['SITE_URL'] = 'must be an absolute http(s) URL';
  const siteName = read('SITE_NAME', '').trim();
  config.siteName = siteName === '' ? null : siteName;

  config.languages = [...new Set(read('LANGUAGES', 'en,fr,zh-hans').split(',').map((code) => code.trim().toLowerCase()).filter(Boolean))];
  const badLanguage = config.languages.find((code) => !LANGUAGE_CODE.test(code));
  if (config.languages.length === 0 || badLanguage) {
    problems['LANGUAGES'] = 'must be a comma-separated list of language codes such as en,fr,zh-hans';
  }
  config.defaultLanguage = read('DEFAULT_LANGUAGE', 'en').toLowerCase();
  if (!config.languages.includes(config.defaultLanguage)) {
    problems['DEFAULT_LANGUAGE'] = `must be one of LANGUAGES (${config.languages.join(', ')})`;
  }

  const timezone = parseTimeZone(read('TIMEZONE', 'UTC'));
  if (timezone) config.timezone = timezone;
  else problems['TIMEZONE'] = `must be ${TIME_ZONE_RULE}`;

  const adminToken = read('ADMIN_TOKEN', '');
  config.adminToken = adminToken === '' ? null : adminToken;
  if (config.adminToken !== null && config.adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    problems['ADMIN_TOKEN'] = `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`;
  }

  const logLevel = read('LOG_LEVEL', 'info').toLowerCase();
  config.logLevel = logLevel as LogLevel;
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) problems['LOG_LEVEL'] = `must be one of ${LOG_LEVELS.join(', ')}`;

  const cacheMb = read('RESPONSE_CACHE_MB', '16');
  config.responseCacheBytes = Number(cacheMb) * 1024 * 1024;
  if (!/^\d+$/.test(cacheMb) || Number(cacheMb) > 4096) problems['RESPONSE_CACHE_MB'] = 'must be a whole number of megabytes from 0 (no cache) to 4096';

  const countMemo = read('COUNT_MEMO_ENTRIES', '10000');
  config.countMemoEntries = Number(countMemo);
  if (!/^\d+$/.test(countMemo) || Number(countMemo) > 1_000_000) problems['COUNT_MEMO_ENTRIES'] = 'must be a whole number from 0 (off) to 1000000';

  const fragmentMb = read('FRAGMENT_CACHE_MB', '64');
  config.fragmentCacheBytes = Number(fragmentMb) * 1024 * 1024;
  if (!/^\d+$/.test(fragmentMb) || Number(fragmentMb) > 4096) problems['FRAGMENT_CACHE_MB'] = 'must be a whole number of megabytes from 0 (keep none) to 4096';
  // The setting it replaced would otherwise be ignored without a word.
  if (env['FRAGMENT_CACHE_ENTRIES'] !== undefined) problems['FRAGMENT_CACHE_ENTRIES'] = 'is no longer read: set FRAGMENT_CACHE_MB (megabytes of embedded renderings kept; 0 keeps none)';

  const renderMb = read('RENDER_CACHE_MB', '8');
  config.renderCacheBytes = Number(renderMb) * 1024 * 1024;
  if (!/^\d+$/.test(renderMb) || Number(renderMb) > 4096) problems['RENDER_CACHE_MB'] = 'must be a whole number of megabytes from 0 (keep none) to 4096';

  const walk = read('PAGE_WALK_ROWS', '2000');
  config.pageWalkRows = Number(walk);
  if (!/^\d+$/.test(walk) || Number(walk) > 100_000_000) problems['PAGE_WALK_ROWS'] = 'must be a whole number from 0 (never walk) to 100000000';

  const sqliteReads = read('SQLITE_READS', 'thread').toLowerCase();
  config.sqliteReads = sqliteReads === 'main' ? 'main' : 'thread';
  if (!['thread', 'main'].includes(sqliteReads)) problems['SQLITE_READS'] = 'must be thread (reads on a connection of their own, beside the main thread) or main';

  const syncWait = read('DB_SYNC_WAIT', 'auto').toLowerCase();
  config.syncWait = syncWait === 'auto' ? 'auto' : Number(syncWait);
  if (syncWait !== 'auto' && !(/^\d{1,2}$/.test(syncWait) && Number(syncWait) <= 15)) problems['DB_SYNC_WAIT'] = 'must be auto or a whole number from 0 to 15 (wsrep_sync_wait)';

  const retention = read('SYNC_RETENTION_DAYS', '30');
  config.syncRetentionDays = Number(retention);
  if (!/^\d+$/.test(retention) || Number(retention) < 1 || Number(retention) > 3650) problems['SYNC_RETENTION_DAYS'] = 'must be a whole number of days from 1 to 3650';

  const allowPrivate = read('WEBHOOK_ALLOW_PRIVATE', 'false').toLowerCase();
  config.webhookAllowPrivate = allowPrivate === 'true';
  if (!['true', 'false'].includes(allowPrivate)) problems['WEBHOOK_ALLOW_PRIVATE'] = 'must be true or false';
  const delivery = read('WEBHOOK_DELIVERY', 'on').toLowerCase();
  config.webhookDelivery = delivery === 'on';
  if (!['on', 'off'].includes(delivery)) problems['WEBHOOK_DELIVERY'] = 'must be on or off';

  const perMinute = (name: string): number | null => {
    const value = read(name, '');
    if (value === '') return null;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000) problems[name] = 'must be a whole number of requests per minute from 1 to 1000000 (unset: no limit)';
    return Number(value);
  };
  config.rateLimitAnonymous = perMinute('RATE_LIMIT_ANONYMOUS');
  config.rateLimitUser = perMinute('RATE_LIMIT_USER');

  const redisUrl = read('REDIS_URL', '');
  config.redisUrl = redisUrl === '' ? null : redisUrl;
  if (config.redisUrl !== null && !/^rediss?:\/\/[^/\s]+(\/\d+)?$/.test(config.redisUrl)) problems['REDIS_URL'] = 'must be redis://[user:password@]host[:port][/db] (or rediss:// for TLS)';

  const trustProxy = parseTrustProxy(read('TRUST_PROXY', 'false'));
  if (trustProxy === null) problems['TRUST_PROXY'] = 'must be false, true, a number of proxy hops, or a comma-separated list of proxy addresses and CIDR ranges';
  else config.trustProxy = trustProxy;

  const metricsToken = read('METRICS_TOKEN', '');
  config.metricsToken = metricsToken === '' ? null : metricsToken;
  if (config.metricsToken !== null && config.metricsToken.length < 16) problems['METRICS_TOKEN'] = 'must be at least 16 characters';

  if (Object.keys(problems).length > 0) throw new ConfigError(problems);
  return config;
}

/** `TRUST_PROXY`: false, true, a number of hops, or addresses and CIDR ranges; null when it is none of those. */
export function parseTrustProxy(value: string): boolean | number | string[] | null {
  const text = value.trim().toLowerCase();
  if (text === 'false' || text === '') return false;
  if (text === 'true') return true;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const proxies = text.split(',').map((item) => item.trim());
  const valid = proxies.every((item) => {
    const [address, bits, extra] = item.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) return false;
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  });
  return valid ? proxies : null;
}

export function parseDatabaseUrl(url: string): DatabaseConfig | null {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    return file === '' ? null : { type: 'sqlite', file };
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    try {
      const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
      const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
      if (!parsed.hostname || database === '' || database.includes('/')) return null;
      return { type: 'mysql', url: parsed.toString(), database };
    } catch {
      return null;
    }
  }
  return null;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
