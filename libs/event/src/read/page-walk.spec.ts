import { linkRange, linkRangeRows, pageWalks } from './event.reader';

describe('pageWalks', () => {
  const page = { end: 20, windowTotal: 4000, pageWalkRows: 2000 };
  it('walks while the rows expected to the page end are within PAGE_WALK_ROWS', () => {
    // A category on one event in ten: 200 rows to walk; on one in a thousand: 20,000.
    expect([pageWalks({ ...page, total: 400, probeRows: 0 }), pageWalks({ ...page, total: 4, probeRows: 0 }), pageWalks({ ...page, total: 0, probeRows: 0 })]).toEqual([true, false, false]);
  });

  it('walks for a search word or a radius only when its probes read fewer rows than the set by start would', () => {
    // A word on half the window's events: 40 events walked, 400 rows of words against a set of 2,000; on one in
    // ten: 200 walked, 2,000 rows against 400.
    expect([pageWalks({ ...page, total: 2000, probeRows: 10 }), pageWalks({ ...page, total: 400, probeRows: 10 })]).toEqual([true, false]);
    // A radius holding one event in ten, probed by its venues (SQLite): 200 probes of venue links against a set of 400.
    expect([pageWalks({ ...page, total: 400, probeRows: 1 }), pageWalks({ ...page, total: 100, probeRows: 1 })]).toEqual([true, false]);
    // The same radius read from its cells' rows (MySQL, four rows' worth per probe): the set of 400; one in four:
    // 80 walked against 1,000 rows.
    expect([pageWalks({ ...page, total: 400, probeRows: 4 }), pageWalks({ ...page, total: 1000, probeRows: 4 })]).toEqual([false, true]);
  });
});

describe('linkRange', () => {
  const window = { language: 'en', caller: null, startsAtOrAfter: new Date('2030-01-01T00:00:00Z'), endsAtOrBefore: new Date('2030-03-31T23:59:59Z') };
  it('reads along the one term set, venue list or organizer list of a list narrowed by nothing else', () => {
    expect([
      linkRange({ ...window, termSets: [[3, 4]], termKeys: [3] }, 8),
      linkRange({ ...window, venues: [7] }, 8),
      linkRange({ ...window, organizers: [2, 5] }, 8),
      linkRange({ ...window, venues: [1, 2, 3] }, 2),
      linkRange({ ...window, termSets: [[]] }, 8),
      linkRange({ ...window, termSets: [[3]], featured: false }, 8),
      linkRange({ ...window, venues: [7], featured: true }, 8),
    ]).toEqual([
      { link: 'terms', ids: [3, 4], termSet: 0 },
      { link: 'venues', ids: [7] },
      { link: 'organizers', ids: [2, 5] },
      null,
      null,
      { link: 'terms', ids: [3], termSet: 0 },
      { link: 'venues', ids: [7] },
    ]);
  });

  it('expects a run beside featured to read past the events featured leaves out, in the window\'s share', () => {
    // 40 rows to the page's end; featured keeps 95 % of the window (not featured) or 5 % (featured); nothing left out
    // without it; a window featured leaves empty is never read along the link.
    expect([linkRangeRows(1, 40, 950, 1000), linkRangeRows(3, 40, 50, 1000), linkRangeRows(2, 40, 1000, 1000), linkRangeRows(1, 40, 0, 1000)]).toEqual([
      (40 * 1000) / 950,
      2400,
      80,
      Infinity,
    ]);
  });

  it('leaves lists with a second condition to the other ways', () => {
    const others = [
      { termSets: [[3]], venues: [7] },
      { termSets: [[3], [5]] },
      { venues: [7], search: [{ token: 'jazz', prefix: false }] },
      { venues: [7], organizers: [2] },
      { termSets: [[3]], geoloc: true },
      { termSets: [[3]], statuses: ['draft' as const] },
      { venues: [7], postParent: 0 },
      {},
    ];
    expect(others.map((filter) => linkRange({ ...window, ...filter }, 8))).toEqual(others.map(() => null));
  });
});
