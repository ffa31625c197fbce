import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { TimerQueue } from './timerQueue';

describe('TimerQueue', () => {
  it('pops by time, equal times in the order they were pushed, skipping nothing', () => {
    const h = new TimerQueue();
    const fired: string[] = [];
    const f = (name: string) => () => fired.push(name);
    for (const [t, name] of [[5, 'a'], [1, 'b'], [5, 'c'], [0, 'd'], [1, 'e']] as const) h.push(t, f(name));
    while (h.length > 0) h.pop()?.();
    expect(fired).toEqual(['d', 'b', 'e', 'a', 'c']);
  });

  it.each([1, 2, 3])('matches a sorted reference under random pushes, pops and cancels (seed %i)', (seed) => {
    const rng = Rng.seeded(seed);
    const h = new TimerQueue();
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

describe('TimerQueue (basics)', () => {
  it('pops by time, equal times in push order', () => {
    const heap = new TimerQueue();
    const out: string[] = [];
    for (const [t, l] of [[5, 'a'], [1, 'b'], [5, 'c'], [1, 'd'], [3, 'e'], [5, 'f']] as const) heap.push(t, () => out.push(l));
    expect(heap.length).toBe(6);
    expect(heap.peekTime()).toBe(1);
    while (heap.length > 0) heap.pop()?.();
    expect(out).toEqual(['b', 'd', 'e', 'a', 'c', 'f']);
    expect(heap.peekTime()).toBe(Infinity);
  });

  it('cancel: the entry surfaces as null; others are untouched', () => {
    const heap = new TimerQueue();
    const out: string[] = [];
    heap.push(1, () => out.push('a'));
    const b = heap.push(2, () => out.push('b'));
    heap.push(3, () => out.push('c'));
    heap.cancel(b);
    expect(heap.length).toBe(3);
    const popped = [heap.pop(), heap.pop(), heap.pop()];
    expect(popped.map((f) => f === null)).toEqual([false, true, false]);
    for (const f of popped) f?.();
    expect(out).toEqual(['a', 'c']);
  });

  it.each([1, 2, 3, 4, 5])('randomized against a sorted reference (seed %i)', (seed) => {
    const rng = Rng.seeded(seed);
    const heap = new TimerQueue();
    type Ref = { at: number; seq: number; id: number; cancelled: boolean };
    let ref: Ref[] = [];
    let seq = 0;
    const popped: number[] = [];
    const expected: number[] = [];
    for (let step = 0; step < 3000; step++) {
      const r = rng.next();
      if (r < 0.55) {
        const at = rng.int(0, 50); // few distinct times: many ties
        const s = seq++;
        const id = heap.push(at, () => popped.push(s));
        ref.push({ at, seq: s, id, cancelled: false });
      } else if (r < 0.7 && ref.length > 0) {
        const victim = ref[rng.int(0, ref.length - 1)] as Ref;
        heap.cancel(victim.id);
        victim.cancelled = true;
      } else if (ref.length > 0) {
        ref.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const head = ref.shift() as Ref;
        expect(heap.peekTime()).toBe(head.at);
        const fn = heap.pop();
        expect(fn === null).toBe(head.cancelled);
        fn?.();
        if (!head.cancelled) expected.push(head.seq);
      }
      expect(heap.length).toBe(ref.length);
    }
    ref = ref.sort((a, b) => a.at - b.at || a.seq - b.seq);
    while (heap.length > 0) heap.pop()?.();
    expected.push(...ref.filter((e) => !e.cancelled).map((e) => e.seq));
    expect(popped).toEqual(expected);
  });
});

/** pops everything, returning [time, arg] pairs */
function drain(q: TimerQueue): [number, unknown][] {
  const out: [number, unknown][] = [];
  while (q.length > 0) {
    const t = q.peekTime();
    q.pop();
    out.push([t, q.poppedArg]);
  }
  return out;
}

describe('TimerQueue (the calendar: order never depends on the bucket width)', () => {
  /** a pending set whose spacing changes by orders of magnitude, with far-future and Infinity timers */
  const phases: readonly { gap: number; n: number }[] = [
    { gap: 1e-6, n: 3000 },
    { gap: 250, n: 500 },
    { gap: 0.01, n: 6000 },
    { gap: 0, n: 2000 },
    { gap: 1e5, n: 300 },
  ];

  it.each([7, 8, 9])('a clock-like run (pop the earliest, push later ones) matches a sorted reference across spacing phases (seed %i)', (seed) => {
    const rng = Rng.seeded(seed);
    const q = new TimerQueue();
    type Ref = { at: number; seq: number };
    const ref: Ref[] = [];
    let seq = 0;
    let now = 0;
    const push = (at: number) => {
      q.push(at, () => {}, seq);
      ref.push({ at, seq: seq++ });
    };
    push(Infinity);
    push(1e12);
    for (const { gap, n } of phases) {
      // keep ~300 pending: each step pops one and pushes one or two, like a simulation
      while (ref.length < 300) push(now + rng.next() * 300 * gap);
      for (let i = 0; i < n; i++) {
        ref.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const head = ref.shift() as Ref;
        expect(q.peekTime()).toBe(head.at);
        q.pop();
        expect(q.poppedArg).toBe(head.seq);
        now = head.at;
        push(now + rng.next() * 2 * 300 * gap);
        if (rng.next() < 0.3 && ref.length < 600) push(now + (rng.next() < 0.5 ? 0 : rng.next() * gap));
        if (rng.next() < 0.3 && ref.length > 2) {
          ref.sort((a, b) => a.at - b.at || a.seq - b.seq);
          const h2 = ref.shift() as Ref;
          q.pop();
          expect(q.poppedArg).toBe(h2.seq);
          now = h2.at;
        }
        expect(q.length).toBe(ref.length);
      }
    }
    ref.sort((a, b) => a.at - b.at || a.seq - b.seq);
    expect(drain(q)).toEqual(ref.map((r) => [r.at, r.seq]));
  });

  it('learns the width from the timers near the front, and re-learns it when the spacing changes', () => {
    const rng = Rng.seeded(11);
    const q = new TimerQueue();
    let now = 0;
    // ~400 pending, each popped timer replaced by one up to 800 gaps later: spacing ≈ gap
    const run = (gap: number, steps: number) => {
      for (let i = 0; i < steps; i++) {
        if (q.length > 0) {
          now = q.peekTime();
          q.pop();
        }
        while (q.length < 400) q.push(now + rng.next() * 800 * gap, () => {});
      }
    };
    run(0.001, 50_000);
    expect(q.bucketWidth).toBeGreaterThan(0.001);
    expect(q.bucketWidth).toBeLessThan(0.01);
    // the same queue, now with timers ~10 s apart (a slow, idle phase)
    run(10_000, 50_000);
    expect(q.bucketWidth).toBeGreaterThan(10_000);
    expect(q.bucketWidth).toBeLessThan(100_000);
  });

  it('a burst at one instant fires in push order (appends stay O(1))', () => {
    const q = new TimerQueue();
    for (let i = 0; i < 200_000; i++) q.push(5, () => {}, i);
    q.push(4, () => {}, -1);
    const out = drain(q);
    expect(out[0]).toEqual([4, -1]);
    expect(out.slice(1).every(([t, a], i) => t === 5 && a === i)).toBe(true);
  });

  it('an empty queue peeks Infinity and pops null, before and after use', () => {
    const q = new TimerQueue();
    expect(q.peekTime()).toBe(Infinity);
    expect(q.pop()).toBeNull();
    q.push(2, () => {}, 'x');
    q.pop();
    expect(q.pop()).toBeNull();
    expect(q.poppedArg).toBeUndefined();
    expect(q.length).toBe(0);
  });

  it('timers pushed below the current bucket (after a peek moved it ahead) still come first', () => {
    const q = new TimerQueue();
    for (let i = 0; i < 100; i++) q.push(1000 + i, () => {}, i);
    expect(q.peekTime()).toBe(1000);
    q.push(3, () => {}, 'early');
    expect(q.peekTime()).toBe(3);
    q.pop();
    expect(q.poppedArg).toBe('early');
    expect(drain(q).map(([t]) => t)).toEqual(Array.from({ length: 100 }, (_, i) => 1000 + i));
  });
});
