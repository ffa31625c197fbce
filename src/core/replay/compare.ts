/**
 * A/B comparison of two run summaries (e.g. the fixed client vs the same
 * seed with a bug toggle on): named metrics with A, B and B − A, plus the
 * invariant verdicts side by side. Pure: the caller runs the scenarios.
 */
import { BUG_TOGGLES, type BugToggles, type ClientConfig } from '../client/config';
import type { RunSummary } from '../sim/runScenario';
import type { Scenario } from '../sim/scenario';

export type MetricId =
  | 'attemptsPerOp'
  | 'maxAttemptsPerOp'
  | 'refreshesExecuted'
  | 'peakRefreshRequestsPerSecond'
  | 'peakRefreshesExecutedPerSecond'
  | 'opsPerSecondInFaultWindow'
  | 'timeToRecoverMs'
  | 'failedOps';

export interface MetricDelta {
  readonly id: MetricId;
  readonly label: string;
  readonly unit: string;
  /** null when the metric does not apply (no ops, no fault, never recovered) */
  readonly a: number | null;
  readonly b: number | null;
  /** b − a, null when either is null */
  readonly delta: number | null;
  /** which direction is good */
  readonly better: 'lower' | 'higher';
}

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

export interface RunComparison {
  readonly metrics: readonly MetricDelta[];
  readonly invariants: readonly InvariantComparison[];
  /** the window ops/s was averaged over (null: no fault and none given) */
  readonly faultWindow: FaultWindow | null;
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

/** mean completed ops/s over the series buckets that overlap the window */
export function opsPerSecondIn(s: RunSummary, w: FaultWindow): number | null {
  const { bucketMs, series } = s.throughput;
  const from = Math.max(0, Math.floor(w.fromMs / bucketMs));
  const to = Math.min(series.length, Math.ceil(w.toMs / bucketMs));
  const m = mean(series.slice(from, Math.max(from, to)));
  return m === null ? null : round3(m);
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

const verdict = (s: RunSummary, name: string): { v: InvariantVerdict | null; n: number } => {
  const c = s.invariants.checks.find((x) => x.name === name);
  if (c === undefined) return { v: null, n: 0 };
  return { v: c.ok ? 'ok' : c.expected ? 'expected' : 'violated', n: c.violations };
};

/** the named metrics of SPEC §8 / §10 for two runs, with B − A */
export function compareRuns(a: RunSummary, b: RunSummary, faultWindow?: FaultWindow): RunComparison {
  const window = faultWindow ?? defaultFaultWindow(a) ?? defaultFaultWindow(b);
  const firstFault = window?.fromMs ?? null;
  const metric = (id: MetricId, label: string, unit: string, better: 'lower' | 'higher', f: (s: RunSummary) => number | null): MetricDelta => {
    const x = f(a);
    const y = f(b);
    return { id, label, unit, a: x, b: y, delta: x === null || y === null ? null : round3(y - x), better };
  };
  const metrics: MetricDelta[] = [
    metric('attemptsPerOp', 'attempts per operation (amplification)', '×', 'lower', (s) => (s.ops.total === 0 ? null : round3(s.attempts.total / s.ops.total))),
    metric('maxAttemptsPerOp', 'max attempts of one operation', 'attempts', 'lower', (s) => s.attempts.maxPerOp),
    metric('refreshesExecuted', 'map refreshes executed', 'refreshes', 'lower', (s) => s.refresh.executed),
    metric('peakRefreshRequestsPerSecond', 'peak refresh requests per second', '/s', 'lower', (s) => s.refresh.peakRequestsPerSecond),
    metric('peakRefreshesExecutedPerSecond', 'peak refreshes executed per second', '/s', 'lower', (s) => s.refresh.peakExecutedPerSecond),
    metric('opsPerSecondInFaultWindow', 'ops/s during the fault window', 'ops/s', 'higher', (s) => (window === null ? null : opsPerSecondIn(s, window))),
    metric('timeToRecoverMs', 'time to recover 90 % of pre-fault throughput', 'ms', 'lower', (s) => timeToRecoverMs(s, firstFault)),
    metric('failedOps', 'failed operations', 'ops', 'lower', (s) => s.ops.failed),
  ];
  const names = [...new Set([...a.invariants.checks, ...b.invariants.checks].map((c) => c.name))];
  const invariants = names.map((name): InvariantComparison => {
    const x = verdict(a, name);
    const y = verdict(b, name);
    return { name, a: x.v, b: y.v, violationsA: x.n, violationsB: y.n };
  });
  return { metrics, invariants, faultWindow: window };
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
