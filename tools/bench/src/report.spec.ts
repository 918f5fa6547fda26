import { addRun, renderRun } from './report';

describe('benchmark report', () => {
  const info = { label: 'baseline', command: 'npm run bench', date: '2026-11-22', database: 'mysql', events: 100000, machine: '2 cores, 24 GiB', connections: 10, duration: 10, peakRssMb: 120 };
  const section = renderRun(info, [{ name: 'Event list', path: '/events', requestsPerSecond: 1234.4, p50: 7, p99: 20, errors: 0 }]);

  it('renders one table per run with the command, data size and machine', () => {
    expect(section).toContain('## 2026-11-22 — baseline');
    expect(section).toContain('- Data: 100,000 published, listed events (mysql)');
    expect(section).toContain('| Event list | `/events` | 1234 | 7 | 20 | 0 |');
  });

  it('puts new runs first and keeps the earlier ones', () => {
    const once = addRun('# Benchmarks\n\n<!-- runs -->\n', section);
    const twice = addRun(once, section.replace('baseline', 'after'));
    expect(twice.indexOf('after')).toBeLessThan(twice.indexOf('baseline'));
  });
});
