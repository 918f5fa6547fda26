import type { Budget } from './scenarios';

export interface ScenarioResult {
  name: string;
  /** `10` (what the cache serves), `10.1` (what must be computed) or `10.2` (any query: only a share of the ceiling). */
  section: '10' | '10.1' | '10.2';
  /** What was asked. */
  shown: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  budget?: Budget;
  /** The service's peak resident memory while the scenario ran (warm-up included), in MB. */
  peakRssMb?: number;
  /** Answers 404 `event-archive-page-not-found` to a drawn page past the last one (answers, not errors). */
  pastLastPage?: number;
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
  /** Requests per second of the run's ceiling (SPEC §10.2), measured before the scenarios. */
  ceiling?: number;
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
  /** The ceiling's requests per second (runs before SPEC §10.2 have none). */
  ceiling?: number;
  results: HistoryResult[];
}

export type HistoryResult = Pick<ScenarioResult, 'name' | 'requestsPerSecond' | 'p50' | 'p99'> &
  Partial<Pick<ScenarioResult, 'section' | 'shown' | 'errors' | 'peakRssMb' | 'budget' | 'pastLastPage'>>;

/** The journal entry of a run: what it was, and each scenario's figures with its budget. */
export function historyEntry(info: RunInfo, results: ScenarioResult[]): HistoryEntry {
  const { label, date, events, command, machine, database, connections, duration, peakRssMb, series, ceiling } = info;
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
    ...(ceiling ? { ceiling: Math.round(ceiling) } : {}),
    results: results.map((result) => ({ ...result, requestsPerSecond: Math.round(result.requestsPerSecond) })),
  };
}

/** `yes`, `no`, or empty where the SPEC sets no budget in requests per second (§10, §10.1). */
export function verdict(result: ScenarioResult): string {
  if (!result.budget?.requestsPerSecond) return '';
  return result.requestsPerSecond >= result.budget.requestsPerSecond && p99Met(result) ? 'yes' : 'no';
}

function p99Met(result: ScenarioResult): boolean {
  return result.budget?.p99 === undefined || result.p99 <= result.budget.p99;
}

/** The scenario's requests per second as a fraction of the run's ceiling (SPEC §10.2), or null without one. */
export function shareOf(result: Pick<ScenarioResult, 'requestsPerSecond'>, ceiling: number | undefined): number | null {
  return ceiling ? result.requestsPerSecond / ceiling : null;
}

/** `yes`, `no`, or empty where SPEC §10.2 sets no share or the run measured no ceiling. */
export function shareVerdict(result: ScenarioResult, ceiling: number | undefined): string {
  const share = shareOf(result, ceiling);
  if (!result.budget?.share || share === null) return '';
  return share >= result.budget.share && p99Met(result) ? 'yes' : 'no';
}

function percent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined) return '';
  return `${(fraction * 100).toFixed(fraction < 0.1 ? 1 : 0)} %`;
}

function budgetText(budget: Budget | undefined): string {
  if (!budget?.requestsPerSecond) return '';
  return `≥ ${budget.requestsPerSecond.toLocaleString('en-US')} req/s${budget.p99 === undefined ? '' : `, p99 ≤ ${budget.p99} ms`}`;
}

function shareText(budget: Budget | undefined): string {
  if (!budget?.share) return '';
  return `≥ ${percent(budget.share)}${budget.p99 === undefined ? '' : `, p99 ≤ ${budget.p99} ms`}`;
}

function errorsText(result: ScenarioResult): string {
  if (Number.isNaN(result.errors)) return '';
  return result.pastLastPage ? `${result.errors} (+${result.pastLastPage} past the last page)` : String(result.errors);
}

/**
 * The Markdown table of a run's scenarios: the budgets of §10 and §10.1 in requests per second, and the shares of
 * the ceiling of §10.2 (for runs that measured one).
 */
export function renderTable(results: ScenarioResult[], ceiling?: number): string {
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.section ? `§${r.section}` : ''} | ${r.shown.startsWith('/') ? `\`${r.shown.replace('/wp-json/calendar/events/v1', '…')}\`` : r.shown} | ${Math.round(r.requestsPerSecond).toLocaleString('en-US')} | ${r.p50} | ${r.p99} | ${errorsText(r)} | ${r.peakRssMb ?? ''} | ${budgetText(r.budget)} | ${verdict(r)} | ${percent(shareOf(r, ceiling))} | ${shareText(r.budget)} | ${shareVerdict(r, ceiling)} |`,
  );
  return [
    '| Scenario | SPEC | Asked | req/s | p50 ms | p99 ms | non-2xx | RSS MB | Budget | Met | Share of ceiling | §10.2 | Met |',
    '|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---|---|',
    ...rows,
  ].join('\n');
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
    // Runs recorded with the figures alone show blanks where the other columns were not kept, and are held to the
    // newest budgets; a run that recorded its budgets keeps them (a scenario it measured without one has none).
    const recordedBudgets = entry.results.some((result) => result.budget !== undefined);
    const results: ScenarioResult[] = entry.results.map((result) => ({
      section: '' as ScenarioResult['section'],
      shown: '',
      errors: Number.NaN,
      ...result,
      budget: result.budget ?? (recordedBudgets ? undefined : budgets.get(result.name)),
    }));
    const lines = [
      `## ${entry.date} — ${entry.label}`,
      '',
      `- Command: \`${entry.command}\``,
      `- Data: ${entry.events.toLocaleString('en-US')} events${entry.database ? ` (${entry.database})` : ''}`,
      ...(entry.machine ? [`- Machine: ${entry.machine}`] : []),
      ...(entry.connections ? [`- Load: autocannon, ${entry.connections} connections, ${entry.duration} s per scenario, in a separate process`] : []),
      ...(entry.ceiling ? [`- Ceiling (SPEC §10.2: a plain Node.js server sending the default list's bytes): ${entry.ceiling.toLocaleString('en-US')} req/s`] : []),
      ...(entry.peakRssMb ? [`- Peak resident memory of the service: ${entry.peakRssMb} MB`] : []),
      ...(entry.series
        ? [
            `- Series writes: a daily series over two years (the head and ${entry.series.occurrences.toLocaleString('en-US')} occurrences) created in ${entry.series.ms.map((ms) => ms.toLocaleString('en-US')).join(', ')} ms (budget < ${SERIES_BUDGET_MS.toLocaleString('en-US')} ms: ${entry.series.ms.every((ms) => ms < SERIES_BUDGET_MS) ? 'met' : 'not met'})`,
          ]
        : []),
      '',
      renderTable(results, entry.ceiling),
      '',
    ];
    return lines.join('\n');
  });
  return [
    '# Benchmark runs',
    '',
    'Every run recorded by `npm run bench`, newest first, generated from `docs/benchmarks.json` at each run (do not edit:',
    'the next run writes it again). Budgets are those of SPEC §10 and §10.1 as the scenarios carry them, and the shares',
    'of the ceiling of §10.2 for runs that measured one; runs made before the scenarios recorded their budgets are held',
    'to the newest ones. Where each figure stands now, and how to measure: [benchmarks.md](benchmarks.md).',
    '',
    ...runs,
  ].join('\n');
}

/** The status table of the newest run: each scenario with its budget, its figures and whether they meet it. */
export function renderStatus(entry: HistoryEntry): string {
  const rows = entry.results.map((r) => {
    const result = { section: '10' as const, shown: '', errors: 0, ...r };
    return `| ${r.name} | §${result.section} | ${budgetText(r.budget)} | ${Math.round(r.requestsPerSecond).toLocaleString('en-US')} | ${r.p50} | ${r.p99} | ${verdict(result) || '—'} | ${percent(shareOf(r, entry.ceiling))} | ${shareText(r.budget)} | ${shareVerdict(result, entry.ceiling) || '—'} |`;
  });
  return [
    `Run "${entry.label}", ${entry.date}: ${entry.events.toLocaleString('en-US')} events${entry.database ? ` on ${entry.database}` : ''}${entry.machine ? `; ${entry.machine}` : ''}.`,
    `Command: \`${entry.command}\`.${entry.peakRssMb ? ` Peak resident memory: ${entry.peakRssMb} MB (budget ≤ 250 MB).` : ''}`,
    ...(entry.ceiling ? [`Ceiling (SPEC §10.2): ${entry.ceiling.toLocaleString('en-US')} req/s.`] : []),
    '',
    '| Scenario | SPEC | Budget | req/s | p50 ms | p99 ms | Met | Share of ceiling | §10.2 | Met |',
    '|---|---|---|---:|---:|---:|---|---:|---|---|',
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
