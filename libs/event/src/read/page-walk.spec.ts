import { pageWalks } from './event.reader';

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
    // A radius holding one event in ten: 200 probes of venue links against a set of 400.
    expect([pageWalks({ ...page, total: 400, probeRows: 1 }), pageWalks({ ...page, total: 100, probeRows: 1 })]).toEqual([true, false]);
  });
});
