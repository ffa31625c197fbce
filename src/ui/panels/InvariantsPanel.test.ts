import { describe, expect, it } from 'vitest';
import { createDashboardStore } from '../store/dashboardStore';
import { invariantsView } from './InvariantsPanel';

describe('Invariants panel', () => {
  it('says "no operations yet" (not "bounds kept") when only the boot topology event has arrived', () => {
    const store = createDashboardStore();
    store.getState().ingestEvents([{ t: 0, type: 'topology', epoch: 1, change: 'initial', node: 0, segments: [0, 1] }]);
    store.getState().publish();
    expect(store.getState().snapshot.invariants).not.toBeNull();
    expect(invariantsView(store.getState().snapshot).verdict).toBe('idle');
  });

  it('gives a verdict once an operation has run, and the live final-state check shows its counterexample op ids', () => {
    const store = createDashboardStore();
    store.getState().ingestEvents([
      { t: 1, type: 'op.start', op: 4, kind: 'put', key: 'k', segment: 0 },
      { t: 1, type: 'attempt.start', op: 4, attempt: 1, node: 0, epoch: 1 },
      { t: 2, type: 'attempt.end', op: 4, attempt: 1, node: 0, status: 'Ok', latencyMs: 1 },
      { t: 2, type: 'op.end', op: 4, status: 'Ok', attempts: 1, latencyMs: 1, version: 5 },
    ] as never);
    store.getState().publish();
    expect(invariantsView(store.getState().snapshot).verdict).toBe('ok');
    store.getState().checkFinalData(10, new Map([['k', 4]]));
    const view = invariantsView(store.getState().snapshot);
    expect(view.verdict).toBe('violated');
    expect(view.rows.find((r) => r.name === 'noLostAckedWrites')?.examples).toEqual([4]);
  });
});
