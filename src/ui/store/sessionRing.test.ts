import { describe, expect, it } from 'vitest';
import { BucketRing } from './bucketRing';
import { METRIC_WIDTH } from './layout';
import { SessionRing } from './sessionRing';

/** a fine ring with one bucket holding a few values, folded into `s` at `t` */
function foldOne(s: SessionRing, t: number, v: { ops: number; parked: number; backoffMax: number; callersMax: number }): void {
  const fine = new BucketRing(4);
  const slot = fine.slot(0);
  fine.add('opsByOutcome', slot, 0, v.ops);
  fine.put('parked', slot, 0, v.parked);
  fine.max('backoffMaxMs', slot, 0, v.backoffMax);
  fine.max('refreshCallers', slot, 2, v.callersMax);
  s.fold(t, fine.cols, slot);
}

describe('SessionRing (whole session, bounded)', () => {
  it('sums counters, keeps the later gauge and the larger max within a bucket', () => {
    const s = new SessionRing(4, 1000);
    foldOne(s, 100, { ops: 3, parked: 7, backoffMax: 50, callersMax: 2 });
    foldOne(s, 900, { ops: 4, parked: 2, backoffMax: 20, callersMax: 9 });
    const w = s.snapshot();
    expect(w.length).toBe(1);
    expect(w.cols.opsByOutcome[0]).toBe(7);
    expect(w.cols.parked[0]).toBe(2);
    expect(w.cols.backoffMaxMs[0]).toBe(50);
    expect(w.cols.refreshCallers[2]).toBe(9);
  });

  it('carries gauges into buckets without events', () => {
    const s = new SessionRing(8, 1000);
    foldOne(s, 0, { ops: 1, parked: 5, backoffMax: 0, callersMax: 0 });
    foldOne(s, 3_500, { ops: 1, parked: 6, backoffMax: 0, callersMax: 0 });
    const w = s.snapshot();
    expect(w.length).toBe(4);
    expect([0, 1, 2, 3].map((i) => w.cols.parked[i * METRIC_WIDTH.parked])).toEqual([5, 5, 5, 6]);
    expect([0, 1, 2, 3].map((i) => w.cols.opsByOutcome[i * METRIC_WIDTH.opsByOutcome])).toEqual([1, 0, 0, 1]);
  });

  it('doubles its bucket width when the session outgrows it: memory stays fixed, totals are kept', () => {
    const s = new SessionRing(4, 1000);
    for (let t = 0; t < 20_000; t += 500) foldOne(s, t, { ops: 1, parked: t, backoffMax: t, callersMax: 1 });
    const w = s.snapshot();
    expect(s.bucketMs).toBe(8000); // 20 s in ≤ 4 buckets: 1 s → 2 s → 4 s → 8 s
    expect(w.length).toBeLessThanOrEqual(4);
    let ops = 0;
    for (let i = 0; i < w.length; i++) ops += w.cols.opsByOutcome[i * METRIC_WIDTH.opsByOutcome] as number;
    expect(ops).toBe(40);
    // the last bucket's gauge is the newest value; its max is the largest folded into it
    expect(w.cols.parked[(w.length - 1) * METRIC_WIDTH.parked]).toBe(19_500);
    expect(w.cols.backoffMaxMs[(w.length - 1) * METRIC_WIDTH.backoffMaxMs]).toBe(19_500);
    s.clear();
    expect(s.bucketMs).toBe(1000);
    expect(s.snapshot().length).toBe(0);
  });
});
