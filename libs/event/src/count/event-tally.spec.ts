import { IANAZone } from 'luxon';
import { CountDeltas, dayCountQuery, dayOfDate, localDay, tallyOf } from './event-tally';

describe('tallies of events for the totals per day', () => {
  const paris = IANAZone.create('Europe/Paris');
  const event = { status: 'publish', hidden: false, featured: false, startMs: Date.parse('2027-03-27T22:30:00Z'), endMs: Date.parse('2027-03-28T22:30:00Z'), venues: [4, 4], organizers: [7], terms: [12] };

  it('reads days in the service zone, across a change of offset', () => {
    // 23:30 on the 27th in Paris (UTC+1), then 00:30 on the 29th (UTC+2 since the 28th).
    expect([localDay(event.startMs, paris), localDay(event.endMs, paris)]).toEqual([dayOfDate('2027-03-27'), dayOfDate('2027-03-29')]);
  });

  it('counts an event for its audiences, its start day, its length in days and every filter it matches', () => {
    const single = ['f0', 'v4', 'o7', 'k1', 'k3', 'k12'];
    const pairs = ['f0&v4', 'f0&o7', 'f0&k1', 'f0&k3', 'f0&k12', 'o7&v4', 'k1&v4', 'k3&v4', 'k12&v4', 'k1&o7', 'k3&o7', 'k12&o7', 'k1&k3', 'k1&k12', 'k12&k3'];
    expect(tallyOf(event, paris, (id) => (id === 12 ? [3, 1] : []))).toEqual({ audiences: 3, day: dayOfDate('2027-03-27'), length: 2, keys: ['*', ...single, ...pairs] });
    expect([tallyOf({ ...event, status: 'draft' }, paris, () => []).audiences, tallyOf({ ...event, status: 'trash' }, paris, () => []).audiences, tallyOf({ ...event, hidden: true }, paris, () => []).audiences]).toEqual([2, 0, 0]);
  });

  it('moves each row once, taking back what an event counted for before', () => {
    const before = tallyOf(event, paris, () => []);
    const after = tallyOf({ ...event, status: 'draft', venues: [5] }, paris, () => []);
    const changes = new CountDeltas().add(before, -1).add(after, 1).changes();
    // Published before, a draft after (editors count it still), at venue 5 instead of 4.
    const kept = ['*', 'f0', 'k12', 'o7', 'f0&k12', 'f0&o7', 'k12&o7'].map((key) => `${key} -1 0`);
    const left = ['v4', 'f0&v4', 'k12&v4', 'o7&v4'].map((key) => `${key} -1 -1`);
    const came = ['v5', 'f0&v5', 'k12&v5', 'o7&v5'].map((key) => `${key} 0 1`);
    expect(changes.map((row) => `${row.key} ${row.public} ${row.editor}`)).toEqual([...kept, ...left, ...came].sort());
  });

  it('serves whole-day windows with none, one or two filters of one value each, and nothing else', () => {
    const days = { first: 10, last: 40 };
    expect([
      dayCountQuery({ days }, 'public'),
      dayCountQuery({ days, termSets: [[5, 6]], termKeys: [5] }, 'editor'),
      dayCountQuery({ days, venues: [2] }, 'public')?.key,
      dayCountQuery({ days, featured: false }, 'public')?.key,
      dayCountQuery({ days, venues: [2], featured: true }, 'public')?.key,
      dayCountQuery({ days, termSets: [[5, 6], [9]], termKeys: [5, 9] }, 'public')?.key,
      dayCountQuery({ days, termSets: [[12]], termKeys: [12], organizers: [3] }, 'editor')?.key,
    ]).toEqual([{ key: '*', column: 'public_n', first: 10, last: 40 }, { key: 'k5', column: 'editor_n', first: 10, last: 40 }, 'v2', 'f0', 'f1&v2', 'k5&k9', 'k12&o3']);
    expect([
      dayCountQuery({}, 'public'),
      dayCountQuery({ days }, null),
      dayCountQuery({ days, venues: [2, 3] }, 'public'),
      dayCountQuery({ days, venues: [2], featured: true, organizers: [1] }, 'public'),
      dayCountQuery({ days, venues: [2], organizers: [1, 4] }, 'public'),
      dayCountQuery({ days, termSets: [[5, 6]], termKeys: [null] }, 'public'),
      dayCountQuery({ days, search: [{}] }, 'public'),
      dayCountQuery({ days, near: {} }, 'public'),
      dayCountQuery({ days, statuses: ['draft'] }, 'editor'),
    ]).toEqual([null, null, null, null, null, null, null, null, null]);
  });
});
