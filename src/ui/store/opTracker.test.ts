import { describe, expect, it } from 'vitest';
import { STALL_THRESHOLD_MS } from '../../core/domain/service';
import { OpTracker } from './opTracker';

describe('OpTracker', () => {
  it('keeps segment, budget and phase of each op in flight', () => {
    const tr = new OpTracker();
    tr.start(1, 63, 0, 3);
    tr.start(2, 0, 0, 0);
    tr.phase(1, 'backoff');
    expect(tr.budget(1)).toBe(3);
    expect(tr.budget(2)).toBe(0);
    expect([...tr.parked]).toEqual([1, 0, 1]);
    expect(tr.end(1)).toBe(63);
    expect(tr.end(2)).toBe(0);
    expect(tr.end(2)).toBe(-1);
    expect([...tr.parked]).toEqual([0, 0, 0]);
  });

  it('counts operations in flight past the stall threshold', () => {
    const tr = new OpTracker();
    for (let op = 0; op < 10; op++) tr.start(op, 1, op * 100, 3);
    expect(tr.stalled(900)).toBe(0);
    expect(tr.stalled(STALL_THRESHOLD_MS + 450)).toBe(5); // ops started at 0..400 ms
    tr.end(0);
    expect(tr.stalled(STALL_THRESHOLD_MS + 450)).toBe(4);
    // a restarted op id counts from its new start
    tr.start(1, 1, 5_000, 3);
    expect(tr.stalled(STALL_THRESHOLD_MS + 450)).toBe(3);
  });

  it('counts operations in flight past their budget once each, through phases, restarts, checkpoints and ends', () => {
    const tr = new OpTracker();
    tr.start(1, 63, 0, 3);
    tr.start(2, 5, 0, 1000);
    tr.markOverBudget(1);
    tr.markOverBudget(1);
    tr.markOverBudget(99); // not in flight
    expect(tr.overBudgetInFlight).toBe(1);
    tr.phase(1, 'backoff');
    expect(tr.budget(1)).toBe(3);
    expect(tr.budget(2)).toBe(1000);
    const copy = new OpTracker();
    copy.load(tr.save());
    expect(copy.overBudgetInFlight).toBe(1);
    expect([...copy.parked]).toEqual([1, 0, 1]);
    expect(copy.end(1)).toBe(63);
    expect(copy.overBudgetInFlight).toBe(0);
    // a repeated op.start replaces the record
    tr.start(1, 63, 10, 3);
    expect(tr.overBudgetInFlight).toBe(0);
    tr.markOverBudget(2);
    expect(tr.end(2)).toBe(5);
    expect(tr.overBudgetInFlight).toBe(0);
  });
});
