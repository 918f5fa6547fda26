/**
 * The keys seen lately, as a Bloom filter in one fixed array (nothing allocated per key): `seenBefore` says whether
 * a key was (probably) seen since the filter was last emptied, and remembers it. Sized for `capacity` keys at 16
 * bits each, two positions per key: about 1.4 % of new keys pass for seen ones when it is full; it then starts
 * again empty. The response cache asks it which URLs were asked before; a map with admission on second sight, which
 * keys were offered before.
 */
export class SeenKeys {
  private readonly bits: Uint32Array;
  private readonly size: number;
  private remembered = 0;

  constructor(private readonly capacity = 32_768) {
    this.size = capacity * 16;
    this.bits = new Uint32Array(this.size / 32);
  }

  seenBefore(key: string): boolean {
    // FNV-1a over the UTF-16 code units, and a second hash mixed from it (double hashing).
    let hash = 0x811c9dc5;
    for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
    const first = (hash >>> 0) % this.size;
    const second = (Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) >>> 0) % this.size;
    const seen = this.has(first) && this.has(second);
    if (!seen) {
      if (this.remembered >= this.capacity) this.clear();
      this.set(first);
      this.set(second);
      this.remembered += 1;
    }
    return seen;
  }

  /** Forgets every key. */
  clear(): void {
    this.bits.fill(0);
    this.remembered = 0;
  }

  private has(bit: number): boolean {
    return (this.bits[bit >>> 5] & (1 << (bit & 31))) !== 0;
  }

  private set(bit: number): void {
    this.bits[bit >>> 5] |= 1 << (bit & 31);
  }
}
