import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      database: { type: 'sqlite', file: 'data/calendar.sqlite' },
      apiRoot: '/wp-json',
      siteUrl: null,
      siteName: null,
      languages: ['en', 'fr', 'zh-hans'],
      defaultLanguage: 'en',
      adminToken: null,
      logLevel: 'info',
      responseCacheBytes: 16 * 1024 * 1024,
      countMemoEntries: 10000,
      fragmentCacheBytes: 64 * 1024 * 1024,
      renderCacheBytes: 8 * 1024 * 1024,
      pageWalkRows: 2000,
      syncWait: 'auto',
      syncRetentionDays: 30,
      webhookAllowPrivate: false,
      webhookDelivery: true,
      rateLimitAnonymous: null,
      rateLimitUser: null,
      redisUrl: null,
      trustProxy: false,
      metricsToken: null,
    });
    expect(config.timezone.name).toBe('UTC');
  });

  it('reads MySQL URLs and normalises the API root', () => {
    const config = loadConfig({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/calendar', API_ROOT: 'api/', SITE_URL: 'https://example.org/' });
    expect(config.database).toEqual({ type: 'mysql', url: 'mysql://root@127.0.0.1:3306/calendar', database: 'calendar' });
    expect(config.apiRoot).toBe('/api');
    expect(config.siteUrl).toBe('https://example.org');
    expect([loadConfig({ SITE_NAME: '  Jazz in Lyon ' }).siteName, loadConfig({ SITE_NAME: ' ' }).siteName]).toEqual(['Jazz in Lyon', null]);
  });

  it('reads the response cache size in megabytes, 0 for none', () => {
    expect(loadConfig({ RESPONSE_CACHE_MB: '0' }).responseCacheBytes).toBe(0);
    expect(loadConfig({ RESPONSE_CACHE_MB: '8' }).responseCacheBytes).toBe(8 * 1024 * 1024);
  });

  it('reads the number of list totals kept, 0 for none', () => {
    expect(loadConfig({ COUNT_MEMO_ENTRIES: '0' }).countMemoEntries).toBe(0);
    expect(loadConfig({ COUNT_MEMO_ENTRIES: '500' }).countMemoEntries).toBe(500);
    expect(loadConfig({ FRAGMENT_CACHE_MB: '0' }).fragmentCacheBytes).toBe(0);
    expect(loadConfig({ FRAGMENT_CACHE_MB: '16' }).fragmentCacheBytes).toBe(16 * 1024 * 1024);
    expect(loadConfig({ RENDER_CACHE_MB: '0' }).renderCacheBytes).toBe(0);
    expect(loadConfig({ RENDER_CACHE_MB: '4' }).renderCacheBytes).toBe(4 * 1024 * 1024);
  });

  it('refuses the setting FRAGMENT_CACHE_MB replaced, naming its successor', () => {
    expect(() => loadConfig({ FRAGMENT_CACHE_ENTRIES: '5000' })).toThrow('FRAGMENT_CACHE_ENTRIES: is no longer read: set FRAGMENT_CACHE_MB (megabytes of embedded renderings kept; 0 keeps none)');
  });

  it('reads the wsrep_sync_wait of a Galera node: auto, or a number from 0 to 15', () => {
    expect([loadConfig({}).syncWait, loadConfig({ DB_SYNC_WAIT: '0' }).syncWait, loadConfig({ DB_SYNC_WAIT: 'AUTO' }).syncWait, loadConfig({ DB_SYNC_WAIT: '15' }).syncWait]).toEqual(['auto', 0, 'auto', 15]);
  });

  it('reads where the embedded database reads: on a thread of their own (the default) or on the main thread', () => {
    expect([loadConfig({}).sqliteReads, loadConfig({ SQLITE_READS: 'main' }).sqliteReads, loadConfig({ SQLITE_READS: 'THREAD' }).sqliteReads]).toEqual(['thread', 'main', 'thread']);
    expect(() => loadConfig({ SQLITE_READS: 'both' })).toThrow('SQLITE_READS: must be thread (reads on a connection of their own, beside the main thread) or main');
  });

  it('reads the rate limits, the Redis URL, the trusted proxies and the metrics token', () => {
    const config = loadConfig({ RATE_LIMIT_ANONYMOUS: '600', RATE_LIMIT_USER: '6000', REDIS_URL: 'redis://127.0.0.1:6379/2', METRICS_TOKEN: 'a-metrics-token-of-32-characters' });
    expect([config.rateLimitAnonymous, config.rateLimitUser, config.redisUrl, config.metricsToken]).toEqual([600, 6000, 'redis://127.0.0.1:6379/2', 'a-metrics-token-of-32-characters']);
    const proxies = ['true', 'FALSE', '2', '10.0.0.1, 192.168.0.0/16,::1,fd00::/8'].map((value) => loadConfig({ TRUST_PROXY: value }).trustProxy);
    expect(proxies).toEqual([true, false, 2, ['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8']]);
    for (const bad of ['yes', '10.0.0.300', '10.0.0.0/33', 'proxy.example']) expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow('TRUST_PROXY');
  });

  it('names every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'postgres://x/y', TIMEZONE: 'Mars/Base', LANGUAGES: 'en,fr', DEFAULT_LANGUAGE: 'de', LOG_LEVEL: 'loud', ADMIN_TOKEN: 'short', SITE_URL: 'ftp://x', RESPONSE_CACHE_MB: '-1', COUNT_MEMO_ENTRIES: 'many', FRAGMENT_CACHE_MB: '-5', RENDER_CACHE_MB: '1e3', PAGE_WALK_ROWS: 'x', SQLITE_READS: 'x', DB_SYNC_WAIT: '16', SYNC_RETENTION_DAYS: '0', WEBHOOK_ALLOW_PRIVATE: 'maybe', WEBHOOK_DELIVERY: 'sometimes', RATE_LIMIT_ANONYMOUS: '0', RATE_LIMIT_USER: 'lots', REDIS_URL: 'http://x', TRUST_PROXY: '10.0.0.0/40', METRICS_TOKEN: 'short' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(Object.keys((error as ConfigError).problems).sort()).toEqual(
      ['ADMIN_TOKEN', 'COUNT_MEMO_ENTRIES', 'DATABASE_URL', 'DEFAULT_LANGUAGE', 'FRAGMENT_CACHE_MB', 'LOG_LEVEL', 'PAGE_WALK_ROWS', 'PORT', 'RENDER_CACHE_MB', 'RESPONSE_CACHE_MB', 'SITE_URL', 'TIMEZONE', 'SQLITE_READS', 'DB_SYNC_WAIT', 'SYNC_RETENTION_DAYS', 'WEBHOOK_ALLOW_PRIVATE', 'WEBHOOK_DELIVERY', 'RATE_LIMIT_ANONYMOUS', 'RATE_LIMIT_USER', 'REDIS_URL', 'TRUST_PROXY', 'METRICS_TOKEN'].sort(),
    );
    expect((error as Error).message).toContain('TIMEZONE: must be an IANA time zone name');
  });
});
