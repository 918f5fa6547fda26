import type { HistoryEntry } from './report';

/** The scenarios the chart of requests per second follows across runs. */
export const CHARTED = ['Event list (default)', 'Single event', 'Varied lists, anonymous', 'Varied lists, editor token', 'Single events, never cached', 'Mixed: 90 % reads, 10 % creates', 'Varied lists, anonymous, SQLite'];
/** The scenarios with a share of SPEC §10.2, which the chart of shares follows across the runs that measured a ceiling. */
export const SHARE_CHARTED = ['Event list (default)', 'Single event', 'Single events, never cached', 'Lists, any query, anonymous', 'Lists, any query, editor token', 'Mixed, single events: 90 % never-cached reads, 10 % creates', 'Lists, any query, SQLite'];
const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2'];

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A line chart of requests per second of the main scenarios over the recorded runs (a log scale: the cached
 * figures are thousands, the computed ones tens to hundreds), as a standalone SVG.
 */
export function renderChart(history: HistoryEntry[], width = 960, height = 480): string {
  return lineChart(history, { title: 'Requests per second by run (npm run bench, log scale)', names: CHARTED, value: (_run, result) => result.requestsPerSecond, unit: 'req/s' }, width, height);
}

/**
 * The same for the shares of the ceiling (SPEC §10.2: each scenario's requests per second as a percentage of a
 * plain Node.js server's, measured in the same run), over the runs that measured a ceiling.
 */
export function renderShareChart(history: HistoryEntry[], width = 960, height = 480): string {
  const runs = history.filter((run) => run.ceiling);
  return lineChart(
    runs,
    { title: 'Share of the ceiling by run, % (npm run bench, SPEC §10.2, log scale)', names: SHARE_CHARTED, value: (run, result) => (result.requestsPerSecond / (run.ceiling as number)) * 100, unit: '%' },
    width,
    height,
  );
}

interface ChartOf {
  title: string;
  names: string[];
  value(run: HistoryEntry, result: HistoryEntry['results'][number]): number;
  unit: string;
}

/** Lines of `chart.value` per named scenario across `history`, on a log scale from 0.1 up. */
function lineChart(history: HistoryEntry[], chart: ChartOf, width: number, height: number): string {
  const left = 70;
  const right = 290;
  const top = 40;
  const bottom = 170;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const values = history.flatMap((run) => run.results.filter((result) => chart.names.includes(result.name)).map((result) => chart.value(run, result)));
  const minExponent = Math.min(0, Math.floor(Math.log10(Math.max(0.1, Math.min(1, ...values)))));
  const maxExponent = Math.max(1, Math.ceil(Math.log10(Math.max(10, ...values))));
  const y = (value: number) => top + plotHeight - ((Math.log10(Math.max(10 ** minExponent, value)) - minExponent) / (maxExponent - minExponent)) * plotHeight;
  const x = (index: number) => left + (history.length <= 1 ? plotWidth / 2 : (index / (history.length - 1)) * plotWidth);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="22" font-size="15" font-weight="bold">${escape(chart.title)}</text>`,
  ];
  for (let exponent = minExponent; exponent <= maxExponent; exponent += 1) {
    const value = 10 ** exponent;
    parts.push(`<line x1="${left}" x2="${left + plotWidth}" y1="${y(value)}" y2="${y(value)}" stroke="#dddddd"/>`);
    parts.push(`<text x="${left - 8}" y="${y(value) + 4}" text-anchor="end">${value.toLocaleString('en-US')}</text>`);
  }
  history.forEach((run, index) => {
    const label = escape(`${run.date} ${run.label}`.slice(0, 34));
    parts.push(`<text transform="translate(${x(index)},${top + plotHeight + 12}) rotate(35)" font-size="10">${label}</text>`);
  });
  chart.names.forEach((name, series) => {
    const points = history
      .map((run, index) => ({ index, run, result: run.results.find((result) => result.name === name) }))
      .filter((point): point is { index: number; run: HistoryEntry; result: HistoryEntry['results'][number] } => point.result !== undefined)
      .map((point) => ({ ...point, value: chart.value(point.run, point.result) }));
    if (points.length === 0) return;
    const colour = COLOURS[series % COLOURS.length];
    if (points.length > 1) {
      parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.map((point) => `${x(point.index)},${y(point.value)}`).join(' ')}"/>`);
    }
    for (const point of points) {
      const shown = chart.unit === '%' ? `${point.value.toFixed(1)} %` : `${point.value} req/s`;
      parts.push(`<circle cx="${x(point.index)}" cy="${y(point.value)}" r="3.5" fill="${colour}"><title>${escape(`${name}: ${shown}, p99 ${point.result.p99} ms`)}</title></circle>`);
    }
    const legendY = top + 10 + series * 20;
    parts.push(`<rect x="${width - right + 20}" y="${legendY - 9}" width="12" height="12" fill="${colour}"/>`);
    parts.push(`<text x="${width - right + 38}" y="${legendY + 1}">${escape(name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
