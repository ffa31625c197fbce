import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { OpTable } from './opTable';

describe('OpTable', () => {
  it('behaves like a Map for get / has / set / delete / size', () => {
    const t = new OpTable<string>();
    expect(t.get(1)).toBeUndefined();
    t.set(1, 'a').set(2, 'b');
    expect(t.size).toBe(2);
    expect(t.get(1)).toBe('a');
    t.set(1, 'a2');
    expect(t.size).toBe(2);
    expect(t.get(1)).toBe('a2');
    expect(t.delete(1)).toBe(true);
    expect(t.delete(1)).toBe(false);
    expect(t.has(1)).toBe(false);
    expect(t.has(2)).toBe(true);
    expect(t.size).toBe(1);
  });

  it('keeps ids that share a ring slot apart (long-running ops next to new ones)', () => {
    const t = new OpTable<number>();
    const ring = 1 << 13;
    t.set(5, 5);
    t.set(5 + ring, 50); // same slot, still held by 5
    t.set(5 + 2 * ring, 500);
    expect([t.get(5), t.get(5 + ring), t.get(5 + 2 * ring), t.size]).toEqual([5, 50, 500, 3]);
    t.delete(5); // the slot frees; the others stay reachable
    expect([t.get(5), t.get(5 + ring), t.get(5 + 2 * ring), t.size]).toEqual([undefined, 50, 500, 2]);
    t.set(5 + ring, 51); // updated where it lives, not duplicated into the free slot
    expect([t.get(5 + ring), t.size]).toEqual([51, 2]);
    t.set(5 + 3 * ring, 5000); // takes the free slot
    expect([t.delete(5 + ring), t.delete(5 + 2 * ring), t.delete(5 + 3 * ring), t.size]).toEqual([true, true, true, 0]);
  });

  it.each([1, 2, 3])('matches a Map under random sliding-window traffic (seed %i)', (seed) => {
    const rng = Rng.seeded(seed);
    const t = new OpTable<number>();
    const m = new Map<number, number>();
    let next = 1;
    for (let step = 0; step < 50_000; step++) {
      const r = rng.next();
      if (r < 0.4) {
        const id = next++;
        t.set(id, step);
        m.set(id, step);
      } else if (r < 0.8) {
        // mostly recent ids, sometimes very old ones (beyond the ring)
        const id = Math.max(1, next - (rng.next() < 0.9 ? rng.int(0, 300) : rng.int(0, 40_000)));
        expect(t.delete(id)).toBe(m.delete(id));
      } else {
        const id = Math.max(1, next - rng.int(0, 20_000));
        expect(t.get(id)).toBe(m.get(id));
        expect(t.has(id)).toBe(m.has(id));
        if (rng.next() < 0.3 && m.has(id)) {
          t.set(id, -step);
          m.set(id, -step);
        }
      }
      expect(t.size).toBe(m.size);
    }
    for (const [id, v] of m) expect(t.get(id)).toBe(v);
  });
});
