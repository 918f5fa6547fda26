/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), for the metrics tests: every line must be
 * a `# HELP`, a `# TYPE` (before the family's samples, once), a comment, or a sample of the family last typed
 * (`name{label="value",...} value`, label values escaped as the format says); a histogram's series are grouped by
 * their labels but `le`, and each must have increasing cumulative buckets ending in `+Inf` equal to its `_count`,
 * and a `_sum`. Anything else throws, naming the line.
 */

export interface Series {
  labels: Record<string, string>;
  /** Counters, gauges and untyped samples. */
  value?: number;
  /** Histograms: the cumulative count of each bucket, by its bound. */
  buckets?: Map<number, number>;
  count?: number;
  sum?: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  series: Series[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A float as Prometheus reads one (Go's ParseFloat: `NaN` and `Inf` in any case, with an optional sign). */
function parseValue(text: string, line: string): number {
  if (/^[+]?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a number in ${JSON.stringify(line)}`);
  return Number(text);
}

/** `name{a="1",b="2"} 3` → its name, labels and value text. */
function parseSample(line: string): { name: string; labels: Record<string, string>; value: string } {
  const brace = line.indexOf('{');
  const space = line.indexOf(' ');
  const name = brace !== -1 && (space === -1 || brace < space) ? line.slice(0, brace) : line.slice(0, space);
  if (!NAME.test(name)) throw new Error(`bad metric name in ${JSON.stringify(line)}`);
  const labels: Record<string, string> = {};
  let at = name.length;
  if (line[at] === '{') {
    at += 1;
    while (line[at] !== '}') {
      const equals = line.indexOf('=', at);
      const labelName = line.slice(at, equals);
      if (equals === -1 || !LABEL_NAME.test(labelName) || line[equals + 1] !== '"') throw new Error(`bad label in ${JSON.stringify(line)}`);
      let value = '';
      at = equals + 2;
      for (; at < line.length && line[at] !== '"'; at += 1) {
        if (line[at] === '\\') {
          at += 1;
          const escaped = line[at];
          if (escaped === 'n') value += '\n';
          else if (escaped === '\\' || escaped === '"') value += escaped;
          else throw new Error(`bad escape in ${JSON.stringify(line)}`);
        } else value += line[at];
      }
      if (at >= line.length) throw new Error(`unterminated label value in ${JSON.stringify(line)}`);
      if (labelName in labels) throw new Error(`label ${labelName} twice in ${JSON.stringify(line)}`);
      labels[labelName] = value;
      at += 1;
      if (line[at] === ',') at += 1;
      else if (line[at] !== '}') throw new Error(`bad label list in ${JSON.stringify(line)}`);
    }
    at += 1;
  }
  const rest = line.slice(at).trim().split(/\s+/);
  if (line[at] !== ' ' || rest.length < 1 || rest.length > 2 || (rest[1] !== undefined && !/^-?\d+$/.test(rest[1]))) throw new Error(`bad value or timestamp in ${JSON.stringify(line)}`);
  return { name, labels, value: rest[0] };
}

function keyOf(labels: Record<string, string>): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
}

export function parsePrometheusText(text: string): Family[] {
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a line feed');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: Family | null = null;
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, what, name, rest = ''] = meta;
      if (!NAME.test(name)) throw new Error(`bad metric name in ${JSON.stringify(line)}`);
      const family = families.get(name) ?? { name, help: '', type: 'untyped' as const, series: [] };
      if (family.series.length > 0) throw new Error(`${what} of ${name} after its samples`);
      if (what === 'HELP') family.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      else {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest)) throw new Error(`bad type in ${JSON.stringify(line)}`);
        if (seen.has(`type ${name}`)) throw new Error(`${name} typed twice`);
        seen.add(`type ${name}`);
        family.type = rest as Family['type'];
      }
      families.set(name, family);
      current = family;
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = parseSample(line);
    const family = current;
    if (!family) throw new Error(`a sample before any family: ${JSON.stringify(line)}`);
    const suffix = sample.name.slice(family.name.length);
    if (!sample.name.startsWith(family.name) || !(suffix === '' || (family.type === 'histogram' && ['_bucket', '_count', '_sum'].includes(suffix)) || (family.type === 'summary' && ['_count', '_sum'].includes(suffix)))) {
      throw new Error(`sample ${sample.name} is not of the family ${family.name} typed before it`);
    }
    const value = parseValue(sample.value, line);
    const { le, ...labels } = sample.labels;
    const own = family.type === 'histogram' ? labels : sample.labels;
    const key = `${sample.name} ${keyOf(sample.labels)}`;
    if (seen.has(key)) throw new Error(`series twice: ${JSON.stringify(line)}`);
    seen.add(key);
    let series = family.series.find((candidate) => keyOf(candidate.labels) === keyOf(own));
    if (!series) {
      series = { labels: own };
      family.series.push(series);
    }
    if (family.type !== 'histogram') series.value = value;
    else if (suffix === '_bucket') {
      if (le === undefined) throw new Error(`a bucket without le: ${JSON.stringify(line)}`);
      series.buckets ??= new Map();
      series.buckets.set(parseValue(le, line), value);
    } else if (suffix === '_count') series.count = value;
    else if (suffix === '_sum') series.sum = value;
    else throw new Error(`a histogram sample without a suffix: ${JSON.stringify(line)}`);
  }
  for (const family of families.values()) {
    if (family.type !== 'histogram') continue;
    for (const series of family.series) {
      const buckets = [...(series.buckets ?? new Map<number, number>()).entries()].sort(([a], [b]) => a - b);
      const counts = buckets.map(([, count]) => count);
      if (buckets.at(-1)?.[0] !== Infinity || series.count === undefined || series.sum === undefined) throw new Error(`${family.name} ${keyOf(series.labels)} lacks its +Inf bucket, _count or _sum`);
      if (counts.some((count, index) => index > 0 && count < counts[index - 1])) throw new Error(`${family.name} ${keyOf(series.labels)} has buckets that are not cumulative`);
      if (counts.at(-1) !== series.count) throw new Error(`${family.name} ${keyOf(series.labels)}: +Inf bucket differs from _count`);
    }
  }
  return [...families.values()];
}
