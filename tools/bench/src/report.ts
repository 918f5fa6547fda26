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

/**
 * One run, kept in docs/benchmarks.json: the chart, the journal (docs/benchmarks-runs.md) and the status page are
 * drawn from these. Runs recorded before the journal was generated from here keep only the figures.
 */
export interface HistoryEntry {
  label: string;
  date: string;
  events: number;
  command: string;
  machine?: string;
  database?: string;
  connections?: number;
  duration?: number;
  peakRssMb?: number;
  series?: SeriesWrites;
  results: HistoryResult[];
}

export type HistoryResult = Pick<ScenarioResult, 'name' | 'requestsPerSecond' | 'p50' | 'p99'> & Partial<Pick<ScenarioResult, 'section' | 'shown' | 'errors' | 'peakRssMb' | 'budget'>>;

/** The journal entry of a run: what it was, and each scenario's figures with its budget. */
export function historyEntry(info: RunInfo, results: ScenarioResult[]): HistoryEntry {
  const { label, date, events, command, machine, database, connections, duration, peakRssMb, series } = info;
  return {
    label,
    date,
    events,
    command,
    machine,
    database,
    connections,
    duration,
    peakRssMb,
    ...(series ? { series } : {}),
    results: results.map((result) => ({ ...result, requestsPerSecond: Math.round(result.requestsPerSecond) })),
  };
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
      `| ${r.name} | ${r.section ? `§${r.section}` : ''} | ${r.shown.startsWith('/') ? `\`${r.shown.replace('/wp-json/calendar/events/v1', '…')}\`` : r.shown} | ${Math.round(r.requestsPerSecond).toLocaleString('en-US')} | ${r.p50} | ${r.p99} | ${Number.isNaN(r.errors) ? '' : r.errors} | ${r.peakRssMb ?? ''} | ${budgetText(r.budget)} | ${verdict(r)} |`,
  );
  return ['| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met |', '|---|---|---|---:|---:|---:|---:|---:|---|---|', ...rows].join('\n');
}

/** The budget of each scenario by name, as the newest run that recorded budgets had them (for older runs). */
function budgetsByName(history: HistoryEntry[]): Map<string, Budget> {
  const budgets = new Map<string, Budget>();
  for (const entry of history) for (const result of entry.results) if (result.budget) budgets.set(result.name, result.budget);
  return budgets;
}

/** The journal of every recorded run, newest first, generated from docs/benchmarks.json. */
export function renderJournal(history: HistoryEntry[]): string {
  const budgets = budgetsByName(history);
  const runs = [...history].reverse().map((entry) => {
    // Runs recorded with the figures alone show blanks where the other columns were not kept.
    const results: ScenarioResult[] = entry.results.map((result) => ({
      section: '' as ScenarioResult['section'],
      shown: '',
      errors: Number.NaN,
      ...result,
      budget: result.budget ?? budgets.get(result.name),
    }));
    const lines = [
      `## ${entry.date} — ${entry.label}`,
      '',
      `- Command: \`${entry.command}\``,
      `- Data: ${entry.events.toLocaleString('en-US')} events${entry.database ? ` (${entry.database})` : ''}`,
      ...(entry.machine ? [`- Machine: ${entry.machine}`] : []),
      ...(entry.connections ? [`- Load: autocannon, ${entry.connections} connections, ${entry.duration} s per scenario, in a separate process`] : []),
      ...(entry.peakRssMb ? [`- Peak resident memory of the service: ${entry.peakRssMb} MB`] : []),
      ...(entry.series
        ? [
            `- Series writes: a daily series over two years (the head and ${entry.series.occurrences.toLocaleString('en-US')} occurrences) created in ${entry.series.ms.map((ms) => ms.toLocaleString('en-US')).join(', ')} ms (budget < ${SERIES_BUDGET_MS.toLocaleString('en-US')} ms: ${entry.series.ms.every((ms) => ms < SERIES_BUDGET_MS) ? 'met' : 'not met'})`,
          ]
        : []),
      '',
      renderTable(results),
      '',
    ];
    return lines.join('\n');
  });
  return [
    '# Benchmark runs',
    '',
    'Every run recorded by `npm run bench`, newest first, generated from `docs/benchmarks.json` at each run (do not edit:',
    'the next run writes it again). Budgets are those of SPEC §10 and §10.1 as the scenarios carry them; runs made',
    'before the scenarios recorded their budgets are held to the newest ones. Where each figure stands now, and how to',
    'measure: [benchmarks.md](benchmarks.md).',
    '',
    ...runs,
  ].join('\n');
}

/** The status table of the newest run: each scenario with its budget, its figures and whether they meet it. */
export function renderStatus(entry: HistoryEntry): string {
  const rows = entry.results.map((r) => {
    const result = { section: '10' as const, shown: '', errors: 0, ...r };
    return `| ${r.name} | §${result.section} | ${budgetText(r.budget)} | ${Math.round(r.requestsPerSecond).toLocaleString('en-US')} | ${r.p50} | ${r.p99} | ${verdict(result) || '—'} |`;
  });
  return [
    `Run "${entry.label}", ${entry.date}: ${entry.events.toLocaleString('en-US')} events${entry.database ? ` on ${entry.database}` : ''}${entry.machine ? `; ${entry.machine}` : ''}.`,
    `Command: \`${entry.command}\`.${entry.peakRssMb ? ` Peak resident memory: ${entry.peakRssMb} MB (budget ≤ 250 MB).` : ''}`,
    '',
    '| Scenario | SPEC | Budget | req/s | p50 ms | p99 ms | Met |',
    '|---|---|---|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

/** Replaces the generated status between its markers in the status page. */
export function withStatus(page: string, status: string): string {
  const start = '<!-- status -->';
  const end = '<!-- /status -->';
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) return `${page.trimEnd()}\n\n${start}\n${status}\n${end}\n`;
  return `${page.slice(0, from + start.length)}\n${status}\n${page.slice(to)}`;
}
