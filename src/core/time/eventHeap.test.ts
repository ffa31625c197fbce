import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { EventHeap } from './eventHeap';

describe('EventHeap', () => {
  it('pops by time, equal times in the order they were pushed, skipping nothing', () => {
    const h = new EventHeap();
    const fired: string[] = [];
    const f = (name: string) => () => fired.push(name);
    for (const [t, name] of [[5, 'a'], [1, 'b'], [5, 'c'], [0, 'd'], [1, 'e']] as const) h.push(t, f(name));
    while (h.length > 0) h.pop()?.();
    expect(fired).toEqual(['d', 'b', 'e', 'a', 'c']);
  });

  it.each([1, 2, 3])('matches a sorted reference under random pushes, pops and cancels (seed %i)', (seed) => {
    const rng = Rng.seeded(seed);
    const h = new EventHeap();
    /** pending (time, push order, id, cancelled) */
    const ref: { t: number; seq: number; id: number; arg: number; cancelled: boolean }[] = [];
    let seq = 0;
    for (let step = 0; step < 40_000; step++) {
      const r = rng.next();
      if (r < 0.5 || ref.length === 0) {
        // few distinct times, so ties are common
        const t = rng.int(0, 50) + (rng.next() < 0.5 ? 0 : rng.int(0, 3) / 4);
        const arg = seq;
        const id = h.push(t, () => {}, arg);
        ref.push({ t, seq: seq++, id, arg, cancelled: false });
      } else if (r < 0.6) {
        const e = ref[rng.int(0, ref.length - 1)];
        if (e !== undefined) {
          h.cancel(e.id);
          e.cancelled = true;
        }
      } else {
        ref.sort((a, b) => a.t - b.t || a.seq - b.seq);
        const e = ref.shift();
        expect(h.peekTime()).toBe(e?.t);
        const fn = h.pop();
        expect(fn === null).toBe(e?.cancelled);
        if (fn !== null) expect(h.poppedArg).toBe(e?.arg);
      }
      expect(h.length).toBe(ref.length);
    }
  });
});
