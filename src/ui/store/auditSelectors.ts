/**
 * The ambiguous-write audit as the dashboard shows it: counts per case and
 * one row per listed write, with what its condition makes of it. The audit
 * itself is computed in the core (`core/sim/applyTracker.ts`); this only
 * projects it.
 */
import { safeAnswerOf, type AmbiguousCase, type WriteAuditReport } from '../../core/sim/applyTracker';

export const AMBIGUOUS_CASE_LABEL: Readonly<Record<AmbiguousCase, string>> = {
  appliedReportedFailed: 'applied, reported failed',
  appliedTwice: 'applied twice',
  ownConflict: 'Conflict from its own attempt',
};

export interface AmbiguousRow {
  readonly op: number;
  readonly label: string;
  /** e.g. `put k12 [ifMatchVersion] applied 1× → Conflict (2 attempts)` */
  readonly detail: string;
  /** how the condition turns it into a safe answer */
  readonly safe: string;
  /** the case is safe as answered (a condition caught it, or the CAS loop found its own write) */
  readonly safeAsAnswered: boolean;
}

export interface AuditView {
  /** `unknown`: the session cannot see applies (live nodes do not report them) */
  readonly state: 'unknown' | 'none' | 'some';
  readonly total: number;
  /** writes checked so far */
  readonly audited: number;
  readonly counts: readonly { readonly label: string; readonly n: number }[];
  readonly rows: readonly AmbiguousRow[];
  /** writes counted but not listed */
  readonly more: number;
}

/** the audit view of the dashboard panel (`maxRows` newest-first is not needed: the list is in order of discovery) */
export function selectAuditView(audit: WriteAuditReport | null, maxRows = 12): AuditView {
  if (audit === null) return { state: 'unknown', total: 0, audited: 0, counts: [], rows: [], more: 0 };
  const a = audit.ambiguous;
  const counts = (Object.keys(AMBIGUOUS_CASE_LABEL) as AmbiguousCase[]).map((c) => ({ label: AMBIGUOUS_CASE_LABEL[c], n: a.byCase[c] }));
  const rows = a.list.slice(0, maxRows).map(
    (w): AmbiguousRow => ({
      op: w.op,
      label: AMBIGUOUS_CASE_LABEL[w.case],
      detail: `${w.kind} ${w.key} [${w.guard}] applied ${w.applies}× → ${w.outcome} (${w.attempts} attempt${w.attempts === 1 ? '' : 's'})${w.cas === 'ownWriteFound' ? ' · CAS found its own write' : w.cas === 'incrementedAgain' ? ' · CAS incremented again' : ''}`,
      safe: safeAnswerOf(w),
      safeAsAnswered: (w.case === 'ownConflict' && w.cas !== 'incrementedAgain') || (w.case === 'appliedTwice' && w.guard === 'none' && w.kind === 'put'),
    }),
  );
  return { state: a.total === 0 ? 'none' : 'some', total: a.total, audited: a.audited, counts, rows, more: a.total - rows.length };
}
