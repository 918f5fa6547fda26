import { progressLine } from './progress';

describe('seed progress line', () => {
  it('shows a bar, the percentage, the count, the rate and the time left', () => {
    expect(progressLine(35_000, 100_000, 10_000)).toBe('[#######-------------]  35 %  35,000 / 100,000 events  3,500/s  ETA 19 s ');
    expect(progressLine(100_000, 100_000, 20_000)).toBe('[####################] 100 %  100,000 / 100,000 events  5,000/s  ETA 0 s ');
  });
});
