import { limitsAsParameters } from './event.repository';

describe('limitsAsParameters', () => {
  it('moves a page size and offset written into a statement to parameters placed last', () => {
    expect(limitsAsParameters('SELECT e.id FROM events e WHERE e.start_utc >= ? ORDER BY e.start_utc ASC LIMIT 45 OFFSET 90', ['2027-01-01'])).toEqual([
      'SELECT e.id FROM events e WHERE e.start_utc >= ? ORDER BY e.start_utc ASC LIMIT ? OFFSET ?',
      ['2027-01-01', 45, 90],
    ]);
    expect(limitsAsParameters('SELECT e.id FROM events e LIMIT 10', [])).toEqual(['SELECT e.id FROM events e LIMIT ?', [10]]);
    expect(limitsAsParameters('SELECT e.id FROM events e LIMIT -1 OFFSET 20', [])).toEqual(['SELECT e.id FROM events e LIMIT ? OFFSET ?', [-1, 20]]);
  });

  it('leaves a statement that does not end with its limits as it is', () => {
    const inner = 'SELECT e.id FROM events e WHERE e.id IN (SELECT x.id FROM x LIMIT 5) ORDER BY e.id';
    expect(limitsAsParameters(inner, [1])).toEqual([inner, [1]]);
    expect(limitsAsParameters('SELECT e.id FROM events e LIMIT ?', [3])).toEqual(['SELECT e.id FROM events e LIMIT ?', [3]]);
  });

  it('gives pages of different sizes and offsets of one list the same text', () => {
    const base = 'SELECT e.id FROM events e WHERE e.status = ? ORDER BY e.start_utc ASC';
    const texts = new Set([[5, 0], [50, 100], [17, 34]].map(([limit, offset]) => limitsAsParameters(`${base} LIMIT ${limit} OFFSET ${offset}`, ['publish'])[0]));
    expect([...texts]).toEqual([`${base} LIMIT ? OFFSET ?`]);
  });
});
