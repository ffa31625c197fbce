import type { Keyspace } from './keyspace';

/** Redis Cluster's slot count (fixed by the protocol) */
export const REDIS_SLOTS = 16_384;

const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let j = 0; j < 8; j++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

/** CRC16-XMODEM (poly 0x1021, init 0), the checksum Redis Cluster hashes keys with */
export function crc16(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let crc = 0;
  for (let i = from; i < to; i++) crc = ((crc << 8) ^ (TABLE[((crc >> 8) ^ (bytes[i] as number)) & 0xff] as number)) & 0xffff;
  return crc;
}

/** UTF-8 bytes of a string (the core has no TextEncoder; Redis hashes the key's bytes) */
export function utf8(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

/**
 * The slot of a key, as Redis computes it: if the key has a `{…}` with at
 * least one byte inside (the first `{` and the first `}` after it), only
 * that hash tag is hashed, so related keys can share a slot.
 */
export function redisSlot(key: string): number {
  const b = utf8(key);
  const open = b.indexOf(0x7b);
  if (open >= 0) {
    const close = b.indexOf(0x7d, open + 1);
    if (close > open + 1) return crc16(b, open + 1, close) % REDIS_SLOTS;
  }
  return crc16(b) % REDIS_SLOTS;
}

/** Redis Cluster's keyspace: segment = slot */
export const REDIS_KEYSPACE: Keyspace = { id: `redis-crc16/${REDIS_SLOTS}`, segmentCount: REDIS_SLOTS, segmentOf: redisSlot };
