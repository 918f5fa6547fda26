import { SharedReads } from './data-version';

/** A read under the test's control: it begins when called and ends when the test settles it. */
function controlledReads() {
  const begun: { settle: (value: number) => void; fail: (error: Error) => void }[] = [];
  let counter = 0;
  const reads = new SharedReads<number>(
    () =>
      new Promise<number>((resolve, reject) => {
        begun.push({ settle: resolve, fail: reject });
        counter += 1;
      }),
  );
  return { reads, begun, begins: () => counter };
}

describe('SharedReads', () => {
  it('gives each call a read begun after it, shared by the calls made while another ran', async () => {
    const { reads, begun, begins } = controlledReads();
    const first = reads.read();
    // Asked while the first read runs: they wait for one read that begins when it ends.
    const second = reads.read();
    const third = reads.read();
    expect(begins()).toBe(1);
    begun[0].settle(1);
    expect(await first).toBe(1);
    expect(begins()).toBe(2);
    // Asked after the second read began: not answered by it, but by the one after.
    const fourth = reads.read();
    begun[1].settle(2);
    expect([await second, await third]).toEqual([2, 2]);
    expect(begins()).toBe(3);
    begun[2].settle(3);
    expect(await fourth).toBe(3);
    // Nothing running: a call begins its own read at once.
    const fifth = reads.read();
    expect(begins()).toBe(4);
    begun[3].settle(4);
    expect(await fifth).toBe(4);
  });

  it('begins the next read when the running one fails, and gives its callers its error only', async () => {
    const { reads, begun, begins } = controlledReads();
    const first = reads.read();
    const second = reads.read();
    begun[0].fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    expect(begins()).toBe(2);
    begun[1].settle(7);
    expect(await second).toBe(7);
  });
});
