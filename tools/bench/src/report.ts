import type { Budget } from './scenarios';

export interface ScenarioResult {
  name: string;
  /** `10` (what the cache serves) or `10.1` (what must be computed). */
  section: '10' | '10.1';
  /** What was asked. */
  shown: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  budget?: Budget;
  /** The service's peak resident memory while the scenario ran (warm-up included), in MB. */
  peakRssMb?: number;
}

export interface RunInfo {
  label: string;
  command: string;
  date: string;
  database: string;
  events: number;
  machine: string;
  connections: number;
  duration: number;
  peakRssMb: number;
  /** Creates of a daily series over two years, each timed from outside (SPEC §13). */
  series?: SeriesWrites;
}

export interface SeriesWrites {
  occurrences: number;
  ms: number[];
}

/** The budget of a series write (SPEC §13 via its issue): a daily series over two years in under 2 s on MySQL. */
const SERIES_BUDGET_MS = 2000;

/** One run's figures, kept in docs/benchmarks.json for the chart. */
export interface HistoryEntry {
  label: string;
  date: string;
  events: number;
  command: string;
  results: { name: string; requestsPerSecond: number; p50: number; p99: number }[];
}

/** `yes`, `no`, or empty where the SPEC sets no budget. */
export function verdict(result: ScenarioResult): string {
  if (!result.budget) return '';
  const p99 = result.budget.p99;
  return result.requestsPerSecond >= result.budget.requestsPerSecond && (p99 === undefined || result.p99 <= p99) ? 'yes' : 'no';
}

function budgetText(budget: Budget | undefined): string {
  if (!budget) return '';
  return `≥ ${budget.requestsPerSecond.toLocaleString('en-US')} req/s${budget.p99 === undefined ? '' : `, p99 ≤ ${budget.p99} ms`}`;
}

/** The Markdown table of a run's scenarios. */
export function renderTable(results: ScenarioResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.name} | §${r.section} | ${r.shown.startsWith('/') ? `\`${r.shown.replace('/wp-json/calendar/events/v1', '…')}\`` : r.shown} | ${Math.round(r.requestsPerSecond).toLocaleString('en-US')} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.peakRssMb ?? ''} | ${budgetText(r.budget)} | ${verdict(r)} |`,
  );
  return ['| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met |', '|---|---|---|---:|---:|---:|---:|---:|---|---|', ...rows].join('\n');
}

/** The Markdown section of one benchmark run. */
export function renderRun(info: RunInfo, results: ScenarioResult[]): string {
  return [
    `## ${info.date} — ${info.label}`,
    '',
    `- Command: \`${info.command}\``,
    `- Data: ${info.events.toLocaleString('en-US')} events in the database (${info.database}), seeded with \`npm run seed\``,
    `- Machine: ${info.machine}`,
    `- Load: autocannon, ${info.connections} connections, ${info.duration} s per scenario, in a separate process`,
    `- Peak resident memory of the service: ${info.peakRssMb} MB`,
    ...(info.series
      ? [
          `- Series writes: a daily series over two years (the head and ${info.series.occurrences.toLocaleString('en-US')} occurrences) created in ${info.series.ms.map((ms) => ms.toLocaleString('en-US')).join(', ')} ms (budget < ${SERIES_BUDGET_MS.toLocaleString('en-US')} ms: ${info.series.ms.every((ms) => ms < SERIES_BUDGET_MS) ? 'met' : 'not met'})`,
        ]
      : []),
    '',
    renderTable(results),
    '',
  ].join('\n');
}

/** Inserts a run after the document's introduction, newest first, keeping earlier runs. */
export function addRun(document: string, section: string): string {
  const marker = '<!-- runs -->';
  if (!document.includes(marker)) return `${document.trimEnd()}\n\n${marker}\n\n${section}`;
  return document.replace(marker, `${marker}\n\n${section}`);
}
