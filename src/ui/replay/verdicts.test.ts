import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { invariantReport, TALLIES, type TallyName, type TallyView } from '../../core/sim/invariants';
import { withInFlightOverBudget } from './seekIndex';
import { cursorVerdict, runVerdict } from './verdicts';

const tallies = (over: Partial<Record<TallyName, number>> = {}) =>
  Object.fromEntries(TALLIES.map((k) => [k, { count: over[k] ?? 0, examples: over[k] ? [1] : [] }])) as unknown as Record<TallyName, TallyView>;
const storm = { ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, deadlineReplacesAttempts: true } };

describe('replay verdicts', () => {
  it('inside the storm the operations over budget are still in flight: the checker counts them at the attempt that broke the budget, the cursor verdict says how many are in flight', () => {
    const budget = { overBudgetInFlight: 1234, overBudgetEnded: 0 };
    const report = withInFlightOverBudget(invariantReport(storm, tallies({ overBudget: 1234 })), budget, storm);
    expect(report.checks.find((c) => c.name === 'attemptBudgetKept')).toMatchObject({ ok: false, expected: true, violations: 1234 });
    expect(cursorVerdict(report, budget)).toEqual({ tone: 'expected', label: 'violated, explained by a bug toggle: 1,234 operations beyond their attempt budget (1,234 of them in flight)' });
    expect(runVerdict(invariantReport(storm, tallies({ overBudget: 7 })))).toEqual({ tone: 'expected', label: 'violated, explained by a bug toggle: 7 operations beyond their attempt budget' });
  });

  it('without the toggle the same is a violation; with nothing in flight the report speaks', () => {
    const fixed = DEFAULT_CLIENT_CONFIG;
    const one = { overBudgetInFlight: 1, overBudgetEnded: 0 };
    expect(cursorVerdict(withInFlightOverBudget(invariantReport(fixed, tallies({ overBudget: 1 })), one, fixed), one)).toEqual({ tone: 'bad', label: 'VIOLATED: 1 operation beyond their attempt budget (1 of them in flight)' });
    const none = { overBudgetInFlight: 0, overBudgetEnded: 0 };
    expect(cursorVerdict(withInFlightOverBudget(invariantReport(fixed, tallies()), none, fixed), none)).toEqual({ tone: 'ok', label: 'invariants kept so far' });
    expect(cursorVerdict(null, null)).toEqual({ tone: 'muted', label: 'no events yet' });
    expect(runVerdict(null)).toEqual({ tone: 'muted', label: 'not recorded yet' });
  });
});
