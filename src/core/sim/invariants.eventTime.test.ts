import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../client/config';
import type { ZarisEvent } from '../telemetry/events';
import { InvariantChecker } from './invariants';

const budgetCheck = (c: InvariantChecker) => c.report().checks.find((x) => x.name === 'attemptBudgetKept');

describe('attempt budget, judged at event time', () => {
  it('breaks when the first attempt beyond the budget starts, while the operation is still in flight, and counts it once', () => {
    const c = new InvariantChecker(() => ({ ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, deadlineReplacesAttempts: true } }));
    const start: ZarisEvent = { t: 0, type: 'op.start', op: 7, kind: 'get', key: 'k', segment: 0, deadline: 60_000, budget: 3 };
    c.emit(start);
    for (const attempt of [1, 2, 3]) c.emit({ t: attempt, type: 'attempt.start', op: 7, attempt, node: 0, epoch: 1 });
    expect(budgetCheck(c)?.violations).toBe(0);
    c.emit({ t: 4, type: 'attempt.start', op: 7, attempt: 4, node: 0, epoch: 1 });
    expect(budgetCheck(c)).toMatchObject({ ok: false, expected: true, violations: 1, examples: [7] });
    c.emit({ t: 5, type: 'attempt.start', op: 7, attempt: 5, node: 0, epoch: 1 });
    c.emit({ t: 6, type: 'op.end', op: 7, status: 'Ok', attempts: 5, latencyMs: 6, reason: 'success' });
    expect(budgetCheck(c)?.violations).toBe(1);
  });
});
