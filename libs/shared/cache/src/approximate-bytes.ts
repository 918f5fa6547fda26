/** What a kept entry costs besides its value: its key, the map's slot and the entry object (about). */
export const ENTRY_OVERHEAD_BYTES = 96;

/**
 * About how many bytes a value holds in memory, for caches bounded by bytes: a string its characters (two bytes each
 * beyond Latin-1), a Buffer its bytes, a number 8, arrays, sets, maps and plain objects what they hold plus a few
 * bytes a slot. An estimate for bounding, not a measure: V8's own layout is not visible from JavaScript. Objects with
 * a `size` getter of their own (a kept template) are not looked into: give their cost to the cache directly. A typed
 * array (a Buffer among them) its bytes.
 */
export function approximateBytes(value: unknown, depth = 0): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 8;
  if (typeof value === 'number' || typeof value === 'bigint') return 8;
  if (typeof value === 'string') return 16 + (/[\u0100-\uffff]/.test(value) ? 2 * value.length : value.length);
  if (Buffer.isBuffer(value)) return 64 + value.length;
  if (ArrayBuffer.isView(value)) return 64 + value.byteLength;
  if (typeof value !== 'object' || depth > 8) return 16;
  let bytes = 32;
  if (Array.isArray(value) || value instanceof Set) for (const item of value) bytes += 8 + approximateBytes(item, depth + 1);
  else if (value instanceof Map) for (const [key, item] of value) bytes += 16 + approximateBytes(key, depth + 1) + approximateBytes(item, depth + 1);
  else for (const [key, item] of Object.entries(value)) bytes += 8 + key.length + approximateBytes(item, depth + 1);
  return bytes;
}
