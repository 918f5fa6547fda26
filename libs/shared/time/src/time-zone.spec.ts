import { parseTimeZone } from './time-zone';

describe('parseTimeZone', () => {
  it('accepts IANA names and UTC', () => {
    expect(parseTimeZone('Europe/Paris')?.name).toBe('Europe/Paris');
    expect(parseTimeZone('America/New_York')?.name).toBe('America/New_York');
    expect(parseTimeZone('utc')?.name).toBe('UTC');
  });

  it('accepts fixed offsets within -12:00..+14:00', () => {
    expect(parseTimeZone('UTC+5')).toMatchObject({ name: 'UTC+5', fixed: true });
    expect(parseTimeZone('UTC-3:30')?.zone.offset(0)).toBe(-210);
    expect(parseTimeZone('UTC+14')?.zone.offset(0)).toBe(840);
  });

  it('rejects anything else', () => {
    for (const value of ['', 'Mars/Olympus', 'UTC+15', 'UTC-13', 'UTC+5:75', 'CET+1', '+02:00']) {
      expect(parseTimeZone(value)).toBeNull();
    }
  });
});
