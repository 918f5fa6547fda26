import { contentLine, escapeText, foldLine, joinLines, paramValue } from './content-lines';
import { describableZone, vtimezoneLines } from './vtimezone';

describe('iCalendar content lines', () => {
  it('escapes TEXT values and quotes parameter values that need it', () => {
    expect(escapeText('a\\b; c, d\r\ne\nf')).toBe('a\\\\b\\; c\\, d\\ne\\nf');
    expect([paramValue('Les Amis'), paramValue('Orchestre, de Paris'), paramValue('Say "hi": now')]).toEqual(['Les Amis', '"Orchestre, de Paris"', `"Say 'hi': now"`]);
    expect(contentLine('ORGANIZER', 'mailto:a@b.test', { CN: 'A; B', ROLE: undefined })).toBe('ORGANIZER;CN="A; B":mailto:a@b.test');
  });

  it('folds at 75 octets, never inside a UTF-8 character, and unfolds to the same line', () => {
    const lines = [`SUMMARY:${'x'.repeat(200)}`, `SUMMARY:${'音乐'.repeat(60)}`, `SUMMARY:a${'🎻é'.repeat(50)}`, 'SUMMARY:short'];
    for (const line of lines) {
      const folded = foldLine(line);
      const physical = folded.split('\r\n');
      expect(physical.every((part) => Buffer.byteLength(part, 'utf8') <= 75)).toBe(true);
      expect(physical.slice(1).every((part) => part.startsWith(' '))).toBe(true);
      expect(folded.replace(/\r\n /g, '')).toBe(line);
    }
    expect(foldLine(`SUMMARY:${'x'.repeat(67)}`)).toBe(`SUMMARY:${'x'.repeat(67)}`);
    expect(foldLine(`SUMMARY:${'x'.repeat(68)}`)).toBe(`SUMMARY:${'x'.repeat(67)}\r\n x`);
    expect(joinLines(['A', 'B'])).toBe('A\r\nB\r\n');
  });
});

describe('VTIMEZONE from the tz database', () => {
  const at = (iso: string) => Date.parse(iso);

  it('gives the offset at the start of the span and each change inside it', () => {
    expect(vtimezoneLines('Europe/Paris', at('2027-03-01T00:00:00Z'), at('2027-11-01T00:00:00Z'))).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Paris',
      'BEGIN:STANDARD',
      'DTSTART:20270228T010000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0100',
      'TZNAME:CET',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:20270328T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'TZNAME:CEST',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:20271031T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'TZNAME:CET',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
  });

  it('gives one observance for a zone without changes, and rules of the past for past dates', () => {
    expect(vtimezoneLines('Asia/Shanghai', at('2027-05-01T00:00:00Z'), at('2027-05-02T00:00:00Z')).filter((line) => /^(DTSTART|TZOFFSET)/.test(line))).toEqual([
      'DTSTART:20270430T080000',
      'TZOFFSETFROM:+0800',
      'TZOFFSETTO:+0800',
    ]);
    // The United States moved its spring change from April to March in 2007.
    expect(vtimezoneLines('America/New_York', at('2006-03-01T00:00:00Z'), at('2006-05-01T00:00:00Z')).filter((line) => line.startsWith('DTSTART'))).toEqual([
      'DTSTART:20060227T190000',
      'DTSTART:20060402T020000',
    ]);
  });

  it('names IANA zones only: UTC and fixed offsets are written in UTC', () => {
    expect(['Europe/Paris', 'Australia/Sydney', 'UTC', 'UTC+5', 'Mars/Olympus'].map(describableZone)).toEqual([true, true, false, false, false]);
  });
});
