import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { OP_SLOT_RING, OpSlots } from './opSlots';

describe('OpSlots', () => {
  it('gives each held id one slot until it is deleted', () => {
    const s = new OpSlots(() => {});
    expect(s.slotOf(1)).toBe(-1);
    const a = s.add(1);
    const b = s.add(2);
    expect(a).not.toBe(b);
    expect([s.slotOf(1), s.slotOf(2), s.add(1), s.size]).toEqual([a, b, a, 2]);
    s.delete(1);
    s.delete(1);
    expect([s.slotOf(1), s.slotOf(2), s.size]).toEqual([-1, b, 1]);
  });

  it('keeps ids that share a ring slot apart, and grows the columns past the ring', () => {
    const grown: number[] = [];
    const s = new OpSlots((n) => grown.push(n));
    const ring = OP_SLOT_RING;
    const ids = Array.from({ length: ring + 5 }, (_, i) => 7 + i * ring);
    const slots = ids.map((id) => s.add(id));
    expect(new Set(slots).size).toBe(ids.length);
    expect(Math.max(...slots)).toBeLessThan(s.capacity);
    expect(grown).toEqual([s.capacity]);
    expect(ids.map((id) => s.slotOf(id))).toEqual(slots);
    s.delete(ids[0] as number); // the ring slot frees; the others stay where they are
    expect([s.slotOf(ids[0] as number), s.slotOf(ids[1] as number), s.size]).toEqual([-1, slots[1], ids.length - 1]);
    expect(s.add(ids[2] as number)).toBe(slots[2]); // held: the same slot
    s.delete(ids[2] as number);
    expect(s.add(ids[2] as number)).toBe(slots[0]); // back in the free ring slot
    expect(s.add(7 + (ring + 9) * ring)).toBe(slots[2]); // a freed overflow slot is reused
  });

  it.each([1, 2, 3])('matches a Map of distinct slots under random sliding-window traffic (seed %i)', (seed) => {
    const rng = Rng.seeded(seed);
    const s = new OpSlots(() => {});
    const m = new Map<number, number>();
    let next = 1;
    for (let step = 0; step < 50_000; step++) {
      const r = rng.next();
      if (r < 0.4) {
        const id = next++;
        const slot = s.add(id);
        expect(slot).toBeLessThan(s.capacity);
        m.set(id, slot);
      } else if (r < 0.8) {
        const id = Math.max(1, next - (rng.next() < 0.9 ? rng.int(0, 300) : rng.int(0, 40_000)));
        s.delete(id);
        m.delete(id);
      } else {
        const id = Math.max(1, next - rng.int(0, 20_000));
        expect(s.slotOf(id)).toBe(m.get(id) ?? -1);
      }
      expect(s.size).toBe(m.size);
    }
    expect(new Set(m.values()).size).toBe(m.size);
  });
});
