import { approximateBytes } from './approximate-bytes';

describe('approximateBytes', () => {
  it('counts texts by their characters, bytes by their length, and containers by what they hold', () => {
    expect(approximateBytes('abc')).toBe(19);
    // Beyond Latin-1 a character takes two bytes.
    expect(approximateBytes('日本')).toBe(20);
    expect(approximateBytes(Buffer.alloc(1000))).toBe(1064);
    // Any typed array by its bytes, not its elements one by one.
    expect(approximateBytes(new Float64Array(1000))).toBe(8064);
    expect(approximateBytes({ lats: new Float64Array(10) })).toBe(32 + 8 + 4 + 64 + 80);
    expect(approximateBytes(7)).toBe(8);
    expect(approximateBytes(null)).toBe(8);
    expect(approximateBytes([1, 2])).toBe(32 + 2 * (8 + 8));
    expect(approximateBytes(new Set([1]))).toBe(32 + 16);
    expect(approximateBytes(new Map([[1, 'a']]))).toBe(32 + 16 + 8 + 17);
    expect(approximateBytes({ id: 1, name: 'ab' })).toBe(32 + (8 + 2 + 8) + (8 + 4 + 18));
  });

  it('grows with the text a rendering holds, and stops looking past a depth of eight', () => {
    const small = approximateBytes({ response: Buffer.from('{"id":1}') });
    const large = approximateBytes({ response: Buffer.from(`{"id":1,"venue":"${'v'.repeat(1500)}"}`) });
    expect(large - small).toBe(1500 + '"venue":""'.length + 1);
    let deep: unknown = 'x';
    for (let level = 0; level < 20; level++) deep = [deep];
    expect(approximateBytes(deep)).toBe(9 * (32 + 8) + 16);
  });
});
