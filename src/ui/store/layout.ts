/**
 * The shape of the windowed aggregates: bucket width, window length and the
 * metric columns each 100 ms bucket holds. One place, so the aggregator, the
 * snapshot and the selectors agree.
 */
import { SERVED_OUTCOMES } from '../../core/domain/service';
import { OUTCOMES, OUTCOME_CODE, type Outcome } from '../../core/domain/status';
import { END_REASONS } from '../../core/telemetry/events';

/** ms covered by one bucket */
export const BUCKET_MS = 100;
/** buckets kept in the ring (600 × 100 ms = 60 s window) */
export const WINDOW_BUCKETS = 600;
/** the whole-session ring: buckets kept, and the width it starts with (doubled whenever the session outgrows it) */
export const SESSION_BUCKETS = 600;
export const SESSION_BUCKET_MS = 1000;
/** decoded events kept for the event log */
export const LOG_CAPACITY = 5000;
/** fault markers kept for the charts */
export const MAX_FAULT_MARKERS = 64;

/** refresh kinds counted per bucket (SPEC §6) */
export const REFRESH_KINDS = ['requested', 'executed', 'coalesced', 'debounced', 'waitAbandoned', 'failed'] as const;
export type RefreshKind = (typeof REFRESH_KINDS)[number];

/** where an in-flight operation is parked ("where workers are parked") */
export const PHASES = ['attempt', 'refreshWait', 'backoff'] as const;
export type Phase = (typeof PHASES)[number];

/** attempts-per-op histogram: bin i holds ops with ATTEMPT_BIN_LOW[i] ≤ attempts < next low */
export const ATTEMPT_BIN_LOW = [1, 2, 3, 4, 5, 6, 8, 12, 16, 32, 64] as const;
export const ATTEMPT_BIN_LABELS = ['1', '2', '3', '4', '5', '6–7', '8–11', '12–15', '16–31', '32–63', '≥64'] as const;
export function attemptBin(attempts: number): number {
  let i = 0;
  while (i + 1 < ATTEMPT_BIN_LOW.length && attempts >= (ATTEMPT_BIN_LOW[i + 1] as number)) i++;
  return i;
}

/** latency histogram: bin 0 < 0.1 ms, bin k ≥ 1 holds [0.1·2^((k-1)/4), 0.1·2^(k/4)) ms, last bin open */
export const LATENCY_BINS = 88;
const LAT_BASE_MS = 0.1;
const LAT_PER_OCTAVE = 4;
export function latencyBin(ms: number): number {
  if (!(ms >= LAT_BASE_MS)) return 0;
  return Math.min(LATENCY_BINS - 1, 1 + Math.floor(Math.log2(ms / LAT_BASE_MS) * LAT_PER_OCTAVE));
}
/** representative value of a latency bin, ms (geometric middle) */
export function latencyBinValue(bin: number): number {
  if (bin <= 0) return LAT_BASE_MS / 2;
  return LAT_BASE_MS * Math.pow(2, (bin - 0.5) / LAT_PER_OCTAVE);
}

/** final outcomes that are real answers (the op was served): `SERVED_OUTCOMES` of core/domain/service */
export const ANSWERED_OUTCOMES: readonly Outcome[] = SERVED_OUTCOMES;
/** their outcome codes */
export const ANSWERED_CODES: ReadonlySet<number> = new Set(ANSWERED_OUTCOMES.map((o) => OUTCOME_CODE[o]));

const O = OUTCOMES.length;

/** metric column → values per bucket */
export const METRIC_WIDTH = {
  /** op.end by final outcome */
  opsByOutcome: O,
  /** op.end with a real answer (served), split [healthy segment, affected segment] */
  opsBySplit: 2,
  /** attempt.end by outcome */
  attemptsByOutcome: O,
  /** attempts after the first (attempt.start with attempt > 1) */
  retries: 1,
  /** backoff by the outcome that caused it: count, sum of ms, max ms */
  backoffCount: O,
  backoffSumMs: O,
  backoffMaxMs: O,
  /** op.end attempts, binned by ATTEMPT_BIN_LOW */
  attemptsPerOp: ATTEMPT_BIN_LOW.length,
  /** op.end by END_REASONS */
  endReasons: END_REASONS.length,
  /** refresh events by REFRESH_KINDS */
  refresh: REFRESH_KINDS.length,
  /** executed refreshes that ended: [count, callers sum, callers max] */
  refreshCallers: 3,
  /** op latency histogram (LATENCY_BINS) */
  latency: LATENCY_BINS,
  /** ops in flight by PHASES (a gauge: the value at the bucket's last event, carried forward) */
  parked: PHASES.length,
  /** ops in flight longer than the stall threshold (a gauge, like parked) */
  stalled: 1,
  /** segments [no fault named, a fault named] (a gauge, like parked): what the split's per-segment rates divide by */
  segments: 2,
  /** arrivals the application turned away (request pool full) */
  rejected: 1,
  /** ops that started an attempt beyond their attempt budget (counted at that attempt.start) */
  overBudget: 1,
} as const;
export type Metric = keyof typeof METRIC_WIDTH;
export const METRICS = Object.keys(METRIC_WIDTH) as Metric[];
/** metrics that are gauges (carried into new buckets) rather than counters */
export const GAUGE_METRICS: readonly Metric[] = ['parked', 'stalled', 'segments'];
/** values merged by max when buckets are combined (the rest are summed, gauges take the later bucket) */
export const MAX_VALUES: Readonly<Partial<Record<Metric, readonly number[]>>> = {
  backoffMaxMs: OUTCOMES.map((_, i) => i),
  refreshCallers: [2],
};
