import { CountMemo } from './count-memo';
import type { VersionsHolder } from '@calendar/shared/http';
import { DataVersions, DataVersionSource } from './data-version';

class Versions extends DataVersionSource {
  version = 1;
  async read(): Promise<DataVersions> {
    return { global: this.version, parts: {}, slots: [this.version] };
  }
}

describe('CountMemo', () => {
  it('counts once per filter and data version, and again after a write', async () => {
    const versions = new Versions();
    const memo = new CountMemo(versions, 10);
    let scans = 0;
    const scan = (result: number) => async () => {
      scans += 1;
      return result;
    };
    expect(await memo.count('a', scan(5))).toBe(5);
    expect(await memo.count('a', scan(6))).toBe(5);
    expect(scans).toBe(1);
    versions.version = 2;
    expect(await memo.count('a', scan(7))).toBe(7);
    expect(await memo.count('b', scan(1))).toBe(1);
    expect(scans).toBe(3);
  });

  it('shares one count between identical concurrent requests, and keeps at most its capacity', async () => {
    const memo = new CountMemo(new Versions(), 2);
    let scans = 0;
    const slow = async () => {
      scans += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return 3;
    };
    expect(await Promise.all([memo.count('a', slow), memo.count('a', slow), memo.count('a', slow)])).toEqual([3, 3, 3]);
    expect(scans).toBe(1);
    await memo.count('b', slow);
    await memo.count('c', slow);
    await memo.count('a', slow);
    expect(scans).toBe(4);
  });

  it('takes the version the request already read instead of reading it again', async () => {
    const versions = new Versions();
    let reads = 0;
    versions.read = async () => {
      reads += 1;
      return { global: 4, parts: {}, slots: [4] };
    };
    const memo = new CountMemo(versions, 10);
    const read = (global: number) => ({ dataVersions: Promise.resolve({ global, parts: {}, slots: [global] }) });
    expect(await memo.count('a', async () => 8, read(4))).toBe(8);
    expect(await memo.count('a', async () => 9, read(4))).toBe(8);
    expect(await memo.count('a', async () => 9, read(5))).toBe(9);
    expect(reads).toBe(0);
    const request: VersionsHolder = {};
    expect(await memo.count('a', async () => 10, request)).toBe(10);
    expect(await memo.count('b', async () => 11, request)).toBe(11);
    expect([reads, await request.dataVersions]).toEqual([1, { global: 4, parts: {}, slots: [4] }]);
  });

  it('counts every time when off', async () => {
    const memo = new CountMemo(new Versions(), 0);
    let scans = 0;
    for (let i = 0; i < 3; i++) await memo.count('a', async () => ++scans);
    expect(scans).toBe(3);
  });

  describe('countSince', () => {
    const at = (...slots: number[]) => ({ dataVersions: Promise.resolve({ global: slots.reduce((sum, writes) => sum + writes, 0), parts: {}, slots }) });

    it('keeps a count under the version it was taken at, and catches up over later writes when it can', async () => {
      const memo = new CountMemo(new Versions(), 10);
      const calls: string[] = [];
      const counted = (count: number, version: number) => async () => {
        calls.push(`count@${version}`);
        return { count, slots: [version] };
      };
      const catchUp = (change: number | null) => async (from: readonly number[], to: readonly number[]) => {
        calls.push(`catch up ${from}..${to}`);
        return change;
      };
      // Counted at version 3 although the request read 2: kept under 3.
      expect(await memo.countSince('a', at(2), counted(10, 3), catchUp(null))).toBe(10);
      expect(await memo.countSince('a', at(3), counted(99, 3), catchUp(null))).toBe(10);
      expect(await memo.countSince('a', at(5), counted(99, 5), catchUp(2))).toBe(12);
      expect(await memo.countSince('a', at(5), counted(99, 5), catchUp(99))).toBe(12);
      // A run of writes it cannot catch up over: counted again.
      expect(await memo.countSince('a', at(7), counted(4, 7), catchUp(null))).toBe(4);
      // An older request does not replace a newer total.
      expect(await memo.countSince('a', at(6), counted(3, 6), catchUp(null))).toBe(3);
      expect(await memo.countSince('a', at(7), counted(99, 7), catchUp(99))).toBe(4);
      expect(calls).toEqual(['count@3', 'catch up 3..5', 'catch up 5..7', 'count@7', 'count@6']);
    });

    it('keeps the other totals a statement gave under their own keys, at the version it was taken at', async () => {
      const memo = new CountMemo(new Versions(), 10);
      const never = async () => {
        throw new Error('counted again');
      };
      expect(await memo.countSince('list', at(4), async () => ({ count: 2, slots: [4], also: [{ key: 'window', count: 9 }] }), async () => null)).toBe(2);
      expect(await memo.countSince('window', at(4), never, never)).toBe(9);
      // A later version asks again (here: catches up from the kept state).
      expect(await memo.countSince('window', at(6), never, async (from, to) => (from[0] === 4 && to[0] === 6 ? 1 : null))).toBe(10);
    });

    it('catches up over the writes of every slot, and only from a state the current one holds', async () => {
      const memo = new CountMemo(new Versions(), 10);
      const calls: string[] = [];
      const counted = (count: number, ...slots: number[]) => async () => {
        calls.push(`count@${slots.join(',')}`);
        return { count, slots };
      };
      const catchUp = async (from: readonly number[], to: readonly number[]) => {
        calls.push(`catch up ${from.join(',')}..${to.join(',')}`);
        return 1;
      };
      expect(await memo.countSince('a', at(2, 1), counted(10, 2, 1), catchUp)).toBe(10);
      expect(await memo.countSince('a', at(2, 3), counted(99, 2, 3), catchUp)).toBe(11);
      // More writes in all, yet slot 0 behind the kept total's: not the same history (a reset), counted again.
      expect(await memo.countSince('a', at(1, 9), counted(4, 1, 9), catchUp)).toBe(4);
      // A total counted without the slots (null) is kept under the version the request read, and never caught up.
      expect(await memo.countSince('b', at(5, 5), async () => ({ count: 7, slots: null }), catchUp)).toBe(7);
      expect(await memo.countSince('b', at(5, 5), counted(99, 5, 5), catchUp)).toBe(7);
      expect(await memo.countSince('b', at(6, 5), counted(8, 6, 5), catchUp)).toBe(8);
      expect(calls).toEqual(['count@2,1', 'catch up 2,1..2,3', 'count@1,9', 'count@6,5']);
    });

    it('reads the versions in the count when the read has none yet and nothing is kept under the key, and keeps the total under them', async () => {
      const versions = new Versions();
      let reads = 0;
      versions.read = async () => {
        reads += 1;
        return { global: 3, parts: { venues: 1 }, slots: [2, 1] };
      };
      const memo = new CountMemo(versions, 10);
      const asked: boolean[] = [];
      const counted = (count: number) => async (withVersions: boolean) => {
        asked.push(withVersions);
        return { count, slots: [2, 1], versions: withVersions ? { global: 3, parts: { venues: 1 }, slots: [2, 1] } : undefined };
      };
      const first: VersionsHolder = {};
      expect(await memo.countSince('a', first, counted(10), async () => null)).toBe(10);
      // The count's versions are the read's: what else it keeps or finds per version needs no read of its own.
      expect(await first.dataVersions).toEqual({ global: 3, parts: { venues: 1 }, slots: [2, 1] });
      // Kept under them: a read with no versions yet reads them (one statement) to check the kept total, and finds it.
      const second: VersionsHolder = {};
      expect(await memo.countSince('a', second, counted(99), async () => null)).toBe(10);
      expect([asked, reads]).toEqual([[true], 1]);
      // A count that cannot read the versions (`count`) has them read first, as before.
      const third: VersionsHolder = {};
      expect(await memo.count('b', async () => 5, third)).toBe(5);
      expect(reads).toBe(2);
      // Asked for the versions and not given them: an error, never a total kept under no version.
      await expect(memo.countSince('c', {}, async () => ({ count: 1, slots: [2, 1] }), async () => null)).rejects.toThrow('did not read the data versions');
    });

    it('counts every time when off', async () => {
      const memo = new CountMemo(new Versions(), 0);
      let counts = 0;
      for (let i = 0; i < 2; i++) await memo.countSince('a', at(1), async () => ({ count: ++counts, slots: [1] }), async () => 0);
      expect(counts).toBe(2);
    });
  });
});
