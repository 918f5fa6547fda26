import { EventListFilter, limitsAsParameters, SPAN_CLASSES, spanClassFilters } from './event.repository';

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

describe('spanClassFilters', () => {
  const endsAfter = new Date('2027-05-01T00:00:00Z');
  const hours = (count: number) => count * 3600 * 1000;
  const overlap = (longestHours: number, rest: Partial<EventListFilter> = {}): EventListFilter => ({
    language: 'en',
    caller: null,
    endsAfter,
    startsAtOrAfterBound: new Date(endsAfter.getTime() - hours(longestHours)),
    ...rest,
  });
  const bounds = (filters: EventListFilter[] | null) => filters?.map((filter) => [filter.spanClass, filter.startsAtOrAfterBound?.toISOString()]) ?? null;

  it('reads each class an event of the calendar can be of from its own bound, a second past its limit', () => {
    expect(SPAN_CLASSES).toEqual([21_600, 172_800, Infinity]);
    // The longest event lasts 90 days: the third class reaches back that far, the others 6 hours and 2 days.
    expect(bounds(spanClassFilters(overlap(90 * 24)))).toEqual([
      [0, '2027-04-30T17:59:59.000Z'],
      [1, '2027-04-28T23:59:59.000Z'],
      [2, '2027-01-31T00:00:00.000Z'],
    ]);
    // The longest lasts 30 hours: no event is of the third class, and the second reaches back 30 hours.
    expect(bounds(spanClassFilters(overlap(30)))).toEqual([
      [0, '2027-04-30T17:59:59.000Z'],
      [1, '2027-04-29T18:00:00.000Z'],
    ]);
    // Exactly 2 days: the second class, not the third.
    expect(bounds(spanClassFilters(overlap(48)))).toEqual([
      [0, '2027-04-30T17:59:59.000Z'],
      [1, '2027-04-29T00:00:00.000Z'],
    ]);
    // The other conditions stay as they were.
    expect(spanClassFilters(overlap(48, { featured: true, venues: [3] }))?.map(({ featured, venues, endsAfter: after }) => [featured, venues, after])).toEqual([
      [true, [3], endsAfter],
      [true, [3], endsAfter],
    ]);
  });

  it('leaves a list as it is where classes would not narrow the index read, or the caller sees more than published events', () => {
    // Every event within the first class.
    expect(spanClassFilters(overlap(6))).toBeNull();
    expect(spanClassFilters(overlap(2))).toBeNull();
    // No overlap window.
    expect(spanClassFilters({ language: 'en', caller: null, startsAtOrAfter: endsAfter, endsAtOrBefore: new Date('2027-05-31T23:59:59Z') })).toBeNull();
    expect(spanClassFilters({ language: 'en', caller: null, endsAfter })).toBeNull();
    // Drafts and private events too (several statuses), or chosen events.
    expect(spanClassFilters(overlap(48, { caller: { id: 1, login: 'editor', role: 'editor' } as EventListFilter['caller'] }))).toBeNull();
    expect(spanClassFilters(overlap(48, { statuses: ['draft'] }))).toBeNull();
    expect(spanClassFilters(overlap(48, { include: [1, 2] }))).toBeNull();
  });
});
