/**
 * The replay header's two verdicts, each labelled: at the cursor (the
 * report as of then, which counts operations already beyond their attempt
 * budget while still in flight — see `withInFlightOverBudget`) and for the
 * whole run. Pure.
 */
import type { InvariantName, InvariantReport } from '../../core/sim/invariants';
import { selectInvariantRows } from '../store/selectors';
import type { BudgetAtCursor } from './seekIndex';

export type VerdictTone = 'muted' | 'ok' | 'expected' | 'bad';

export interface VerdictLine {
  readonly tone: VerdictTone;
  readonly label: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** what a broken invariant's row says, in the user's terms */
const BROKEN: Readonly<Record<InvariantName, (n: number) => string>> = {
  noLostAckedWrites: (n) => `${plural(n, 'acknowledged write')} lost`,
  noRetriedRealAnswers: (n) => `${plural(n, 'real answer')} retried`,
  attemptBudgetKept: (n) => `${plural(n, 'operation')} beyond their attempt budget`,
  deadlineKept: (n) => `${plural(n, 'operation')} outlived their deadline`,
  replicatedSegmentsAvailable: (n) => `${plural(n, 'segment outage', 'segment outages')} longer than detection + promotion while a caught-up replica was up`,
};

function ofReport(report: InvariantReport | null, pendingLabel: string): VerdictLine & { readonly broken: readonly string[] } {
  const { verdict, rows } = selectInvariantRows(report);
  const broken = rows.filter((r) => r.verdict !== 'ok').map((r) => BROKEN[r.name](r.violations));
  switch (verdict) {
    case 'pending':
      return { tone: 'muted', label: pendingLabel, broken };
    case 'ok':
      return { tone: 'ok', label: 'invariants kept', broken };
    case 'expected':
      return { tone: 'expected', label: `violated, explained by a bug toggle: ${broken.join(', ')}`, broken };
    case 'violated':
      return { tone: 'bad', label: `VIOLATED: ${broken.join(', ')}`, broken };
  }
}

/** the verdict at the cursor: the report as of then (operations in flight beyond their budget counted), and how many of those are still in flight */
export function cursorVerdict(report: InvariantReport | null, budget: BudgetAtCursor | null): VerdictLine {
  const base = ofReport(report, 'no events yet');
  if (base.tone === 'ok') return { tone: 'ok', label: 'invariants kept so far' };
  const inFlight = budget?.overBudgetInFlight ?? 0;
  return { tone: base.tone, label: inFlight > 0 ? `${base.label} (${inFlight.toLocaleString('en-US')} of them in flight)` : base.label };
}

/** the verdict over the whole run */
export function runVerdict(report: InvariantReport | null): VerdictLine {
  const { tone, label } = ofReport(report, 'not recorded yet');
  return { tone, label };
}
