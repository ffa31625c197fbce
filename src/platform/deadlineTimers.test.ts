import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineTimers } from './deadlineTimers';

describe('DeadlineTimers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const make = () => {
    const live = new Set<number>();
    const fired: [number, number][] = [];
    const dt = new DeadlineTimers(
      () => Date.now(),
      (id) => {
        live.delete(id);
        fired.push([id, Date.now()]);
      },
      (id) => live.has(id),
      () => live.size,
    );
    let next = 1;
    const add = (delay: number) => {
      const id = next++;
      live.add(id);
      dt.add(id, delay);
      return id;
    };
    return { dt, live, fired, add };
  };

  it('fires each live deadline once, no earlier than due, in (due, id) order', () => {
    const { fired, add, live } = make();
    const t0 = Date.now();
    const a = add(30);
    const b = add(10);
    const c = add(10);
    const d = add(20);
    live.delete(d); // answered: never fires
    vi.advanceTimersByTime(9);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([
      [b, t0 + 10],
      [c, t0 + 10],
    ]);
    vi.advanceTimersByTime(100);
    expect(fired.map((f) => f[0])).toEqual([b, c, a]);
    expect(fired[2]?.[1]).toBe(t0 + 30);
  });

  it('rearms for an earlier deadline added later', () => {
    const { fired, add } = make();
    const t0 = Date.now();
    const late = add(1000);
    const early = add(5);
    vi.advanceTimersByTime(5);
    expect(fired).toEqual([[early, t0 + 5]]);
    vi.advanceTimersByTime(995);
    expect(fired.map((f) => f[0])).toEqual([early, late]);
  });

  it('compacts answered entries (the heap stays bounded by what is live)', () => {
    const { dt, add, live, fired } = make();
    for (let i = 0; i < 20_000; i++) live.delete(add(60_000));
    const keep = add(60_000);
    expect(dt.size).toBeLessThan(8_200);
    vi.advanceTimersByTime(60_000);
    expect(fired.map((f) => f[0])).toEqual([keep]);
  });

  it('matches one timer per deadline (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 60 }), fc.boolean()), { maxLength: 40 }), (plan) => {
        const { fired, add, live } = make();
        const t0 = Date.now();
        const expected: [number, number][] = [];
        // each entry: added at t0 + at, delay, answered before due?
        const sorted = plan.map((p, i) => ({ at: p[0], delay: p[1], answered: p[2], i })).sort((x, y) => x.at - y.at || x.i - y.i);
        let now = 0;
        const ids: { id: number; due: number; answered: boolean }[] = [];
        for (const s of sorted) {
          // fire what is due before this add
          vi.advanceTimersByTime(s.at - now);
          now = s.at;
          const id = add(s.delay);
          ids.push({ id, due: t0 + s.at + s.delay, answered: s.answered });
          if (s.answered) live.delete(id);
        }
        vi.advanceTimersByTime(200);
        for (const x of [...ids].sort((p, q) => p.due - q.due || p.id - q.id)) if (!x.answered) expected.push([x.id, x.due]);
        expect(fired).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
