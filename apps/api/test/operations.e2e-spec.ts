import { Writable } from 'node:stream';
import pino from 'pino';
import { startTestApp, TestApp } from './support/test-app';

describe('operation: request logs and an unreachable database (SPEC §3.1, §9)', () => {
  const lines: Record<string, unknown>[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    t = await startTestApp({}, { logger: pino({ level: 'info', base: { service: 'calendar-api' } }, sink) });
  });
  afterAll(() => t.close());

  it('logs one JSON line per request with method, path, status, duration and request id', async () => {
    lines.length = 0;
    await t.request('GET', '/wp-json/calendar/events/v1/tags?hide_empty=0', { headers: { 'x-request-id': 'log-check-1' } });
    const logged = lines.filter((line) => line['msg'] === 'request');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toEqual({
      level: 30,
      time: expect.any(Number),
      service: 'calendar-api',
      request_id: 'log-check-1',
      method: 'GET',
      path: '/wp-json/calendar/events/v1/tags',
      status: 200,
      duration_ms: expect.any(Number),
      msg: 'request',
    });
  });

  it('answers 503 with Retry-After, and an unready /readyz, when the database is gone', async () => {
    await t.dataSource.destroy();
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.body).toEqual({ code: 'service-unavailable', message: 'The service cannot reach its database; try again shortly.', data: { status: 503 } });
    const list = await t.request('GET', '/wp-json/calendar/events/v1/tags?hide_empty=0');
    expect(list.status).toBe(503);
    expect(list.body.code).toBe('service-unavailable');
    expect((await t.request('GET', '/healthz')).status).toBe(200);
    await t.dataSource.initialize();
  });
});
