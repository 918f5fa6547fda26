import type { HistoryEntry } from './report';

/** The scenarios the chart follows across runs. */
export const CHARTED = ['Event list (default)', 'Single event', 'Varied lists, anonymous', 'Varied lists, editor token', 'Single events, never cached', 'Mixed: 90 % reads, 10 % creates', 'Varied lists, anonymous, SQLite'];
const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2'];

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A line chart of requests per second of the main scenarios over the recorded runs (a log scale: the cached
 * figures are thousands, the computed ones tens to hundreds), as a standalone SVG.
 */
export function renderChart(history: HistoryEntry[], width = 960, height = 480): string {
  const left = 70;
  const right = 290;
  const top = 40;
  const bottom = 170;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const values = history.flatMap((run) => run.results.filter((result) => CHARTED.includes(result.name)).map((result) => Math.max(1, result.requestsPerSecond)));
  const maxExponent = Math.max(1, Math.ceil(Math.log10(Math.max(10, ...values))));
  const y = (value: number) => top + plotHeight - (Math.log10(Math.max(1, value)) / maxExponent) * plotHeight;
  const x = (index: number) => left + (history.length <= 1 ? plotWidth / 2 : (index / (history.length - 1)) * plotWidth);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="22" font-size="15" font-weight="bold">Requests per second by run (npm run bench, log scale)</text>`,
  ];
  for (let exponent = 0; exponent <= maxExponent; exponent += 1) {
    const value = 10 ** exponent;
    parts.push(`<line x1="${left}" x2="${left + plotWidth}" y1="${y(value)}" y2="${y(value)}" stroke="#dddddd"/>`);
    parts.push(`<text x="${left - 8}" y="${y(value) + 4}" text-anchor="end">${value.toLocaleString('en-US')}</text>`);
  }
  history.forEach((run, index) => {
    const label = escape(`${run.date} ${run.label}`.slice(0, 34));
    parts.push(`<text transform="translate(${x(index)},${top + plotHeight + 12}) rotate(35)" font-size="10">${label}</text>`);
  });
  CHARTED.forEach((name, series) => {
    const points = history
      .map((run, index) => ({ index, result: run.results.find((result) => result.name === name) }))
      .filter((point): point is { index: number; result: HistoryEntry['results'][number] } => point.result !== undefined);
    if (points.length === 0) return;
    const colour = COLOURS[series % COLOURS.length];
    if (points.length > 1) {
      parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.map((point) => `${x(point.index)},${y(point.result.requestsPerSecond)}`).join(' ')}"/>`);
    }
    for (const point of points) {
      parts.push(`<circle cx="${x(point.index)}" cy="${y(point.result.requestsPerSecond)}" r="3.5" fill="${colour}"><title>${escape(`${name}: ${point.result.requestsPerSecond} req/s, p99 ${point.result.p99} ms`)}</title></circle>`);
    }
    const legendY = top + 10 + series * 20;
    parts.push(`<rect x="${width - right + 20}" y="${legendY - 9}" width="12" height="12" fill="${colour}"/>`);
    parts.push(`<text x="${width - right + 38}" y="${legendY + 1}">${escape(name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
