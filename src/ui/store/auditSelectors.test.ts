import { describe, expect, it } from 'vitest';
import { ApplyTracker } from '../../core/sim/applyTracker';
import type { OpStartEvent } from '../../core/telemetry/events';
import { selectAuditView } from './auditSelectors';
import { createDashboardStore, createStoreListener } from './dashboardStore';

function audit() {
  const t = new ApplyTracker();
  const start = (op: number, cond?: OpStartEvent['cond']): OpStartEvent => ({ t: 0, type: 'op.start', op, kind: 'put', key: `k${op}`, segment: 0, ...(cond ? { cond } : {}) });
  t.emit(start(1));
  t.onApply(1);
  t.emit({ t: 5, type: 'op.end', op: 1, error: 'Timeout', attempts: 1, latencyMs: 5, reason: 'attemptsExhausted' });
  t.emit(start(2, { ifMatchVersion: 3 }));
  t.onApply(2);
  t.emit({ t: 6, type: 'op.end', op: 2, status: 'Conflict', attempts: 2, latencyMs: 6, reason: 'realAnswer' });
  t.onCasConflict(2, true);
  return t.report();
}

describe('selectAuditView', () => {
  it('no audit (live session): unknown, nothing listed', () => {
    expect(selectAuditView(null)).toMatchObject({ state: 'unknown', total: 0, rows: [] });
  });

  it('rows carry op ids, what happened and the safe answer; a CAS loop that found its own write is safe as answered', () => {
    const v = selectAuditView(audit());
    expect(v.state).toBe('some');
    expect(v.counts).toEqual([
      { label: 'applied, reported failed', n: 1 },
      { label: 'applied twice', n: 0 },
      { label: 'Conflict from its own attempt', n: 1 },
    ]);
    expect(v.rows).toMatchObject([
      { op: 1, label: 'applied, reported failed', detail: 'put k1 [none] applied 1× → Timeout (1 attempt)', safeAsAnswered: false },
      { op: 2, label: 'Conflict from its own attempt', detail: expect.stringContaining('CAS found its own write'), safeAsAnswered: true },
    ]);
    expect(v.rows[1]?.safe).toMatch(/ifMatchVersion/);
    expect(selectAuditView(audit(), 1)).toMatchObject({ more: 1 });
  });

  it('reaches the store through the session listener and is cleared with the session', () => {
    const store = createDashboardStore();
    createStoreListener(store).onWriteAudit(audit());
    expect(store.getState().writeAudit?.ambiguous.total).toBe(2);
    store.getState().resetCluster();
    expect(store.getState().writeAudit).toBeNull();
  });
});
