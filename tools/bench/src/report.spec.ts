import { renderChart } from './chart';
import { addRun, renderRun, renderTable, ScenarioResult } from './report';
import { newEvent, variedList } from './scenarios';

describe('benchmark report', () => {
  const info = { label: 'baseline', command: 'npm run bench', date: '2026-11-22', database: 'mysql', events: 100000, machine: '2 cores, 24 GiB', connections: 10, duration: 10, peakRssMb: 120 };
  const results: ScenarioResult[] = [
    { name: 'Event list', section: '10', shown: '/wp-json/calendar/events/v1/events', requestsPerSecond: 2234.4, p50: 7, p99: 20, errors: 0, budget: { requestsPerSecond: 2000, p99: 25 }, peakRssMb: 151 },
    { name: 'Varied lists, anonymous', section: '10.1', shown: 'every URL new', requestsPerSecond: 120.2, p50: 70, p99: 300, errors: 0, budget: { requestsPerSecond: 400, p99: 100 } },
    { name: 'Venue list', section: '10', shown: '/wp-json/calendar/events/v1/venues', requestsPerSecond: 900, p50: 9, p99: 12, errors: 1 },
  ];
  const section = renderRun(info, results);

  it('renders one table per run with the command, data size, machine and every budget', () => {
    expect(section).toContain('## 2026-11-22 — baseline');
    expect(section).toContain('- Data: 100,000 events in the database (mysql)');
    expect(renderTable(results).split('\n')).toEqual([
      '| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met |',
      '|---|---|---|---:|---:|---:|---:|---:|---|---|',
      '| Event list | §10 | `…/events` | 2,234 | 7 | 20 | 0 | 151 | ≥ 2,000 req/s, p99 ≤ 25 ms | yes |',
      '| Varied lists, anonymous | §10.1 | every URL new | 120 | 70 | 300 | 0 |  | ≥ 400 req/s, p99 ≤ 100 ms | no |',
      '| Venue list | §10 | `…/venues` | 900 | 9 | 12 | 1 |  |  |  |',
    ]);
  });

  it('puts new runs first and keeps the earlier ones', () => {
    const once = addRun('# Benchmarks\n\n<!-- runs -->\n', section);
    const twice = addRun(once, section.replace('baseline', 'after'));
    expect(twice.indexOf('after')).toBeLessThan(twice.indexOf('baseline'));
  });
});

describe('benchmark scenarios', () => {
  it('gives every request of the varied lists a URL of its own, in five kinds', () => {
    const urls = Array.from({ length: 2000 }, (_, n) => variedList(n, { categoryIds: [3, 4] }, 'r1', 2027));
    expect(new Set(urls).size).toBe(2000);
    expect(urls.slice(0, 5)).toEqual([
      '/wp-json/calendar/events/v1/events?page=1&bench=r1-0',
      '/wp-json/calendar/events/v1/events?start_date=2027-01-01&end_date=2027-01-31&bench=r1-1',
      '/wp-json/calendar/events/v1/events?categories=3&bench=r1-2',
      '/wp-json/calendar/events/v1/events?search=festival&bench=r1-3',
      '/wp-json/calendar/events/v1/events?geoloc_lat=48.8566&geoloc_lng=2.3522&geoloc_radius=10&bench=r1-4',
    ]);
    expect(variedList(5 * 13 + 1, { categoryIds: [3] }, 'r1', 2027)).toBe('/wp-json/calendar/events/v1/events?start_date=2028-02-01&end_date=2028-02-29&bench=r1-66');
  });

  it('writes events with a title of their own', () => {
    expect(JSON.parse(newEvent(30, 'r1'))).toMatchObject({ title: 'Bench r1 30', status: 'publish' });
  });
});

describe('benchmark chart', () => {
  it('draws one series per charted scenario over the runs, escaped', () => {
    const svg = renderChart([
      { label: 'a <b>', date: '2026-11-22', events: 1, command: '', results: [{ name: 'Event list (default)', requestsPerSecond: 2000, p50: 3, p99: 7 }] },
      { label: 'c', date: '2026-11-23', events: 1, command: '', results: [{ name: 'Event list (default)', requestsPerSecond: 2500, p50: 3, p99: 6 }, { name: 'Varied lists, anonymous', requestsPerSecond: 50, p50: 100, p99: 900 }] },
    ]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('2026-11-22 a &lt;b&gt;');
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    expect(svg.match(/<circle/g)).toHaveLength(3);
    expect(svg).toContain('<title>Varied lists, anonymous: 50 req/s, p99 900 ms</title>');
  });
});
