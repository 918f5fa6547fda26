import { CountMemo } from './count-memo';
import { DataVersions, DataVersionSource } from './response-cache';

class Versions extends DataVersionSource {
  version = 1;
  async read(): Promise<DataVersions> {
    return { global: this.version, parts: {} };
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
      return { global: 4, parts: {} };
    };
    const memo = new CountMemo(versions, 10);
    const read = (global: number) => ({ dataVersions: { global, parts: {} } });
    expect(await memo.count('a', async () => 8, read(4))).toBe(8);
    expect(await memo.count('a', async () => 9, read(4))).toBe(8);
    expect(await memo.count('a', async () => 9, read(5))).toBe(9);
    expect(reads).toBe(0);
    const request = {};
    expect(await memo.count('a', async () => 10, request)).toBe(10);
    expect(await memo.count('b', async () => 11, request)).toBe(11);
    expect([reads, request]).toEqual([1, read(4)]);
  });

  it('counts every time when off', async () => {
    const memo = new CountMemo(new Versions(), 0);
    let scans = 0;
    for (let i = 0; i < 3; i++) await memo.count('a', async () => ++scans);
    expect(scans).toBe(3);
  });
});
