/**
 * The delta table as text, once: the React table, the exported table and the
 * review report all print these rows and this verdict sentence, so they can
 * never say different things. Pure; generic over any comparison.
 */
import { CHANCE_P, MATERIAL_DIFFERENCE, METRIC_GROUPS, sameRateP, winnerOf, type MetricDelta, type MetricGroup, type RunComparison, type ServiceVerdict } from '../../core/replay/compare';
import { formatNumber } from '../panels/chart/format';
import type { RunSummary } from '../../core/sim/runScenario';

export type Win = 'a' | 'b' | null;

export interface DeltaPartRow {
  readonly label: string;
  readonly a: string;
  readonly b: string;
}

export interface DeltaRow {
  readonly id: MetricDelta['id'];
  readonly label: string;
  /** e.g. "higher is better" */
  readonly direction: string;
  /** the fault window a windowed metric was averaged over, e.g. "5.0–10.0 s" */
  readonly window: string | null;
  readonly a: string;
  readonly b: string;
  readonly delta: string;
  /** the better side (coloured green; the other red) */
  readonly win: Win;
  readonly rawA: number | null;
  readonly rawB: number | null;
  readonly parts: readonly DeltaPartRow[];
}

export interface DeltaSection {
  readonly group: MetricGroup;
  readonly rows: readonly DeltaRow[];
}

/** a metric value as the table prints it */
export function formatMetric(unit: string, v: number | null): string {
  if (v === null) return '—';
  if (unit === 'ms') return Math.abs(v) >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${formatNumber(v)} ms`;
  if (unit === '×') return `${v.toFixed(2)}×`;
  if (unit === 's') return `${formatNumber(v)} s`;
  return formatNumber(v);
}

/** a value rounded as {@link formatMetric} prints it where that is coarser than the 5 % rule (× to 2 decimals) */
function asPrinted(unit: string, v: number | null): number | null {
  return v === null || unit !== '×' ? v : Math.round(v * 100) / 100;
}

const WINDOWED = new Set<MetricDelta['id']>(['healthyOkPerSecondInFaultWindow', 'opsPerSecondInFaultWindow']);

const notReachedText = (byMs: number): string => `not recovered by ${formatNumber(byMs / 1000)} s`;

/** the side that got there when the other never did (null: both or neither did) */
function unreachedWinner(m: MetricDelta): 'a' | 'b' | null {
  const u = m.unreached;
  if (u === undefined || u.a === u.b) return null;
  return u.a ? (m.b !== null ? 'b' : null) : m.a !== null ? 'a' : null;
}

/** " · 1 vs 1 writes: too few to tell apart" — the events behind a rate of rare ones, and when chance explains the difference */
function countsText(m: MetricDelta): string {
  const c = m.counts;
  if (c === undefined || c.a + c.b === 0) return '';
  const events = `${exact(c.a)} vs ${exact(c.b)} writes`;
  return m.a !== m.b && sameRateP(c) >= CHANCE_P ? ` · ${events}: too few to tell apart (uncoloured)` : ` · ${events}`;
}

export function deltaSections(c: RunComparison): DeltaSection[] {
  const w = c.faultWindow;
  const row = (m: MetricDelta): DeltaRow => ({
    id: m.id,
    label: m.label,
    direction: `${m.better} is better${countsText(m)}`,
    window: WINDOWED.has(m.id) && w ? `${(w.fromMs / 1000).toFixed(1)}–${(w.toMs / 1000).toFixed(1)} s` : null,
    a: m.unreached?.a ? notReachedText(m.unreached.byMs) : formatMetric(m.unit, m.a),
    b: m.unreached?.b ? notReachedText(m.unreached.byMs) : formatMetric(m.unit, m.b),
    delta: m.delta === null ? '—' : `${m.delta > 0 ? '+' : ''}${formatMetric(m.unit, m.delta)}`,
    // judged on the values as printed: "0.22×" vs "0.23×" is not called better or worse, whatever the digits behind;
    // a side that never got there is worse than one that did
    win: unreachedWinner(m) ?? winnerOf({ better: m.better, a: asPrinted(m.unit, m.a), b: asPrinted(m.unit, m.b), ...(m.counts ? { counts: m.counts } : {}) }),
    rawA: m.a,
    rawB: m.b,
    parts: (m.parts ?? []).map((p) => ({ label: p.label, a: formatMetric(m.unit, p.a), b: formatMetric(m.unit, p.b) })),
  });
  return METRIC_GROUPS.map((group) => ({ group, rows: c.metrics.filter((m) => m.group === group).map(row) })).filter((s) => s.rows.length > 0);
}

const exact = (n: number): string => Math.round(n).toLocaleString('en-US');

/** the summary line: which side served its users better, and by how much */
export function verdictSentence(v: ServiceVerdict, labelA: string, labelB: string): string {
  if (v.better === null) {
    if (v.a.served === v.b.served && v.a.notServed === v.b.notServed) return `Both sides served users alike, to the operation: ${exact(v.a.served)} operations served, ${exact(v.a.notServed)} not served each.`;
    return `Both sides served users alike (differences under ${MATERIAL_DIFFERENCE * 100} %, left uncoloured): ${exact(v.a.served)} vs ${exact(v.b.served)} operations served, ${exact(v.a.notServed)} vs ${exact(v.b.notServed)} not served (A vs B).`;
  }
  const [w, l, wl, ll] = v.better === 'a' ? [v.a, v.b, `A (${labelA})`, `B (${labelB})`] : [v.b, v.a, `B (${labelB})`, `A (${labelA})`];
  const pct = v.moreServedFraction === null ? '' : ` (+${(v.moreServedFraction * 100).toFixed(1)} %)`;
  const servedMaterial = winnerOf({ better: 'higher', a: w.served, b: l.served }) !== null;
  const served = !servedMaterial ? `about as many operations served (within ${MATERIAL_DIFFERENCE * 100} %)` : `${exact(v.moreServed)} more operations served${pct}`;
  const notServed =
    v.fewerNotServed > 0 ? `${exact(v.fewerNotServed)} fewer not served` : v.fewerNotServed < 0 ? `though ${exact(-v.fewerNotServed)} more not served` : 'as many not served';
  // the figures in the table's order, A then B, each side named (the winner first read as "B vs A" beside columns A | B)
  return `${wl} served users better than ${ll}: ${served}, ${notServed} — A ${exact(v.a.served)} vs B ${exact(v.b.served)} served, A ${exact(v.a.notServed)} vs B ${exact(v.b.notServed)} not served.`;
}

/**
 * The two runs did the same thing, operation for operation: their summaries agree but for the
 * client configuration that names the sides. A pair whose toggle nothing in the scenario engages
 * (a storm toggle with no fault that fails an attempt) compares a run with itself.
 */
export function sameRuns(a: RunSummary, b: RunSummary): boolean {
  return JSON.stringify({ ...a, client: null }) === JSON.stringify({ ...b, client: null });
}

/** what a pair of identical runs says under the verdict */
export function sameRunsNote(toggleLabel: string): string {
  return `The two runs are identical, operation for operation: nothing in this scenario engages “${toggleLabel}”. Pick another pair, or a scenario with a fault it acts on.`;
}
