import fc from 'fast-check';
import { parseSlots, SharedReads, VERSION_SLOTS } from './data-version';

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

describe('parseSlots', () => {
  it('reads every slot named, as many writes as the pair says, and 0 for the others', () => {
    expect(parseSlots('3:12,0:7,31:900719925474099')).toEqual(Array.from({ length: VERSION_SLOTS }, (_, slot) => ({ 0: 7, 3: 12, 31: 900719925474099 })[slot] ?? 0));
    expect(parseSlots(null)).toEqual(new Array(VERSION_SLOTS).fill(0));
    expect(parseSlots('')).toEqual(new Array(VERSION_SLOTS).fill(0));
  });

  it('leaves out a pair that is not two whole numbers or names no slot', () => {
    expect(parseSlots('1:5,2:,:3,4:x,5:6:7,32:9,-1:2,6:8')).toEqual(Array.from({ length: VERSION_SLOTS }, (_, slot) => ({ 1: 5, 6: 8 })[slot] ?? 0));
  });

  it('gives what the slots were, for any counts written as slotsSubquery writes them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: VERSION_SLOTS - 1 })), fc.array(fc.maxSafeNat(), { minLength: VERSION_SLOTS, maxLength: VERSION_SLOTS }), (named, counts) => {
        const text = named.map((slot) => `${slot}:${counts[slot]}`).join(',');
        expect(parseSlots(text)).toEqual(Array.from({ length: VERSION_SLOTS }, (_, slot) => (named.includes(slot) ? counts[slot] : 0)));
      }),
    );
  });
});
