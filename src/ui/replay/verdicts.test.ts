import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { invariantReport, TALLIES, type TallyName, type TallyView } from '../../core/sim/invariants';
import { cursorVerdict, runVerdict } from './verdicts';

const tallies = (over: Partial<Record<TallyName, number>> = {}) =>
  Object.fromEntries(TALLIES.map((k) => [k, { count: over[k] ?? 0, examples: over[k] ? [1] : [] }])) as unknown as Record<TallyName, TallyView>;
const storm = { ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, deadlineReplacesAttempts: true } };

describe('replay verdicts', () => {
  it('inside the storm nothing has ended over budget yet, but operations in flight are: the cursor verdict says so', () => {
    const report = invariantReport(storm, tallies());
    expect(runVerdict(report)).toEqual({ tone: 'ok', label: 'invariants kept' });
    const v = cursorVerdict(report, { overBudgetInFlight: 1234, overBudgetEnded: 0 }, storm.bugs);
    expect(v.tone).toBe('expected');
    expect(v.label).toBe('attempt budget exceeded, explained by deadlineReplacesAttempts: 1,234 operations in flight beyond their attempt budget');
  });

  it('without the toggle the same is a violation; with nothing in flight the report speaks', () => {
    const fixed = DEFAULT_CLIENT_CONFIG;
    expect(cursorVerdict(invariantReport(fixed, tallies()), { overBudgetInFlight: 1, overBudgetEnded: 0 }, fixed.bugs).tone).toBe('bad');
    expect(cursorVerdict(invariantReport(fixed, tallies()), { overBudgetInFlight: 0, overBudgetEnded: 0 }, fixed.bugs)).toEqual({ tone: 'ok', label: 'invariants kept so far' });
    const ended = invariantReport(storm, tallies({ overBudget: 7 }));
    expect(runVerdict(ended)).toEqual({ tone: 'expected', label: 'violated, explained by a bug toggle: 7 operations ended beyond their attempt budget' });
    expect(cursorVerdict(ended, { overBudgetInFlight: 2, overBudgetEnded: 7 }, storm.bugs).label).toMatch(/2 operations in flight beyond their attempt budget · 7 operations ended beyond/);
    expect(cursorVerdict(null, null, null)).toEqual({ tone: 'muted', label: 'no events yet' });
  });
});
