/**
 * Named pure selectors: immutable snapshots → chart rows. Time rows are
 * grouped into steps aligned to absolute bucket numbers (so rows do not
 * jitter as the window slides); a row's `t` is its step's start and the
 * chart draws it as a step to the next row (true to time: a change is never
 * drawn before the bucket it happened in), with one closing row at the end
 * of the last step. A step also begins at every break (the bucket of a
 * fault), so a fault's effect starts at its own bucket, not at the start of
 * the step around it. The bucket still filling is left out, and rates are
 * per second of the complete buckets a step holds.
 */
import { OUTCOMES, type Outcome } from '../../core/domain/status';
import { END_REASONS, type EndReason } from '../../core/telemetry/events';
import type { BucketWindow } from './bucketRing';
import { ATTEMPT_BIN_LABELS, ATTEMPT_BIN_LOW, latencyBinValue, LATENCY_BINS, METRIC_WIDTH, PHASES, REFRESH_KINDS, type Metric, type Phase, type RefreshKind } from './layout';
import type { FaultMarker, TelemetrySnapshot } from './snapshot';
import type { TimeWindow } from './telemetrySlice';

/** one chart row: `t` in seconds since the session started (its step's start), then one value per series (null = no data) */
export type TimeRow = { readonly t: number } & Readonly<Record<string, number | null>>;

/** buckets per chart step (5 × 100 ms = 500 ms → 120 rows for 60 s) */
export const DEFAULT_STEP_BUCKETS = 5;

/** how rows are cut into steps: buckets per step, and absolute bucket numbers where a step must begin */
export interface StepPlan {
  readonly stepBuckets: number;
  readonly breaks?: readonly number[];
}

/** a step count or a plan (a bare number: no breaks) */
export type Steps = number | StepPlan;

interface Step {
  /** the step's start, seconds */
  readonly t: number;
  /** window offsets of its complete buckets */
  readonly offsets: readonly number[];
}

function stepsOf(w: BucketWindow, steps: Steps, bucketMs: number): Step[] {
  const plan: StepPlan = typeof steps === 'number' ? { stepBuckets: steps } : steps;
  const stepBuckets = Math.max(1, Math.floor(plan.stepBuckets));
  const lastComplete = w.firstBucket + w.length - 2; // the head bucket is still filling
  const out: Step[] = [];
  if (w.length < 2) return out;
  const breaks = new Set(plan.breaks ?? []);
  let offsets: number[] = [];
  const close = () => {
    if (offsets.length === 0) return;
    out.push({ t: (((offsets[0] as number) + w.firstBucket) * bucketMs) / 1000, offsets });
    offsets = [];
  };
  for (let b = w.firstBucket; b <= lastComplete; b++) {
    if (b % stepBuckets === 0 || breaks.has(b)) close();
    offsets.push(b - w.firstBucket);
  }
  close();
  return out;
}

/** rows plus the closing row: the last step's values again at its end, so the last step is drawn its full width */
function closed(w: BucketWindow, bucketMs: number, rows: TimeRow[]): TimeRow[] {
  const last = rows[rows.length - 1];
  if (last === undefined) return rows;
  const end = ((w.firstBucket + w.length - 1) * bucketMs) / 1000;
  rows.push({ ...last, t: end });
  return rows;
}

function sumAt(w: BucketWindow, m: Metric, offsets: readonly number[], k: number): number {
  const width = METRIC_WIDTH[m];
  const col = w.cols[m];
  let s = 0;
  for (const o of offsets) s += col[o * width + k] as number;
  return s;
}

/**
 * Per-step rates of metric `m`. With `minSpanMs`, a step shorter than that (a fault's break
 * cuts one short) takes its rate over the trailing `minSpanMs` ending with it instead: one
 * event in a 100 ms step is not "10 per second" against a limit that holds per 500 ms.
 */
function rateRows<K extends string>(snap: TelemetrySnapshot, m: Metric, keys: readonly K[], index: (k: K) => number, steps: Steps, minSpanMs = 0, from = 0): TimeRow[] {
  const minBuckets = Math.ceil(minSpanMs / snap.bucketMs);
  const rows = stepsOf(snap.window, steps, snap.bucketMs).map((st) => {
    const active = activeStep(snap, st, from);
    const row: Record<string, number | null> = { t: active.t };
    if (active.offsets.length === 0) {
      for (const k of keys) row[k] = null;
      return row as TimeRow;
    }
    const offsets = active.offsets.length >= minBuckets ? active.offsets : trailingOffsets(active.offsets[active.offsets.length - 1] as number, minBuckets);
    const secs = (offsets.length * snap.bucketMs) / 1000;
    for (const k of keys) row[k] = sumAt(snap.window, m, offsets, index(k)) / secs;
    return row as TimeRow;
  });
  return closed(snap.window, snap.bucketMs, rows);
}

/**
 * A step's buckets from window offset `from` on, and where it is drawn from: a step the first
 * operation began in is a rate over its buckets from there, drawn from that bucket (not from the
 * step's start before it); a step wholly before `from` has no buckets (no value).
 */
function activeStep(snap: TelemetrySnapshot, st: Step, from: number): { readonly t: number; readonly offsets: readonly number[] } {
  if (from === 0) return st;
  const offsets = st.offsets.filter((o) => o >= from);
  const t = offsets.length > 0 && offsets.length < st.offsets.length ? ((snap.window.firstBucket + (offsets[0] as number)) * snap.bucketMs) / 1000 : st.t;
  return { t, offsets };
}

/** the `n` window offsets ending with `last` (fewer at the window's start) */
function trailingOffsets(last: number, n: number): number[] {
  const out: number[] = [];
  for (let o = Math.max(0, last - n + 1); o <= last; o++) out.push(o);
  return out;
}

/** the window's total of value `k` of metric `m` */
function windowTotal(w: BucketWindow, m: Metric, k: number): number {
  const width = METRIC_WIDTH[m];
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w.cols[m][i * width + k] as number;
  return s;
}

function presentOutcomes(w: BucketWindow, m: Metric): Outcome[] {
  return OUTCOMES.filter((_, i) => windowTotal(w, m, i) > 0);
}

/** x-axis domain in seconds: the last 60 s (or less, early in a session) */
export function selectTimeDomain(snap: TelemetrySnapshot): readonly [number, number] {
  const w = snap.window;
  const end = ((w.firstBucket + Math.max(1, w.length) - 1) * snap.bucketMs) / 1000;
  const start = Math.max(0, (w.firstBucket * snap.bucketMs) / 1000);
  return [start, Math.max(end, start + 1)];
}

/** operations ended per second, by final outcome (only outcomes seen in the window) */
export function selectThroughputByOutcome(snap: TelemetrySnapshot, steps: Steps = snap.stepBuckets ?? DEFAULT_STEP_BUCKETS): { rows: TimeRow[]; keys: Outcome[] } {
  const keys = presentOutcomes(snap.window, 'opsByOutcome');
  // as the served split beside it: nothing before the first operation, the step Start fell in over its active buckets
  return { rows: rateRows(snap, 'opsByOutcome', keys, (k) => OUTCOMES.indexOf(k), steps, 0, firstActiveOffset(snap.window)), keys };
}

/**
 * Operations served (ended with a real answer) per second **per segment**, on segments no fault
 * named vs segments a fault named: each rate divided by how many segments its side had in that
 * step (the `segments` gauge). Totals would mislead at the fault itself: the moment a fault names a third of the
 * segments, "healthy" loses a third of its traffic although no healthy segment served less.
 * Per segment, an unharmed healthy side stays level and a starved one drops. A side with no
 * segments in a step has no value there (none is affected before the first fault).
 */
export function selectThroughputSplit(snap: TelemetrySnapshot, steps: Steps = snap.stepBuckets ?? DEFAULT_STEP_BUCKETS): TimeRow[] {
  const w = snap.window;
  const from = firstActiveOffset(w);
  const rows = stepsOf(w, steps, snap.bucketMs).map((st) => {
    const { t, offsets } = activeStep(snap, st, from);
    const secs = (offsets.length * snap.bucketMs) / 1000;
    const last = st.offsets[st.offsets.length - 1] as number;
    const per = (k: number): number | null => {
      if (offsets.length === 0) return null;
      const segments = w.cols.segments[last * 2 + k] as number;
      return segments > 0 ? sumAt(w, 'opsBySplit', offsets, k) / secs / segments : null;
    };
    return { t, healthy: per(0), affected: per(1) };
  });
  return closed(w, snap.bucketMs, rows);
}

/**
 * Since when (ms) the window's last bucket has no healthy segment left — every segment named by a
 * fault so far, so the split's healthy line ends there for the rest of the session (the set only
 * grows until Reset) — or null while some segment is healthy, or before any fault.
 */
export function selectNoHealthySince(snap: TelemetrySnapshot): number | null {
  const w = snap.window;
  const at = (b: number, k: number) => w.cols.segments[b * 2 + k] as number;
  let b = w.length - 1;
  if (b < 0 || at(b, 0) > 0 || at(b, 1) === 0) return null;
  while (b > 0 && at(b - 1, 0) === 0 && at(b - 1, 1) > 0) b--;
  return (w.firstBucket + b) * snap.bucketMs;
}

/**
 * In a window that begins at the session's start: the first bucket in which an operation was in
 * flight or ended (the window's length if none). The buckets before it are the cluster booting
 * before Start: nothing was asked, so a rate there is no measurement (a line at 0 would read as an
 * outage). In any later window, 0.
 */
function firstActiveOffset(w: BucketWindow): number {
  if (w.firstBucket > 0) return 0;
  const O = METRIC_WIDTH.opsByOutcome;
  const P = METRIC_WIDTH.parked;
  for (let b = 0; b < w.length; b++) {
    for (let k = 0; k < P; k++) if ((w.cols.parked[b * P + k] as number) > 0) return b;
    for (let k = 0; k < O; k++) if ((w.cols.opsByOutcome[b * O + k] as number) > 0) return b;
  }
  return w.length;
}

/** attempts ended per second, by outcome (status or error) */
export function selectAttemptStatuses(snap: TelemetrySnapshot, steps: Steps = snap.stepBuckets ?? DEFAULT_STEP_BUCKETS): { rows: TimeRow[]; keys: Outcome[] } {
  const keys = presentOutcomes(snap.window, 'attemptsByOutcome');
  return { rows: rateRows(snap, 'attemptsByOutcome', keys, (k) => OUTCOMES.indexOf(k), steps), keys };
}

/** retries (attempts after the first) per second */
export function selectRetryRate(snap: TelemetrySnapshot, steps: Steps = snap.stepBuckets ?? DEFAULT_STEP_BUCKETS): TimeRow[] {
  return rateRows(snap, 'retries', ['retries'], () => 0, steps);
}

/** refresh events per second by kind */
export function selectRefreshRates(snap: TelemetrySnapshot, steps: Steps = snap.stepBuckets ?? DEFAULT_STEP_BUCKETS): TimeRow[] {
  return rateRows<RefreshKind>(snap, 'refresh', REFRESH_KINDS, (k) => REFRESH_KINDS.indexOf(k), steps);
}

/**
 * Refresh rates to hold against the debounce ceiling (1000 / `debounceMs` per second): each
 * step's rate over at least the last `debounceMs`, the span the ceiling is a limit over. A
 * step a fault cut short would otherwise read one refresh in 100 ms as 10/s above a 2/s
 * ceiling the client kept.
 */
export function selectRefreshRatesOverDebounce(snap: TelemetrySnapshot, steps: Steps, debounceMs: number): TimeRow[] {
  return rateRows<RefreshKind>(snap, 'refresh', REFRESH_KINDS, (k) => REFRESH_KINDS.indexOf(k), steps, debounceMs);
}

/** callers served per executed refresh: mean and max per step (null when none ended) */
export function selectRefreshCallers(snap: TelemetrySnapshot, steps: Steps = snap.stepBuckets ?? DEFAULT_STEP_BUCKETS): TimeRow[] {
  const w = snap.window;
  const rows = stepsOf(w, steps, snap.bucketMs).map((st) => {
    const n = sumAt(w, 'refreshCallers', st.offsets, 0);
    let max = 0;
    for (const o of st.offsets) max = Math.max(max, w.cols.refreshCallers[o * 3 + 2] as number);
    return { t: st.t, mean: n > 0 ? sumAt(w, 'refreshCallers', st.offsets, 1) / n : null, max: n > 0 ? max : null };
  });
  return closed(w, snap.bucketMs, rows);
}

/** in-flight operations by phase (the gauge at the end of each step) */
export function selectParked(snap: TelemetrySnapshot, steps: Steps = snap.stepBuckets ?? DEFAULT_STEP_BUCKETS): TimeRow[] {
  const w = snap.window;
  const rows = stepsOf(w, steps, snap.bucketMs).map((st) => {
    const last = st.offsets[st.offsets.length - 1] as number;
    const row: Record<string, number> = { t: st.t };
    PHASES.forEach((p: Phase, i) => (row[p] = w.cols.parked[last * PHASES.length + i] as number));
    return row as TimeRow;
  });
  return closed(w, snap.bucketMs, rows);
}

/** the q-quantile (0..1) of a latency histogram held in `counts`, ms; null when empty */
export function histogramQuantile(counts: ArrayLike<number>, q: number): number | null {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i] as number;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i] as number;
    if (seen >= rank) return latencyBinValue(i);
  }
  return latencyBinValue(counts.length - 1);
}

/** operation latency p50 / p95 / p99 per step, ms (from per-bucket log histograms) */
export function selectLatencyQuantiles(snap: TelemetrySnapshot, steps: Steps = snap.stepBuckets ?? DEFAULT_STEP_BUCKETS): TimeRow[] {
  const w = snap.window;
  const merged = new Float64Array(LATENCY_BINS);
  const rows = stepsOf(w, steps, snap.bucketMs).map((st) => {
    merged.fill(0);
    for (const o of st.offsets) for (let k = 0; k < LATENCY_BINS; k++) merged[k] = (merged[k] as number) + (w.cols.latency[o * LATENCY_BINS + k] as number);
    return { t: st.t, p50: histogramQuantile(merged, 0.5), p95: histogramQuantile(merged, 0.95), p99: histogramQuantile(merged, 0.99) };
  });
  return closed(w, snap.bucketMs, rows);
}

/** attempts-per-operation histogram over the window (`low` = fewest attempts in the bin) */
export function selectAttemptsPerOp(snap: TelemetrySnapshot): { bin: string; low: number; ops: number }[] {
  return ATTEMPT_BIN_LABELS.map((bin, k) => ({ bin, low: ATTEMPT_BIN_LOW[k] as number, ops: windowTotal(snap.window, 'attemptsPerOp', k) }));
}

/** backoff delays over the window by the outcome that caused them (×8 after Migrating shows in mean/max) */
export function selectBackoffByOutcome(snap: TelemetrySnapshot): { outcome: Outcome; count: number; meanMs: number; maxMs: number }[] {
  const w = snap.window;
  const width = METRIC_WIDTH.backoffMaxMs;
  return OUTCOMES.flatMap((outcome, k) => {
    const count = windowTotal(w, 'backoffCount', k);
    if (count === 0) return [];
    let maxMs = 0;
    for (let i = 0; i < w.length; i++) maxMs = Math.max(maxMs, w.cols.backoffMaxMs[i * width + k] as number);
    return [{ outcome, count, meanMs: windowTotal(w, 'backoffSumMs', k) / count, maxMs }];
  });
}

/** why operations ended, over the window */
export function selectEndReasons(snap: TelemetrySnapshot): { reason: EndReason; ops: number }[] {
  return END_REASONS.map((reason, k) => ({ reason, ops: windowTotal(snap.window, 'endReasons', k) }));
}

/** arrivals the application turned away over the window (the request pool was full: they never became operations) */
export function selectRejectedArrivals(snap: TelemetrySnapshot): number {
  return windowTotal(snap.window, 'rejected', 0);
}

/** fault markers inside the chart window, t in seconds */
export function selectFaultMarkers(markers: readonly FaultMarker[], snap: TelemetrySnapshot): (FaultMarker & { readonly sec: number })[] {
  const [start, end] = selectTimeDomain(snap);
  return markers.map((m) => ({ ...m, sec: m.t / 1000 })).filter((m) => m.sec >= start && m.sec <= end + 1);
}

/** the debounce ceiling of executed refreshes per second (null without debounce) */
export function selectDebounceCeiling(refreshDebounceMs: number, noRefreshDebounce: boolean): number | null {
  return noRefreshDebounce || refreshDebounceMs <= 0 ? null : 1000 / refreshDebounceMs;
}

/** refresh events over the whole window, by kind */
export function selectRefreshTotals(snap: TelemetrySnapshot): Record<RefreshKind, number> {
  return Object.fromEntries(REFRESH_KINDS.map((k, i) => [k, windowTotal(snap.window, 'refresh', i)])) as Record<RefreshKind, number>;
}

/** what a chart window covers, for captions ("last 60 s") */
export const WINDOW_LABEL: Readonly<Record<TimeWindow, string>> = { '15s': 'last 15 s', '60s': 'last 60 s', session: 'whole session' };
/** fine buckets the 15 s view keeps, and its chart step (2 × 100 ms) */
const SHORT_BUCKETS = 151;
const SHORT_STEP = 2;

/**
 * The snapshot as a chart window sees it: the last 15 s of the fine ring in
 * 200 ms steps, the 60 s ring as it is, or the whole session from its coarse
 * ring (one step per bucket). Selectors run on the result unchanged.
 */
export function selectWindowView(snap: TelemetrySnapshot, window: TimeWindow): TelemetrySnapshot {
  if (window === 'session') {
    if (snap.session === null) return snap;
    return { ...snap, bucketMs: snap.session.bucketMs, window: snap.session.window, stepBuckets: 1 };
  }
  if (window === '60s') return snap;
  const w = snap.window;
  const drop = Math.max(0, w.length - SHORT_BUCKETS);
  if (drop === 0) return { ...snap, stepBuckets: SHORT_STEP };
  const cols = {} as Record<Metric, Float64Array>;
  for (const m of Object.keys(w.cols) as Metric[]) cols[m] = w.cols[m].subarray(drop * METRIC_WIDTH[m]);
  return { ...snap, window: { firstBucket: w.firstBucket + drop, length: w.length - drop, cols }, stepBuckets: SHORT_STEP };
}

/**
 * nothing for a time chart to draw: fewer than 3 buckets, or no operation has
 * started an attempt yet (booting the cluster and fetching the first map fill
 * buckets before Start; charts of them would be blank axes, not "no data")
 */
export function selectNothingToDraw(view: TelemetrySnapshot): boolean {
  return view.window.length < 3 || view.totals.attempts === 0;
}

/** a chart's caption: its window and step ("last 60 s · 500 ms steps") */
export function selectWindowCaption(view: TelemetrySnapshot, window: TimeWindow, stepBuckets = view.stepBuckets ?? DEFAULT_STEP_BUCKETS): string {
  const stepMs = stepBuckets * view.bucketMs;
  return `${WINDOW_LABEL[window]} · ${stepMs >= 1000 ? `${stepMs / 1000} s` : `${stepMs} ms`} steps`;
}

/** operations that went past their attempt budget in the window, counted at the attempt.start that broke it (event time) */
export function selectOverBudgetOps(snap: TelemetrySnapshot): number {
  return windowTotal(snap.window, 'overBudget', 0);
}
