/** What panels read: immutable snapshots published a few times per second. */
import type { InvariantReport } from '../../core/sim/invariants';
import type { FaultAction, ZarisEvent } from '../../core/telemetry/events';
import type { FaultEvidence } from '../../core/telemetry/faultEvidence';
import type { BucketWindow } from './bucketRing';
import type { Phase } from './layout';

/** one decoded event in the log, with its arrival number (stable React key) */
export interface LoggedEvent {
  readonly seq: number;
  readonly event: ZarisEvent;
}

/** a fault as a chart marker */
export interface FaultMarker {
  /** ms since the session started */
  readonly t: number;
  readonly action: FaultAction;
  readonly node: number;
  readonly segments: number;
}

/** a first Start later than this after the session began counts as a pause from 0 until then (the session's clock counts from the boot) */
export const LATE_START_MS = 50;

/** a pause of the workload (Pause … Start; or from 0 until a late first Start): nothing was sent, so its zeros are not an outage */
export interface PauseSpan {
  /** ms since the session started */
  readonly from: number;
  /** when the workload resumed (ms), or null while it is paused */
  readonly to: number | null;
}

/** the start of the pause still open (the workload is paused since then), or null */
export function openPauseFrom(pauses: readonly PauseSpan[]): number | null {
  const last = pauses[pauses.length - 1];
  return last !== undefined && last.to === null ? last.from : null;
}

/** what a pause is called on the charts: "not started" from the session's start, else "paused" */
export const pauseLabel = (p: PauseSpan): string => (p.from === 0 ? 'not started' : 'paused');

/** cumulative counters of the session (header figures) */
export interface SessionTotals {
  readonly events: number;
  readonly opsEnded: number;
  /** ops whose final outcome was Ok */
  readonly opsOk: number;
  /** ops that ended without a real answer (neither Ok, NotFound nor Conflict) */
  readonly opsFailed: number;
  readonly attempts: number;
  readonly retries: number;
  readonly refreshRequested: number;
  readonly refreshExecuted: number;
  /** most attempts any operation has started so far (updated at attempt.start, so operations still in flight count) */
  readonly maxAttemptsPerOp: number;
  /** operations that started an attempt beyond their attempt budget */
  readonly overBudgetOps: number;
  /** arrivals the application turned away (request pool full) */
  readonly rejected: number;
  /** time of the newest event, ms since the session started */
  readonly lastT: number;
}

export interface TelemetrySnapshot {
  /** increases with every publish */
  readonly version: number;
  /** ms per bucket */
  readonly bucketMs: number;
  readonly window: BucketWindow;
  /** the whole session in coarser buckets (null unless a view asked for it at publish) */
  readonly session: { readonly bucketMs: number; readonly window: BucketWindow } | null;
  /** ops in flight by phase right now */
  readonly parkedNow: Readonly<Record<Phase, number>>;
  /** ops in flight longer than the stall threshold right now */
  readonly stalledNow: number;
  /** ops in flight right now that started an attempt beyond their budget (the attempts histogram counts ops when they end) */
  readonly overBudgetInFlight: number;
  /** what each fault of the session did, oldest first (core/telemetry/faultEvidence) */
  readonly evidence: readonly FaultEvidence[];
  /** chart step in buckets a view asks for (undefined = the selectors' default) */
  readonly stepBuckets?: number;
  /** the most recent decoded events, oldest first */
  readonly events: readonly LoggedEvent[];
  readonly invariants: InvariantReport | null;
  /** segments named by fault events this session, ascending */
  readonly affectedSegments: readonly number[];
  readonly totals: SessionTotals;
}
