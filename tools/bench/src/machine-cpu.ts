import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The whole machine's CPU time so far, every core summed, in milliseconds: busy and idle. */
export interface MachineCpu {
  busyMs: number;
  idleMs: number;
}

/**
 * The machine's CPU time from the text of /proc/stat: its first line, `cpu  user nice system idle iowait irq softirq
 * steal ...`, in ticks summed over the cores. Idle is `idle` and `iowait`; busy is every other field up to `steal`
 * (the guest fields are already counted in `user` and `nice`).
 */
export function machineCpuOf(procStat: string): MachineCpu {
  const line = procStat.split('\n').find((row) => row.startsWith('cpu '));
  if (!line) throw new Error('no "cpu" line in /proc/stat');
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  if (fields.length < 8 || fields.slice(0, 8).some((value) => !Number.isFinite(value))) throw new Error(`unexpected /proc/stat line: ${line}`);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
  const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return { busyMs: toMs(user + nice + system + irq + softirq + steal), idleMs: toMs(idle + iowait) };
}

/** The machine's CPU time now (Linux). */
export function machineCpu(): MachineCpu {
  return machineCpuOf(readFileSync('/proc/stat', 'utf8'));
}

/**
 * What the machine as a whole spent between two readings, per request: busy milliseconds of all cores (the service,
 * the database, the load generator, the kernel and anything else running), and the share of the cores' time left idle.
 */
export function machineSpent(before: MachineCpu, after: MachineCpu, requests: number): { machineCpuMsPerRequest: number; machineIdleShare: number } {
  const busy = after.busyMs - before.busyMs;
  const idle = after.idleMs - before.idleMs;
  return { machineCpuMsPerRequest: Number((busy / requests).toFixed(3)), machineIdleShare: Number((busy + idle > 0 ? idle / (busy + idle) : 0).toFixed(3)) };
}
