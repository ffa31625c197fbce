/**
 * A/B comparison of two run summaries (e.g. the fixed client vs the same
 * seed with a bug toggle on): named metrics with A, B and B − A, plus the
 * invariant verdicts side by side. Pure: the caller runs the scenarios.
 */
import { BUG_TOGGLES, type BugToggles, type ClientConfig } from '../client/config';
import { maxAttemptsOfOneOp, type RunSummary } from '../sim/runScenario';
import type { Scenario } from '../sim/scenario';
import { serviceTally, type ServiceTally } from '../domain/service';

export type MetricId =
  | 'servedOps'
  | 'notServedOps'
  | 'healthyOkPerSecondInFaultWindow'
  | 'zeroHealthySeconds'
  | 'p99LatencyMs'
  | 'attemptsPerOp'
  | 'refreshRequestsPerOp'
  | 'maxAttemptsPerOp'
  | 'refreshesExecuted'
  | 'peakRefreshesExecutedPerSecond'
  | 'peakRefreshRequestsPerSecond'
  | 'opsPerSecondInFaultWindow'
  | 'timeToRecoverMs'
  | 'ambiguousWrites'
  | 'duplicateApplies'
  | 'casIncrementedAgain';

/** the table's sections, in order: what users got first, then whether their writes are what they were told */
export type MetricGroup = 'service' | 'writes' | 'amplification' | 'refresh load' | 'recovery';
export const METRIC_GROUPS: readonly MetricGroup[] = ['service', 'writes', 'amplification', 'refresh load', 'recovery'];

/** one part of a metric (e.g. not served = failed + timed out + rejected) */
export interface MetricPart {
  readonly label: string;
  readonly a: number | null;
  readonly b: number | null;
}

export interface MetricDelta {
  readonly id: MetricId;
  readonly group: MetricGroup;
  readonly label: string;
  readonly unit: string;
  /** null when the metric does not apply (no ops, no fault, never recovered) */
  readonly a: number | null;
  readonly b: number | null;
  /** b − a, null when either is null */
  readonly delta: number | null;
  /** which direction is good */
  readonly better: 'lower' | 'higher';
  /** what the figure is made of, when it is a sum */
  readonly parts?: readonly MetricPart[];
  /** a side whose figure is null because it never got there by the run's end (`byMs`): worse than any figure */
  readonly unreached?: { readonly a: boolean; readonly b: boolean; readonly byMs: number };
  /** a rate of rare events (per 1,000 writes): the events behind each side's figure, and what they are counted per */
  readonly counts?: EventCounts;
}

/** the events behind two rates: `a` of `perA` vs `b` of `perB` (e.g. 1 ambiguous write of 40,120 writes) */
export interface EventCounts {
  readonly a: number;
  readonly b: number;
  readonly perA: number;
  readonly perB: number;
}

/**
 * Two-sided p-value that rates `a / perA` and `b / perB` of rare independent events are the same
 * (the conditional binomial test of two Poisson rates: given a + b events, A's share is
 * Binomial(a + b, perA / (perA + perB)) if the rates are equal). 1 when there is nothing to tell apart.
 */
export function sameRateP(c: EventCounts): number {
  const n = c.a + c.b;
  if (n === 0 || c.perA <= 0 || c.perB <= 0) return 1;
  const p = c.perA / (c.perA + c.perB);
  // log pmf through running log factorials (n is a count of rare events: small)
  const logFact = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) logFact[i] = (logFact[i - 1] as number) + Math.log(i);
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  const logPmf = (k: number): number => (logFact[n] as number) - (logFact[k] as number) - (logFact[n - k] as number) + k * lp + (n - k) * lq;
  const observed = logPmf(c.a);
  let total = 0;
  for (let k = 0; k <= n; k++) {
    const l = logPmf(k);
    // every outcome at most as likely as the observed one (a relative tolerance for float ties)
    if (l <= observed + 1e-7) total += Math.exp(l);
  }
  return Math.min(1, total);
}

/** rates whose events are too few to tell apart: at this p-value or above, the table names no better side */
export const CHANCE_P = 0.05;

export type InvariantVerdict = 'ok' | 'expected' | 'violated';

export interface InvariantComparison {
  readonly name: string;
  readonly a: InvariantVerdict | null;
  readonly b: InvariantVerdict | null;
  readonly violationsA: number;
  readonly violationsB: number;
}

export interface FaultWindow {
  /** ms since run start */
  readonly fromMs: number;
  readonly toMs: number;
}

/** which side served its users better, and by how much */
export interface ServiceVerdict {
  /** null: both served the same, or within {@link MATERIAL_DIFFERENCE} in served and in not served ops */
  readonly better: 'a' | 'b' | null;
  /** served(better) − served(other) (below 0 only when the side is better by fewer not served, with served within 5 %) */
  readonly moreServed: number;
  /** that difference as a fraction of the other side's served ops (null: the other served none) */
  readonly moreServedFraction: number | null;
  /** notServed(other) − notServed(better) (may be negative: more served but also more refused) */
  readonly fewerNotServed: number;
  readonly a: ServiceTally;
  readonly b: ServiceTally;
}

export interface RunComparison {
  readonly metrics: readonly MetricDelta[];
  readonly invariants: readonly InvariantComparison[];
  /** the window ops/s was averaged over (null: no fault and none given) */
  readonly faultWindow: FaultWindow | null;
  readonly verdict: ServiceVerdict;
}

/** how long after the first fault the default window lasts, ms */
export const DEFAULT_FAULT_WINDOW_MS = 5000;
/** throughput counts as recovered at this fraction of the pre-fault mean */
export const RECOVERY_FRACTION = 0.9;

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);

/** the first fault's time .. + 5 s, or null when the run had no fault */
export function defaultFaultWindow(s: RunSummary): FaultWindow | null {
  const first = s.faults.reduce<number | null>((m, f) => (m === null || f.atMs < m ? f.atMs : m), null);
  return first === null ? null : { fromMs: first, toMs: first + DEFAULT_FAULT_WINDOW_MS };
}

/** mean of a per-second series over the buckets that overlap the window */
function meanIn(series: readonly number[], bucketMs: number, w: FaultWindow): number | null {
  const from = Math.max(0, Math.floor(w.fromMs / bucketMs));
  const to = Math.min(series.length, Math.ceil(w.toMs / bucketMs));
  const m = mean(series.slice(from, Math.max(from, to)));
  return m === null ? null : round3(m);
}

/** mean completed ops/s over the series buckets that overlap the window */
export function opsPerSecondIn(s: RunSummary, w: FaultWindow): number | null {
  return meanIn(s.throughput.series, s.throughput.bucketMs, w);
}

/** mean served ops/s on segments no fault touched, over the window */
export function healthyOpsPerSecondIn(s: RunSummary, w: FaultWindow): number | null {
  return meanIn(s.throughput.healthy, s.throughput.bucketMs, w);
}

/**
 * Seconds of the run in which healthy segments served nothing, counted from
 * the first second that served anything (so a slow start is not a stall).
 * Both sides of a comparison run the same schedule, so workload pauses
 * weigh the same on each.
 */
export function zeroHealthySeconds(s: RunSummary): number {
  const { bucketMs, healthy } = s.throughput;
  const first = healthy.findIndex((x) => x > 0);
  if (first < 0) return round3((healthy.length * bucketMs) / 1000);
  let zero = 0;
  for (let i = first; i < healthy.length; i++) if ((healthy[i] as number) === 0) zero++;
  return round3((zero * bucketMs) / 1000);
}

/** a run's operations by what their users got (see core/domain/service.ts) */
export function serviceOf(s: RunSummary): ServiceTally {
  return serviceTally(s.ops.endReasons, s.workload.rejected, s.ops.inFlightAtEnd);
}

/**
 * ms from the first fault to the start of the first bucket where throughput
 * is back to ≥ 90 % of the pre-fault mean after having dropped below it
 * (0 when it never dropped; null when it never recovered, there was no
 * fault, or no whole bucket before it to take the mean of).
 */
export function timeToRecoverMs(s: RunSummary, faultAtMs: number | null): number | null {
  if (faultAtMs === null) return null;
  const { bucketMs, series } = s.throughput;
  const before = mean(series.slice(0, Math.floor(faultAtMs / bucketMs)));
  if (before === null || before <= 0) return null;
  const threshold = RECOVERY_FRACTION * before;
  let dipped = false;
  for (let i = Math.floor(faultAtMs / bucketMs); i < series.length; i++) {
    if ((series[i] as number) < threshold) dipped = true;
    else if (dipped) return Math.max(0, i * bucketMs - faultAtMs);
  }
  return dipped ? null : 0;
}

/** throughput dropped below 90 % of the pre-fault mean after the fault and never came back by the run's end */
export function neverRecovered(s: RunSummary, faultAtMs: number): boolean {
  const { bucketMs, series } = s.throughput;
  const before = mean(series.slice(0, Math.floor(faultAtMs / bucketMs)));
  return before !== null && before > 0 && timeToRecoverMs(s, faultAtMs) === null;
}

const verdict = (s: RunSummary, name: string): { v: InvariantVerdict | null; n: number } => {
  const c = s.invariants.checks.find((x) => x.name === name);
  if (c === undefined) return { v: null, n: 0 };
  return { v: c.ok ? 'ok' : c.expected ? 'expected' : 'violated', n: c.violations };
};

/**
 * Differences smaller than this share of the larger value are shown but not
 * called better or worse (0.22× vs 0.23×, 10,000 vs 10,120 served): colour
 * is for what the A/B change did, and a few percent read as a win or a loss.
 */
export const MATERIAL_DIFFERENCE = 0.05;

/** which side the metric favours: 'a', 'b' or null (equal, within {@link MATERIAL_DIFFERENCE}, or not applicable) */
export function winnerOf(m: Pick<MetricDelta, 'a' | 'b' | 'better' | 'counts'>): 'a' | 'b' | null {
  if (m.a === null || m.b === null || m.a === m.b) return null;
  // 1 ambiguous write in 40,000 vs 1 in 33,000 reads 0.025 vs 0.03 per 1,000: a difference chance makes, not a win
  if (m.counts !== undefined && sameRateP(m.counts) >= CHANCE_P) return null;
  if (Math.abs(m.b - m.a) < MATERIAL_DIFFERENCE * Math.max(Math.abs(m.a), Math.abs(m.b))) return null;
  const bHigher = m.b > m.a;
  return (m.better === 'higher') === bHigher ? 'b' : 'a';
}

/**
 * The side that served its users better: more operations served; on a tie,
 * fewer not served. Generic over any two runs: it reads only the tallies.
 */
export function serviceVerdict(a: ServiceTally, b: ServiceTally): ServiceVerdict {
  // the table's rule: a difference under MATERIAL_DIFFERENCE names no side (the sentence must not praise what the table leaves uncoloured)
  const better = winnerOf({ better: 'higher', a: a.served, b: b.served }) ?? winnerOf({ better: 'lower', a: a.notServed, b: b.notServed });
  if (better === null) return { better, moreServed: 0, moreServedFraction: null, fewerNotServed: 0, a, b };
  const [w, l] = better === 'a' ? [a, b] : [b, a];
  return { better, moreServed: w.served - l.served, moreServedFraction: l.served === 0 ? null : round3((w.served - l.served) / l.served), fewerNotServed: l.notServed - w.notServed, a, b };
}

/** the named metrics of SPEC §8 / §10 for two runs, with B − A; service first */
export function compareRuns(a: RunSummary, b: RunSummary, faultWindow?: FaultWindow): RunComparison {
  const window = faultWindow ?? defaultFaultWindow(a) ?? defaultFaultWindow(b);
  const firstFault = window?.fromMs ?? null;
  const svcA = serviceOf(a);
  const svcB = serviceOf(b);
  const metric = (id: MetricId, group: MetricGroup, label: string, unit: string, better: 'lower' | 'higher', f: (s: RunSummary) => number | null, parts?: readonly MetricPart[]): MetricDelta => {
    const x = f(a);
    const y = f(b);
    return { id, group, label, unit, a: x, b: y, delta: x === null || y === null ? null : round3(y - x), better, ...(parts ? { parts } : {}) };
  };
  const svc = (s: RunSummary): ServiceTally => (s === a ? svcA : svcB);
  const perOp = (s: RunSummary, n: number): number | null => (s.ops.total === 0 ? null : round3(n / s.ops.total));
  const perKiloWrites = (s: RunSummary, n: number): number | null => (s.writes.ambiguous.audited === 0 ? null : round3((1000 * n) / s.writes.ambiguous.audited));
  // a rate of rare writes per 1,000 carries its counts, so that too few of them are not called better or worse (winnerOf)
  const perKiloWritesOf = (id: MetricId, label: string, n: (s: RunSummary) => number): MetricDelta => ({
    ...metric(id, 'writes', label, 'per 1k', 'lower', (s) => perKiloWrites(s, n(s))),
    counts: { a: n(a), b: n(b), perA: a.writes.ambiguous.audited, perB: b.writes.ambiguous.audited },
  });
  const part = (label: string, f: (t: ServiceTally) => number): MetricPart => ({ label, a: f(svcA), b: f(svcB) });
  const metrics: MetricDelta[] = [
    metric('servedOps', 'service', 'operations served (ok or a real answer)', 'ops', 'higher', (s) => svc(s).served),
    metric('notServedOps', 'service', 'operations not served', 'ops', 'lower', (s) => svc(s).notServed, [
      part('failed', (t) => t.failed),
      part('timed out', (t) => t.timedOut),
      part('turned away (pool full)', (t) => t.rejected),
    ]),
    metric('healthyOkPerSecondInFaultWindow', 'service', 'healthy-segment ops/s served in the fault window', 'ops/s', 'higher', (s) => (window === null ? null : healthyOpsPerSecondIn(s, window))),
    metric('zeroHealthySeconds', 'service', 'seconds with zero healthy-segment throughput', 's', 'lower', zeroHealthySeconds),
    metric('p99LatencyMs', 'service', 'p99 latency of ended operations', 'ms', 'lower', (s) => (s.ops.total === 0 ? null : s.latencyMs.p99)),
    // a side can serve more by retrying what it should not: these say what its writes did (the ambiguous-write audit),
    // per 1,000 writes that ended (a side that wrote less would read better by its count alone)
    perKiloWritesOf('ambiguousWrites', 'writes applied, but the caller could not know (ambiguous), per 1,000 writes', (s) => s.writes.ambiguous.total),
    perKiloWritesOf('duplicateApplies', 'extra applies of writes applied more than once, per 1,000 writes', (s) => s.writes.duplicateApplies),
    perKiloWritesOf('casIncrementedAgain', 'CAS increments applied again (a counter counted twice), per 1,000 writes', (s) => s.writes.ambiguous.casIncrementedAgain),
    metric('attemptsPerOp', 'amplification', 'attempts per operation', '×', 'lower', (s) => perOp(s, s.attempts.total)),
    metric('refreshRequestsPerOp', 'amplification', 'map refresh requests per operation', '×', 'lower', (s) => perOp(s, s.refresh.requested)),
    metric('maxAttemptsPerOp', 'amplification', 'max attempts of one operation (ended or still in flight)', 'attempts', 'lower', maxAttemptsOfOneOp),
    metric('refreshesExecuted', 'refresh load', 'map refreshes executed', 'refreshes', 'lower', (s) => s.refresh.executed),
    metric('peakRefreshesExecutedPerSecond', 'refresh load', 'peak refreshes executed per second', '/s', 'lower', (s) => s.refresh.peakExecutedPerSecond),
    metric('peakRefreshRequestsPerSecond', 'refresh load', 'peak refresh requests per second', '/s', 'lower', (s) => s.refresh.peakRequestsPerSecond),
    metric('opsPerSecondInFaultWindow', 'recovery', 'all-segment ops/s served in the fault window', 'ops/s', 'higher', (s) => (window === null ? null : opsPerSecondIn(s, window))),
    {
      ...metric('timeToRecoverMs', 'recovery', 'time to recover 90 % of pre-fault throughput', 'ms', 'lower', (s) => timeToRecoverMs(s, firstFault)),
      ...(firstFault !== null && (neverRecovered(a, firstFault) || neverRecovered(b, firstFault))
        ? { unreached: { a: neverRecovered(a, firstFault), b: neverRecovered(b, firstFault), byMs: Math.max(a.durationMs, b.durationMs) } }
        : {}),
    },
  ];
  const names = [...new Set([...a.invariants.checks, ...b.invariants.checks].map((c) => c.name))];
  const invariants = names.map((name): InvariantComparison => {
    const x = verdict(a, name);
    const y = verdict(b, name);
    return { name, a: x.v, b: y.v, violationsA: x.n, violationsB: y.n };
  });
  return { metrics, invariants, faultWindow: window, verdict: serviceVerdict(svcA, svcB) };
}

/** one second of a run at the time cursor (per-second series; null past the end) */
export interface SecondAt {
  readonly fromMs: number;
  readonly served: number;
  readonly healthy: number;
  readonly failed: number;
  readonly parked: number;
}

/** the per-second figures of the bucket holding `tMs` */
export function secondAt(s: RunSummary, tMs: number): SecondAt | null {
  const { bucketMs, series, healthy, failed } = s.throughput;
  const i = Math.min(series.length - 1, Math.max(0, Math.floor(tMs / bucketMs)));
  if (series.length === 0 || tMs < 0 || tMs > s.durationMs) return null;
  const p = s.parked;
  const parked = (p.attempt[i] ?? 0) + (p.refreshWait[i] ?? 0) + (p.backoff[i] ?? 0);
  return { fromMs: i * bucketMs, served: series[i] ?? 0, healthy: healthy[i] ?? 0, failed: failed[i] ?? 0, parked };
}

export type BugToggle = keyof BugToggles;

/** One side of a comparison. */
export interface ComparisonSide {
  readonly label: string;
  readonly client: ClientConfig;
}

/** Two client configurations that differ in one bug toggle: A off (fixed), B on. */
export interface ComparisonPair {
  readonly toggle: BugToggle;
  readonly a: ComparisonSide;
  readonly b: ComparisonSide;
}

const withToggle = (c: ClientConfig, t: BugToggle, on: boolean): ClientConfig => ({ ...c, bugs: { ...c.bugs, [t]: on } });

/** the pair for an explicit toggle: A = the scenario's client with it off, B = with it on */
export function comparisonFor(scenario: Scenario, toggle: BugToggle): ComparisonPair {
  return {
    toggle,
    a: { label: `${toggle} off (fixed)`, client: withToggle(scenario.client, toggle, false) },
    b: { label: `${toggle} on (bug)`, client: withToggle(scenario.client, toggle, true) },
  };
}

/**
 * The comparison a scenario suggests: the toggle it has on (the storm's
 * first, if several) against the same client with it off; with no toggle
 * on, the storm toggle (`deadlineReplacesAttempts`) on vs off.
 */
export function defaultComparison(scenario: Scenario): ComparisonPair {
  const on = BUG_TOGGLES.filter((t) => scenario.client.bugs[t]);
  return comparisonFor(scenario, on[0] ?? 'deadlineReplacesAttempts');
}

/** the scenario run with one side's client */
export function scenarioFor(scenario: Scenario, side: ComparisonSide): Scenario {
  return { ...scenario, client: side.client };
}
