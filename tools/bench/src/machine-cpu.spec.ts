import { machineCpuOf, machineSpent } from './machine-cpu';

describe('machine CPU from /proc/stat', () => {
  const stat = (user: number, idle: number, iowait: number, softirq: number) =>
    [`cpu  ${user} 7 300 ${idle} ${iowait} 0 ${softirq} 2 0 0`, `cpu0 1 2 3 4 5 6 7 8 0 0`, `cpu1 1 2 3 4 5 6 7 8 0 0`, 'intr 123', 'ctxt 456'].join('\n');

  it('sums the busy fields of the first line and counts idle and I/O wait as idle, in milliseconds', () => {
    expect(machineCpuOf(stat(1000, 5000, 40, 11))).toEqual({ busyMs: (1000 + 7 + 300 + 0 + 11 + 2) * 10, idleMs: (5000 + 40) * 10 });
  });

  it('gives busy milliseconds per request and the idle share between two readings', () => {
    const before = machineCpuOf(stat(1000, 5000, 0, 0));
    const after = machineCpuOf(stat(2500, 5500, 0, 0));
    // 1,500 ticks busy (15 s of all cores) and 500 idle over 3,000 requests.
    expect(machineSpent(before, after, 3000)).toEqual({ machineCpuMsPerRequest: 5, machineIdleShare: 0.25 });
  });

  it('refuses a text without the summed cpu line', () => {
    expect(() => machineCpuOf('cpu0 1 2 3 4 5 6 7 8\nintr 1')).toThrow('no "cpu" line in /proc/stat');
    expect(() => machineCpuOf('cpu  1 2 x 4 5 6 7 8')).toThrow('unexpected /proc/stat line: cpu  1 2 x 4 5 6 7 8');
  });
});
