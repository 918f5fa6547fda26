/*
 * iCalendar content lines (RFC 5545 §3.1): text values escaped, parameter values quoted when they must be, lines
 * ended by CRLF and folded at 75 octets without splitting a UTF-8 character.
 */

/** The longest line, in octets, before a fold (the CRLF not counted). */
export const LINE_OCTETS = 75;

/** A TEXT value (§3.3.11): backslash, semicolon and comma escaped, line breaks as `\n`. */
export function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (character) => `\\${character}`).replace(/\r\n|\r|\n/g, '\\n');
}

/** A parameter value (§3.2): quoted when it holds `:`, `;` or `,`; a double quote cannot appear in one at all. */
export function paramValue(value: string): string {
  const clean = value.replace(/"/g, "'").replace(/[\r\n]+/g, ' ');
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

function octets(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** One line folded (§3.1): each physical line at most 75 octets, a continuation starting with one space. */
export function foldLine(line: string): string {
  // Most lines are ASCII: no character to measure.
  const ascii = !/[^ -~]/.test(line);
  if (ascii) {
    if (line.length <= LINE_OCTETS) return line;
    // One octet a character: cut every 75, then every 74 after the leading space.
    const parts = [line.slice(0, LINE_OCTETS)];
    for (let at = LINE_OCTETS; at < line.length; at += LINE_OCTETS - 1) parts.push(line.slice(at, at + LINE_OCTETS - 1));
    return parts.join('\r\n ');
  }
  let folded = '';
  let width = 0;
  // `for...of` walks code points, so a character outside the BMP is never cut between its two UTF-16 halves.
  for (const character of line) {
    const size = octets(character.codePointAt(0) as number);
    if (width + size > LINE_OCTETS) {
      folded += '\r\n ';
      width = 1;
    }
    folded += character;
    width += size;
  }
  return folded;
}

export type Params = Record<string, string | undefined>;

/** `NAME;PARAM=value:value`, folded. `value` is written as given: escape TEXT values with escapeText first. */
export function contentLine(name: string, value: string, params: Params = {}): string {
  let head = name;
  for (const [key, parameter] of Object.entries(params)) {
    if (parameter !== undefined) head += `;${key}=${paramValue(parameter)}`;
  }
  return foldLine(`${head}:${value}`);
}

/** Lines joined into a stream: every line, the last included, ends in CRLF. */
export function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}

/** `YYYY-MM-DD HH:MM:SS` as a DATE-TIME (`YYYYMMDDTHHMMSS`), with `Z` when the wall clock is UTC. */
export function dateTimeValue(wallClock: string, utc: boolean): string {
  const value = `${dateValue(wallClock)}T${wallClock.slice(11, 13)}${wallClock.slice(14, 16)}${wallClock.slice(17, 19)}`;
  return utc ? `${value}Z` : value;
}

/** `YYYY-MM-DD...` as a DATE (`YYYYMMDD`). */
export function dateValue(wallClock: string): string {
  return `${wallClock.slice(0, 4)}${wallClock.slice(5, 7)}${wallClock.slice(8, 10)}`;
}
