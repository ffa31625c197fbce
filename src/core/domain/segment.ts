/**
 * Key → segment: FNV-1a (32-bit) over the key's UTF-16 code units, modulo the
 * segment count. Stable across runs, platforms and languages that implement
 * FNV-1a the same way; documented in README ("Where each rule lives").
 */
export function fnv1a32(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** the segment a key belongs to, in [0, segmentCount) */
export function segmentOf(key: string, segmentCount: number): number {
  return fnv1a32(key) % segmentCount;
}
