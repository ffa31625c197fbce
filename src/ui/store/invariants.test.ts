import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import type { ZarisEvent } from '../../core/telemetry/events';
import { createDashboardStore, createStoreListener } from './dashboardStore';
import { selectInvariantRows } from './selectors';

const start = (op: number, t: number, budget = 3): ZarisEvent => ({ t, type: 'op.start', op, kind: 'put', key: `k${op}`, segment: 0, deadline: t + 1_000, budget });
const attempt = (op: number, attempt: number, t: number, status: 'Moved' | 'Conflict' | 'Ok'): ZarisEvent[] => [
  { t, type: 'attempt.start', op, attempt, node: 0, epoch: 1 },
  { t: t + 1, type: 'attempt.end', op, attempt, node: 0, status, latencyMs: 1 },
];

function verdictOf(events: ZarisEvent[], bugs: Partial<typeof DEFAULT_CLIENT_CONFIG.bugs> = {}) {
  const store = createDashboardStore();
  store.getState().applyClientConfig({ ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, ...bugs } });
  store.getState().ingestEvents(events);
  store.getState().publish();
  return selectInvariantRows(store.getState().snapshot.invariants);
}

describe('invariant monitor', () => {
  it('is pending before any event and ok for a clean run', () => {
    expect(createDashboardStore().getState().snapshot.invariants).toBeNull();
    expect(selectInvariantRows(null).verdict).toBe('pending');
    const ok = verdictOf([start(1, 0), ...attempt(1, 1, 0, 'Ok'), { t: 2, type: 'op.end', op: 1, status: 'Ok', attempts: 1, latencyMs: 2, version: 1, reason: 'success' }]);
    expect(ok.verdict).toBe('ok');
    expect(ok.rows.map((r) => r.verdict)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('names the ops that exceeded their attempt budget', () => {
    const events: ZarisEvent[] = [start(7, 0)];
    for (let a = 1; a <= 4; a++) events.push(...attempt(7, a, a * 10, 'Moved'));
    events.push({ t: 50, type: 'op.end', op: 7, status: 'Moved', attempts: 4, latencyMs: 50, reason: 'deadline' });
    const v = verdictOf(events);
    expect(v.verdict).toBe('violated');
    const row = v.rows.find((r) => r.name === 'attemptBudgetKept');
    expect(row).toMatchObject({ verdict: 'violated', violations: 1, examples: [7] });
    // the same run with the storm toggle on is an expected violation
    expect(verdictOf(events, { deadlineReplacesAttempts: true }).verdict).toBe('expected');
  });

  it('a violation stays expected when the toggle that explains it is switched off afterwards; one made after it is not', () => {
    const store = createDashboardStore();
    const storm = { ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, deadlineReplacesAttempts: true } };
    store.getState().applyClientConfig(storm);
    const over = (op: number, t: number): ZarisEvent[] => [start(op, t), ...[1, 2, 3, 4].flatMap((a) => attempt(op, a, t + a * 10, 'Moved'))];
    store.getState().ingestEvents(over(7, 0));
    store.getState().applyClientConfig(DEFAULT_CLIENT_CONFIG); // the toggle off: op 7 broke its budget while it was on
    store.getState().publish();
    let rows = selectInvariantRows(store.getState().snapshot.invariants);
    expect(rows.verdict).toBe('expected');
    expect(rows.rows.find((r) => r.name === 'attemptBudgetKept')?.detail).toBe('1 operation(s) made more attempts than their budget (expected: deadlineReplacesAttempts was on — the refresh storm)');
    store.getState().ingestEvents(over(8, 100)); // started and broke its budget with the toggle off
    store.getState().publish();
    rows = selectInvariantRows(store.getState().snapshot.invariants);
    expect(rows.verdict).toBe('violated');
    expect(rows.rows.find((r) => r.name === 'attemptBudgetKept')?.detail).toBe('2 operation(s) made more attempts than their budget (1 of them while deadlineReplacesAttempts was on)');
  });

  it('names the ops that retried a Conflict', () => {
    const events: ZarisEvent[] = [start(3, 0), ...attempt(3, 1, 0, 'Conflict'), ...attempt(3, 2, 10, 'Conflict')];
    events.push({ t: 20, type: 'op.end', op: 3, status: 'Conflict', attempts: 2, latencyMs: 20, reason: 'realAnswer' });
    const row = verdictOf(events).rows.find((r) => r.name === 'noRetriedRealAnswers');
    expect(row).toMatchObject({ verdict: 'violated', examples: [3] });
  });

  it('names the ops that outlived their deadline beyond the bounded wait', () => {
    const events: ZarisEvent[] = [start(5, 0), ...attempt(5, 1, 0, 'Moved'), { t: 1, type: 'backoff', op: 5, attempt: 1, delayMs: 5_000, status: 'Moved' }];
    events.push({ t: 5_001, type: 'op.end', op: 5, status: 'Moved', attempts: 1, latencyMs: 5_001, reason: 'deadline' });
    const row = verdictOf(events).rows.find((r) => r.name === 'deadlineKept');
    expect(row).toMatchObject({ verdict: 'violated', examples: [5] });
  });

  it('names a read that saw a version older than an acknowledged write (lost write)', () => {
    const events: ZarisEvent[] = [
      { t: 0, type: 'op.start', op: 1, kind: 'put', key: 'x', segment: 0, budget: 3 },
      { t: 1, type: 'op.end', op: 1, status: 'Ok', attempts: 1, latencyMs: 1, version: 5, reason: 'success' },
      { t: 2, type: 'op.start', op: 2, kind: 'get', key: 'x', segment: 0, budget: 3 },
      { t: 3, type: 'op.end', op: 2, status: 'Ok', attempts: 1, latencyMs: 1, version: 4, reason: 'success' },
    ];
    const row = verdictOf(events).rows.find((r) => r.name === 'noLostAckedWrites');
    expect(row).toMatchObject({ verdict: 'violated', examples: [2] });
  });

  it('starts over with a new session', () => {
    const store = createDashboardStore();
    store.getState().ingestEvents([start(7, 0, 1), ...attempt(7, 1, 0, 'Moved'), ...attempt(7, 2, 5, 'Moved'), { t: 9, type: 'op.end', op: 7, status: 'Moved', attempts: 2, latencyMs: 9, reason: 'attemptsExhausted' }]);
    store.getState().publish();
    expect(selectInvariantRows(store.getState().snapshot.invariants).verdict).toBe('violated');
    store.getState().resetTelemetry();
    expect(store.getState().snapshot.invariants).toBeNull();
  });
});

describe('the availability invariant on the Live tab (reported by the control worker with each cluster view)', () => {
  const view = (t: number, availability?: { violations: number; examples: string[] }) => ({
    t,
    epoch: 1,
    nodes: [{ id: 0, status: 'up' as const, declaredDead: false }],
    owners: [0],
    phases: ['stable' as const],
    replicas: [[]],
    ...(availability === undefined ? {} : { availability }),
  });
  const ops: ZarisEvent[] = [start(1, 0), ...attempt(1, 1, 0, 'Ok'), { t: 2, type: 'op.end', op: 1, status: 'Ok', attempts: 1, latencyMs: 2, version: 1, reason: 'success' }];

  it('is listed as the fifth row once a view carries the report, and its verdict follows the latest report', () => {
    const store = createDashboardStore();
    const listener = createStoreListener(store);
    store.getState().ingestEvents(ops);
    store.getState().publish();
    // a view without the report (a real engine, an import): four rows, as before
    listener.onClusterView(view(3));
    expect(selectInvariantRows(store.getState().snapshot.invariants).rows.map((r) => r.name)).toEqual(['noLostAckedWrites', 'noRetriedRealAnswers', 'attemptBudgetKept', 'deadlineKept']);
    listener.onClusterView(view(4, { violations: 0, examples: [] }));
    const rows = selectInvariantRows(store.getState().snapshot.invariants);
    expect(rows.rows.map((r) => r.name)).toEqual(['noLostAckedWrites', 'noRetriedRealAnswers', 'attemptBudgetKept', 'deadlineKept', 'replicatedSegmentsAvailable']);
    expect(rows.verdict).toBe('ok');
    // an outage that lasts: the snapshot changes at once, without waiting for more events
    listener.onClusterView(view(9_000, { violations: 1, examples: ['segment 4 (awaitingPromotion) from 2000 ms for 7000 ms so far'] }));
    const bad = selectInvariantRows(store.getState().snapshot.invariants);
    expect(bad.verdict).toBe('violated');
    expect(bad.rows.find((r) => r.name === 'replicatedSegmentsAvailable')).toMatchObject({ verdict: 'violated', violations: 1 });
    expect(store.getState().snapshot.invariants?.checks.find((c) => c.name === 'replicatedSegmentsAvailable')?.detail).toMatch(/segment 4 \(awaitingPromotion\) from 2000 ms for 7000 ms so far/);
    // a new session starts clean
    store.getState().resetTelemetry();
    store.getState().ingestEvents(ops);
    store.getState().publish();
    expect(selectInvariantRows(store.getState().snapshot.invariants).rows).toHaveLength(4);
  });
});
