import { renderChart, renderShareChart } from './chart';
import { historyEntry, renderJournal, renderStatus, renderTable, ScenarioResult, withStatus } from './report';
import { ANY_QUERY_KINDS, anyQueriesOfKind, anyQuery, anyQueryKind, anyQueryPair, newEvent, variedList } from './scenarios';

describe('benchmark report', () => {
  const info = { label: 'baseline', command: 'npm run bench', date: '2026-11-22', database: 'mysql', events: 100000, machine: '2 cores, 24 GiB', connections: 10, duration: 10, peakRssMb: 120 };
  const results: ScenarioResult[] = [
    { name: 'Event list', section: '10', shown: '/wp-json/calendar/events/v1/events', requestsPerSecond: 2234.4, p50: 7, p99: 20, errors: 0, budget: { requestsPerSecond: 2000, p99: 25 }, peakRssMb: 151 },
    { name: 'Varied lists, anonymous', section: '10.1', shown: 'every URL new', requestsPerSecond: 120.2, p50: 70, p99: 300, errors: 0, budget: { requestsPerSecond: 400, p99: 100 } },
    { name: 'Venue list', section: '10', shown: '/wp-json/calendar/events/v1/venues', requestsPerSecond: 900, p50: 9, p99: 12, errors: 1 },
  ];

  it('renders a run as a table with every budget', () => {
    expect(renderTable(results).split('\n')).toEqual([
      '| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met | Share of ceiling | §10.2 | Met |',
      '|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---|---|',
      '| Event list | §10 | `…/events` | 2,234 | 7 | 20 | 0 | 151 | ≥ 2,000 req/s, p99 ≤ 25 ms | yes |  |  |  |',
      '| Varied lists, anonymous | §10.1 | every URL new | 120 | 70 | 300 | 0 |  | ≥ 400 req/s, p99 ≤ 100 ms | no |  |  |  |',
      '| Venue list | §10 | `…/venues` | 900 | 9 | 12 | 1 |  |  |  |  |  |  |',
    ]);
  });

  it('gives each scenario its share of the ceiling, held to the share of SPEC §10.2 and the p99 with it', () => {
    const shared: ScenarioResult[] = [
      { ...results[0], budget: { requestsPerSecond: 2000, p99: 25, share: 0.2 } },
      { name: 'Lists, any query, anonymous', section: '10.2', shown: 'any query', requestsPerSecond: 410, p50: 20, p99: 90, errors: 0, pastLastPage: 12, budget: { share: 0.04, p99: 100 } },
      { name: 'Lists, any query, editor token', section: '10.2', shown: 'the same', requestsPerSecond: 390, p50: 20, p99: 120, errors: 2, budget: { share: 0.03, p99: 100 } },
    ];
    expect(renderTable(shared, 10_000).split('\n').slice(2)).toEqual([
      '| Event list | §10 | `…/events` | 2,234 | 7 | 20 | 0 | 151 | ≥ 2,000 req/s, p99 ≤ 25 ms | yes | 22 % | ≥ 20 %, p99 ≤ 25 ms | yes |',
      '| Lists, any query, anonymous | §10.2 | any query | 410 | 20 | 90 | 0 (+12 past the last page) |  |  |  | 4.1 % | ≥ 4.0 %, p99 ≤ 100 ms | yes |',
      '| Lists, any query, editor token | §10.2 | the same | 390 | 20 | 120 | 2 |  |  |  | 3.9 % | ≥ 3.0 %, p99 ≤ 100 ms | no |',
    ]);
    const status = renderStatus(historyEntry({ ...info, ceiling: 10_000.4 }, shared)).split('\n');
    expect(status.slice(1, 6)).toEqual([
      'Command: `npm run bench`. Peak resident memory: 120 MB (budget ≤ 250 MB).',
      'Ceiling (SPEC §10.2): 10,000 req/s.',
      '',
      '| Scenario | SPEC | Budget | req/s | p50 ms | p99 ms | Met | Share of ceiling | §10.2 | Met |',
      '|---|---|---|---:|---:|---:|---|---:|---|---|',
    ]);
    expect(status.slice(6)).toEqual([
      '| Event list | §10 | ≥ 2,000 req/s, p99 ≤ 25 ms | 2,234 | 7 | 20 | yes | 22 % | ≥ 20 %, p99 ≤ 25 ms | yes |',
      '| Lists, any query, anonymous | §10.2 |  | 410 | 20 | 90 | — | 4.1 % | ≥ 4.0 %, p99 ≤ 100 ms | yes |',
      '| Lists, any query, editor token | §10.2 |  | 390 | 20 | 120 | — | 3.9 % | ≥ 3.0 %, p99 ≤ 100 ms | no |',
    ]);
  });

  it('keeps a run that recorded its budgets to them: a scenario it measured without one has none in the journal', () => {
    const share = { share: 0.05, p99: 150 };
    const earlier = { label: 'with a share', date: '2026-11-28', events: 100000, command: 'npm run bench', ceiling: 10000, results: [{ name: 'Mixed', requestsPerSecond: 300, p50: 20, p99: 90, section: '10.2' as const, shown: 'mixed', errors: 0, budget: share }] };
    const later = {
      label: 'reported only',
      date: '2026-11-29',
      events: 100000,
      command: 'npm run bench',
      ceiling: 10000,
      results: [
        { name: 'Mixed', requestsPerSecond: 350, p50: 20, p99: 90, section: '10.2' as const, shown: 'mixed', errors: 0 },
        { name: 'Other', requestsPerSecond: 600, p50: 10, p99: 40, section: '10.2' as const, shown: 'other', errors: 0, budget: share },
      ],
    };
    const journal = renderJournal([earlier, later]).split('\n');
    expect(journal.filter((line) => line.startsWith('| Mixed '))).toEqual([
      '| Mixed | §10.2 | mixed | 350 | 20 | 90 | 0 |  |  |  | 3.5 % |  |  |',
      '| Mixed | §10.2 | mixed | 300 | 20 | 90 | 0 |  |  |  | 3.0 % | ≥ 5.0 %, p99 ≤ 150 ms | no |',
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
      '| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met | Share of ceiling | §10.2 | Met |',
      '|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---|---|',
      '| Event list | §10 | `…/events` | 2,234 | 7 | 20 | 0 | 151 | ≥ 2,000 req/s, p99 ≤ 25 ms | yes |  |  |  |',
      '| Varied lists, anonymous | §10.1 | every URL new | 120 | 70 | 300 | 0 |  | ≥ 400 req/s, p99 ≤ 100 ms | no |  |  |  |',
      '| Venue list | §10 | `…/venues` | 900 | 9 | 12 | 1 |  |  |  |  |  |  |',
    ]);
    expect(journal.slice(before + 2, before + 9)).toEqual([
      '- Command: `npm run bench`',
      '- Data: 5,000 events',
      '',
      '| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met | Share of ceiling | §10.2 | Met |',
      '|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---|---|',
      '| Event list |  |  | 1,500 | 9 | 30 |  |  | ≥ 2,000 req/s, p99 ≤ 25 ms | no |  |  |  |',
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
      '| Scenario | SPEC | Budget | req/s | p50 ms | p99 ms | Met | Share of ceiling | §10.2 | Met |',
      '|---|---|---|---:|---:|---:|---|---:|---|---|',
      '| Event list | §10 | ≥ 2,000 req/s, p99 ≤ 25 ms | 2,234 | 7 | 20 | yes |  |  | — |',
      '| Varied lists, anonymous | §10.1 | ≥ 400 req/s, p99 ≤ 100 ms | 120 | 70 | 300 | no |  |  | — |',
      '| Venue list | §10 |  | 900 | 9 | 12 | — |  |  | — |',
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

  it('draws the lists of SPEC §10.2 from the whole query space, the same for the same seed and another for another', () => {
    const data = { categoryIds: [3, 4], tagIds: [7], venueIds: [11, 12], organizerIds: [21] };
    const draw = (seed: number) => Array.from({ length: 2000 }, (_, n) => anyQuery(seed, n, data, 'r1', 2027));
    const urls = draw(5);
    expect([new Set(urls).size, draw(5)]).toEqual([2000, urls]);
    expect(draw(6).filter((url, n) => url === urls[n])).toEqual([]);
    const queries = urls.map((url) => new URL(url, 'http://x').searchParams);
    const days = queries.map((query) => (Date.parse(query.get('end_date') as string) - Date.parse(query.get('start_date') as string)) / 86_400_000 + 1);
    const starts = queries.map((query) => query.get('start_date') as string).sort();
    const perPage = queries.map((query) => Number(query.get('per_page')));
    const pages = queries.map((query) => Number(query.get('page') ?? 1));
    const filters = queries.map((query) => [...query.keys()].filter((key) => !['start_date', 'end_date', 'per_page', 'page', 'bench', 'geoloc_lng', 'geoloc_radius'].includes(key)));
    // Every length, start, page size and page within the space, its ends reached, and every filter drawn.
    expect([Math.min(...days), Math.max(...days), starts[0] >= '2027-01-01', starts[starts.length - 1] <= '2029-12-31', new Set(days).size]).toEqual([1, 90, true, true, 90]);
    expect([Math.min(...perPage), Math.max(...perPage), new Set(pages)]).toEqual([5, 50, new Set([1, 2, 3, 4])]);
    expect([new Set(filters.map((keys) => keys.length)), new Set(filters.flat())]).toEqual([
      new Set([0, 1, 2]),
      new Set(['categories', 'tags', 'venue', 'organizer', 'featured', 'search', 'geoloc_lat']),
    ]);
    expect(filters.every((keys) => new Set(keys).size === keys.length)).toBe(true);
  });

  it('tells the kind of a drawn list by its filters, and draws the lists of one kind in the order anyQuery draws them', () => {
    const data = { categoryIds: [3, 4], tagIds: [7], venueIds: [11, 12], organizerIds: [21] };
    const path = '/wp-json/calendar/events/v1/events';
    expect(
      [`${path}?start_date=2027-01-01&per_page=5`, `${path}?per_page=5&geoloc_lat=1&geoloc_lng=2&geoloc_radius=9`, `${path}?tags=7&per_page=5`, `${path}?tags=7&venue=11`].map(anyQueryKind),
    ).toEqual(['none', 'geoloc', 'tags', 'two']);
    expect([`${path}?tags=7&per_page=5`, `${path}?search=jazz&tags=7`, `${path}?geoloc_lat=1&geoloc_lng=2&geoloc_radius=9&venue=11`].map(anyQueryPair)).toEqual([null, 'tags+search', 'venue+geoloc']);
    const drawn = Array.from({ length: 400 }, (_, n) => anyQuery(9, n, data, 'r1'));
    for (const kind of ANY_QUERY_KINDS) {
      const ofKind = drawn.filter((url) => anyQueryKind(url) === kind);
      expect([ofKind.length > 0, anyQueriesOfKind(kind, 9, ofKind.length, data, 'r1')]).toEqual([true, ofKind]);
    }
  });

  it('writes events with a title of their own, in the categories asked for', () => {
    expect(JSON.parse(newEvent(30, 'r1'))).toMatchObject({ title: 'Bench r1 30', status: 'publish', categories: [] });
    expect(JSON.parse(newEvent(31, 'r1', [18]))).toMatchObject({ title: 'Bench r1 31', status: 'publish', categories: [18] });
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

  it('draws the shares of the ceiling over the runs that measured one', () => {
    const svg = renderShareChart([
      { label: 'before', date: '2026-11-22', events: 1, command: '', results: [{ name: 'Lists, any query, anonymous', requestsPerSecond: 50, p50: 3, p99: 70 }] },
      { label: 'a', date: '2026-11-26', events: 1, command: '', ceiling: 10_000, results: [{ name: 'Lists, any query, anonymous', requestsPerSecond: 450, p50: 3, p99: 70 }] },
      { label: 'b', date: '2026-11-27', events: 1, command: '', ceiling: 8_000, results: [{ name: 'Lists, any query, anonymous', requestsPerSecond: 400, p50: 3, p99: 80 }] },
    ]);
    expect(svg).not.toContain('before');
    expect(svg.match(/<circle/g)).toHaveLength(2);
    expect([svg.includes('<title>Lists, any query, anonymous: 4.5 %, p99 70 ms</title>'), svg.includes('<title>Lists, any query, anonymous: 5.0 %, p99 80 ms</title>')]).toEqual([true, true]);
  });
});
