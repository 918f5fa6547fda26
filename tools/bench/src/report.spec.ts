import { renderChart } from './chart';
import { historyEntry, renderJournal, renderStatus, renderTable, ScenarioResult, withStatus } from './report';
import { newEvent, variedList } from './scenarios';

describe('benchmark report', () => {
  const info = { label: 'baseline', command: 'npm run bench', date: '2026-11-22', database: 'mysql', events: 100000, machine: '2 cores, 24 GiB', connections: 10, duration: 10, peakRssMb: 120 };
  const results: ScenarioResult[] = [
    { name: 'Event list', section: '10', shown: '/wp-json/calendar/events/v1/events', requestsPerSecond: 2234.4, p50: 7, p99: 20, errors: 0, budget: { requestsPerSecond: 2000, p99: 25 }, peakRssMb: 151 },
    { name: 'Varied lists, anonymous', section: '10.1', shown: 'every URL new', requestsPerSecond: 120.2, p50: 70, p99: 300, errors: 0, budget: { requestsPerSecond: 400, p99: 100 } },
    { name: 'Venue list', section: '10', shown: '/wp-json/calendar/events/v1/venues', requestsPerSecond: 900, p50: 9, p99: 12, errors: 1 },
  ];

  it('renders a run as a table with every budget', () => {
    expect(renderTable(results).split('\n')).toEqual([
      '| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met |',
      '|---|---|---|---:|---:|---:|---:|---:|---|---|',
      '| Event list | §10 | `…/events` | 2,234 | 7 | 20 | 0 | 151 | ≥ 2,000 req/s, p99 ≤ 25 ms | yes |',
      '| Varied lists, anonymous | §10.1 | every URL new | 120 | 70 | 300 | 0 |  | ≥ 400 req/s, p99 ≤ 100 ms | no |',
      '| Venue list | §10 | `…/venues` | 900 | 9 | 12 | 1 |  |  |  |',
    ]);
  });

  it('writes the journal from the recorded runs, newest first, holding older runs to the newest budgets', () => {
    const older = { label: 'before budgets', date: '2026-11-21', events: 5000, command: 'npm run bench', results: [{ name: 'Event list', requestsPerSecond: 1500, p50: 9, p99: 30 }] };
    const journal = renderJournal([older, historyEntry(info, results)]).split('\n');
    expect(journal.slice(0, 2)).toEqual(['# Benchmark runs', '']);
    const baseline = journal.indexOf('## 2026-11-22 — baseline');
    const before = journal.indexOf('## 2026-11-21 — before budgets');
    expect([baseline > 0, before > baseline]).toEqual([true, true]);
    expect(journal.slice(baseline, baseline + 13)).toEqual([
      '## 2026-11-22 — baseline',
      '',
      '- Command: `npm run bench`',
      '- Data: 100,000 events (mysql)',
      '- Machine: 2 cores, 24 GiB',
      '- Load: autocannon, 10 connections, 10 s per scenario, in a separate process',
      '- Peak resident memory of the service: 120 MB',
      '',
      '| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met |',
      '|---|---|---|---:|---:|---:|---:|---:|---|---|',
      '| Event list | §10 | `…/events` | 2,234 | 7 | 20 | 0 | 151 | ≥ 2,000 req/s, p99 ≤ 25 ms | yes |',
      '| Varied lists, anonymous | §10.1 | every URL new | 120 | 70 | 300 | 0 |  | ≥ 400 req/s, p99 ≤ 100 ms | no |',
      '| Venue list | §10 | `…/venues` | 900 | 9 | 12 | 1 |  |  |  |',
    ]);
    expect(journal.slice(before + 2, before + 9)).toEqual([
      '- Command: `npm run bench`',
      '- Data: 5,000 events',
      '',
      '| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met |',
      '|---|---|---|---:|---:|---:|---:|---:|---|---|',
      '| Event list |  |  | 1,500 | 9 | 30 |  |  | ≥ 2,000 req/s, p99 ≤ 25 ms | no |',
      '',
    ]);
  });

  it('puts the newest full run between the status markers of the status page, and nothing else', () => {
    const page = '# Benchmarks\n\nIntro.\n\n<!-- status -->\nold table\n<!-- /status -->\n\n## How\n';
    const updated = withStatus(page, renderStatus(historyEntry(info, results)));
    expect(updated.split('\n')).toEqual([
      '# Benchmarks',
      '',
      'Intro.',
      '',
      '<!-- status -->',
      'Run "baseline", 2026-11-22: 100,000 events on mysql; 2 cores, 24 GiB.',
      'Command: `npm run bench`. Peak resident memory: 120 MB (budget ≤ 250 MB).',
      '',
      '| Scenario | SPEC | Budget | req/s | p50 ms | p99 ms | Met |',
      '|---|---|---|---:|---:|---:|---|',
      '| Event list | §10 | ≥ 2,000 req/s, p99 ≤ 25 ms | 2,234 | 7 | 20 | yes |',
      '| Varied lists, anonymous | §10.1 | ≥ 400 req/s, p99 ≤ 100 ms | 120 | 70 | 300 | no |',
      '| Venue list | §10 |  | 900 | 9 | 12 | — |',
      '<!-- /status -->',
      '',
      '## How',
      '',
    ]);
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
