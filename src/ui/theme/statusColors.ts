/**
 * The one series config of the app (STYLE §12): every outcome, refresh kind,
 * phase, end reason and node status has ONE label and ONE colour, used by
 * every panel. Colours come from Paul Tol's colour-blind-safe "light",
 * "bright" and "muted" schemes, picked to read on the dark panel background
 * (--panel #111a2e); close hues are kept apart by lightness, and every chart
 * also names each series in its legend and tooltip.
 */
import { FAULT_KINDS } from '../../core/cluster/faults';
import type { NodeStatus, SegmentPhase } from '../../core/cluster/controlState';
import type { Outcome } from '../../core/domain/status';
import type { EndReason, FaultAction } from '../../core/telemetry/events';
import type { Phase, RefreshKind } from '../store/layout';

/** label + colour of one series */
export interface SeriesStyle {
  readonly label: string;
  readonly color: string;
}

/** every outcome (status or error) → its one label and colour */
export const OUTCOME_STYLE: Readonly<Record<Outcome, SeriesStyle>> = {
  Ok: { label: 'Ok', color: '#44BB99' },
  NotFound: { label: 'NotFound', color: '#99DDFF' },
  Conflict: { label: 'Conflict', color: '#77AADD' },
  Moved: { label: 'Moved', color: '#EEDD88' },
  OwnershipChanging: { label: 'OwnershipChanging', color: '#BBCC33' },
  ReplicaWriteRejected: { label: 'ReplicaWriteRejected', color: '#AAAA00' },
  Migrating: { label: 'Migrating', color: '#EE8866' },
  Unavailable: { label: 'Unavailable', color: '#FFAABB' },
  NodeUnavailable: { label: 'NodeUnavailable', color: '#EE6677' },
  PartitionUnavailable: { label: 'PartitionUnavailable', color: '#CC3311' },
  Transport: { label: 'Transport', color: '#AA77DD' },
  Socket: { label: 'Socket', color: '#CC99CC' },
  Timeout: { label: 'Timeout', color: '#E7A33E' },
  NonRetryable: { label: 'NonRetryable', color: '#9AA5B1' },
};

export const REFRESH_STYLE: Readonly<Record<RefreshKind, SeriesStyle>> = {
  requested: { label: 'requested', color: '#77AADD' },
  executed: { label: 'executed (map fetched)', color: '#44BB99' },
  coalesced: { label: 'coalesced (rode a running refresh)', color: '#BBCC33' },
  debounced: { label: 'debounced (< debounce since last)', color: '#9AA5B1' },
  waitAbandoned: { label: 'wait abandoned (budget spent)', color: '#EE6677' },
  failed: { label: 'failed (no map fetched)', color: '#E7A33E' },
};

export const PHASE_STYLE: Readonly<Record<Phase, SeriesStyle>> = {
  attempt: { label: 'in an attempt (on the wire)', color: '#77AADD' },
  refreshWait: { label: 'waiting for a map refresh', color: '#EE8866' },
  backoff: { label: 'sleeping in backoff', color: '#BBCC33' },
};

export const END_REASON_STYLE: Readonly<Record<EndReason, SeriesStyle>> = {
  success: { label: 'success', color: '#44BB99' },
  realAnswer: { label: 'real answer (NotFound/Conflict)', color: '#99DDFF' },
  attemptsExhausted: { label: 'attempts exhausted', color: '#EE8866' },
  deadline: { label: 'deadline passed', color: '#EE6677' },
  nonRetryable: { label: 'non-retryable', color: '#9AA5B1' },
  waitBudget: { label: 'refresh wait budget spent', color: '#E7A33E' },
};

export const NODE_STATUS_STYLE: Readonly<Record<NodeStatus, SeriesStyle>> = {
  up: { label: 'up', color: '#44BB99' },
  down: { label: 'down', color: '#EE6677' },
  joining: { label: 'joining', color: '#77AADD' },
  hung: { label: 'hung', color: '#E7A33E' },
  recovering: { label: 'recovering', color: '#BBCC33' },
};

export const SEGMENT_PHASE_STYLE: Readonly<Record<SegmentPhase, SeriesStyle>> = {
  stable: { label: 'stable', color: 'transparent' },
  migrating: { label: 'migrating', color: '#EE8866' },
  transitioning: { label: 'transitioning (handoff)', color: '#BBCC33' },
};

/** label from the fault registry, colour here */
const FAULT_COLORS: Readonly<Record<FaultAction, string>> = {
  failover: '#EE6677',
  scaleOut: '#77AADD',
  failback: '#44BB99',
  hang: '#E7A33E',
  resume: '#99DDFF',
  slow: '#CC99CC',
  lostAck: '#FFAABB',
  partition: '#AA7744',
  garble: '#BBBB55',
};
export const FAULT_STYLE: Readonly<Record<FaultAction, SeriesStyle>> = Object.fromEntries(
  FAULT_KINDS.map((k) => [k.id, { label: k.label, color: FAULT_COLORS[k.id] }]),
) as Record<FaultAction, SeriesStyle>;

/**
 * throughput split (field evidence): drawn beside the outcome chart, so neither Ok's green nor
 * NodeUnavailable's red — a neutral line for the untouched segments, magenta for the named ones
 */
export const SPLIT_STYLE = {
  healthy: { label: 'healthy segments', color: '#DDDDDD' },
  affected: { label: 'affected segments (named by a fault)', color: '#EE3377' },
} as const satisfies Record<string, SeriesStyle>;

export const LATENCY_STYLE = {
  p50: { label: 'p50', color: '#44BB99' },
  p95: { label: 'p95', color: '#EEDD88' },
  p99: { label: 'p99', color: '#EE6677' },
} as const satisfies Record<string, SeriesStyle>;

/** node identity colours (segment grid: active owner); distinct from status colours by being muted */
const NODE_PALETTE = ['#4477AA', '#228833', '#AA3377', '#CCBB44', '#66CCEE', '#EE7733', '#009988', '#BBBBBB'];
export function nodeColor(node: number): string {
  return node < 0 ? '#2a3347' : (NODE_PALETTE[node % NODE_PALETTE.length] as string);
}

/** chart chrome */
export const CHART_THEME = {
  grid: '#23304d',
  axis: '#94a3b8',
  tooltipBg: '#0f172a',
  reference: '#f8fafc',
  /** a paused span of the workload: a neutral shade (no status colour: nothing failed) */
  paused: '#94a3b8',
} as const;
