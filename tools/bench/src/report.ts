export interface ScenarioResult {
  name: string;
  path: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
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
}

/** The Markdown section of one benchmark run. */
export function renderRun(info: RunInfo, results: ScenarioResult[]): string {
  const rows = results.map((r) => `| ${r.name} | \`${r.path}\` | ${Math.round(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  return [
    `## ${info.date} — ${info.label}`,
    '',
    `- Command: \`${info.command}\``,
    `- Data: ${info.events.toLocaleString('en-US')} published, listed events (${info.database}), seeded with \`npm run seed\``,
    `- Machine: ${info.machine}`,
    `- Load: autocannon, ${info.connections} connections, ${info.duration} s per scenario, in a separate process`,
    `- Peak resident memory of the service: ${info.peakRssMb} MB`,
    '',
    '| Scenario | Path | req/s | p50 ms | p99 ms | non-2xx |',
    '|---|---|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

/** Inserts a run after the document's introduction, newest first, keeping earlier runs. */
export function addRun(document: string, section: string): string {
  const marker = '<!-- runs -->';
  if (!document.includes(marker)) return `${document.trimEnd()}\n\n${marker}\n\n${section}`;
  return document.replace(marker, `${marker}\n\n${section}`);
}
