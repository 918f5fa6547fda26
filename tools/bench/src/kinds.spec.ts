import { dbTotals, KindSample, kindFigures } from './kinds';

describe('bench:kinds', () => {
  it('adds the database statements of every outcome from a /metrics text', () => {
    const text = [
      '# HELP calendar_db_query_duration_seconds SQL statements sent to the database',
      'calendar_db_query_duration_seconds_bucket{le="0.001",outcome="ok"} 5',
      'calendar_db_query_duration_seconds_sum{outcome="ok"} 0.012',
      'calendar_db_query_duration_seconds_count{outcome="ok"} 7',
      'calendar_db_query_duration_seconds_sum{outcome="error"} 0.003',
      'calendar_db_query_duration_seconds_count{outcome="error"} 1',
      'calendar_http_request_duration_seconds_sum{route="/x",method="GET",status="200"} 9',
    ].join('\n');
    expect(dbTotals(text)).toEqual({ count: 8, seconds: 0.015 });
  });

  it('gives each kind, each answer size and all lists their means and median', () => {
    const sample = (kind: string, status: number, events: number, ms: number, dbStatements: number, dbMs: number): KindSample => ({ kind, status, events, ms, dbStatements, dbMs });
    const samples = [
      sample('none', 200, 30, 4, 3, 1),
      sample('none', 200, 10, 2, 3, 0),
      sample('none', 200, 20, 9, 4, 2),
      sample('venue', 404, 0, 1, 2, 1),
      { ...sample('two', 200, 5, 3, 2, 2), pair: 'search+geoloc' },
      { ...sample('two', 404, 0, 1, 2, 0), pair: 'categories+tags' },
      { ...sample('two', 200, 7, 5, 3, 4), pair: 'search+geoloc' },
    ];
    expect(kindFigures(samples)).toEqual([
      { group: 'none', lists: 3, pastLastPage: 0, eventsPerList: 20, meanMs: 5, p50Ms: 4, dbStatementsPerList: 3.33, dbMsPerList: 1 },
      { group: 'venue', lists: 1, pastLastPage: 1, eventsPerList: 0, meanMs: 1, p50Ms: 1, dbStatementsPerList: 2, dbMsPerList: 1 },
      { group: 'two', lists: 3, pastLastPage: 1, eventsPerList: 4, meanMs: 3, p50Ms: 3, dbStatementsPerList: 2.33, dbMsPerList: 2 },
      { group: 'two: categories+tags', lists: 1, pastLastPage: 1, eventsPerList: 0, meanMs: 1, p50Ms: 1, dbStatementsPerList: 2, dbMsPerList: 0 },
      { group: 'two: search+geoloc', lists: 2, pastLastPage: 0, eventsPerList: 6, meanMs: 4, p50Ms: 3, dbStatementsPerList: 2.5, dbMsPerList: 3 },
      { group: 'no event', lists: 2, pastLastPage: 2, eventsPerList: 0, meanMs: 1, p50Ms: 1, dbStatementsPerList: 2, dbMsPerList: 0.5 },
      { group: '1-9 events', lists: 2, pastLastPage: 0, eventsPerList: 6, meanMs: 4, p50Ms: 3, dbStatementsPerList: 2.5, dbMsPerList: 3 },
      { group: '10-24 events', lists: 2, pastLastPage: 0, eventsPerList: 15, meanMs: 5.5, p50Ms: 2, dbStatementsPerList: 3.5, dbMsPerList: 1 },
      { group: '25-50 events', lists: 1, pastLastPage: 0, eventsPerList: 30, meanMs: 4, p50Ms: 4, dbStatementsPerList: 3, dbMsPerList: 1 },
      { group: 'all', lists: 7, pastLastPage: 2, eventsPerList: 10.29, meanMs: 3.57, p50Ms: 3, dbStatementsPerList: 2.71, dbMsPerList: 1.43 },
    ]);
  });
});
