import { deriveStateProvince } from './venue.service';

describe('deriveStateProvince (SPEC §5.2)', () => {
  it('uses the state in the United States or with no country, else the province', () => {
    expect(deriveStateProvince('', 'NY', 'p')).toBe('NY');
    expect(deriveStateProvince('United States', 'IL', 'p')).toBe('IL');
    expect(deriveStateProvince(' usa ', 'CA', 'p')).toBe('CA');
    expect(deriveStateProvince('Canada', 'x', 'Ontario')).toBe('Ontario');
  });
});
