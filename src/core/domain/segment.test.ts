import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { fnv1a32, segmentOf } from './segment';

/** FNV-1a 32-bit over UTF-16 code units, written independently with BigInt */
function reference(key: string): number {
  let h = 0x811c9dc5n;
  for (let i = 0; i < key.length; i++) {
    h ^= BigInt(key.charCodeAt(i));
    h = (h * 0x01000193n) & 0xffffffffn;
  }
  return Number(h);
}

describe('fnv1a32', () => {
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['b', 0xe70c2de5],
    ['foo', 0xa9f37ed7],
    ['foobar', 0xbf9cf968],
  ] as const)('%j → %i (published FNV-1a vectors)', (key, hash) => {
    expect(fnv1a32(key)).toBe(hash);
  });

  it('is an unsigned 32-bit integer and matches a BigInt reference on random keys (incl. non-ASCII)', () => {
    const rng = Rng.seeded(7);
    for (let n = 0; n < 500; n++) {
      const len = rng.int(0, 24);
      let key = '';
      for (let i = 0; i < len; i++) key += String.fromCharCode(rng.int(0, 0xffff));
      const h = fnv1a32(key);
      expect(Number.isInteger(h) && h >= 0 && h <= 0xffffffff).toBe(true);
      expect(h).toBe(reference(key));
    }
  });
});

describe('segmentOf', () => {
  it('is the hash modulo the segment count', () => {
    expect(segmentOf('foobar', 64)).toBe(0xbf9cf968 % 64);
    expect(segmentOf('foobar', 64)).toBe(40);
    expect(segmentOf('', 64)).toBe(0x811c9dc5 % 64);
    expect(segmentOf('a', 7)).toBe(0xe40c292c % 7);
  });

  it.each([1, 2, 7, 64, 1000])('stays in [0, %i) and covers the range', (count) => {
    const seen = new Set<number>();
    for (let i = 0; i < 20 * count; i++) {
      const s = segmentOf(`key-${i}`, count);
      expect(Number.isInteger(s) && s >= 0 && s < count).toBe(true);
      seen.add(s);
    }
    expect(seen.size).toBe(count);
  });

  it('is stable: the same key always lands in the same segment', () => {
    const keys = Array.from({ length: 100 }, (_, i) => `user:${i}`);
    const first = keys.map((k) => segmentOf(k, 64));
    expect(keys.map((k) => segmentOf(k, 64))).toEqual(first);
    expect(first.slice(0, 4)).toEqual(keys.slice(0, 4).map((k) => reference(k) % 64));
  });
});
