import type { NodeId } from '../domain/clusterMap';
import type { OpKind, WriteCondition } from '../domain/protocol';
import type { KvStatus, OpErrorCode, Outcome } from '../domain/status';

/**
 * The one telemetry stream (SPEC §9). The client, the cluster and the fault
 * injector emit it; the live dashboard, replay, CLI and exports consume it.
 * `t` is ms since the run started (virtual in simulation, wall time live).
 */

/** Why an operation ended (SPEC §10 checker labels). */
export const END_REASONS = ['success', 'realAnswer', 'attemptsExhausted', 'deadline', 'nonRetryable', 'waitBudget'] as const;
export type EndReason = (typeof END_REASONS)[number];

/** What asked for a map refresh: the status or error that proved routing stale, or `connect`. */
export type RefreshCause = Outcome | 'connect';

export interface OpStartEvent {
  readonly t: number;
  readonly type: 'op.start';
  readonly op: number;
  readonly kind: OpKind;
  readonly key: string;
  readonly segment: number;
  readonly cond?: WriteCondition;
  /** the virtual user (caller lane) that issued the operation, if any */
  readonly vu?: number;
  /** absolute deadline (ms since run start), null = none */
  readonly deadline?: number | null;
  /** attempt budget the client applied (1 with retries disabled) */
  readonly budget?: number;
}
export interface AttemptStartEvent {
  readonly t: number;
  readonly type: 'attempt.start';
  readonly op: number;
  readonly attempt: number;
  /** node the attempt was routed to; null when the map named no owner */
  readonly node: NodeId | null;
  /** epoch of the client's map used to route */
  readonly epoch: number;
}
export interface AttemptEndEvent {
  readonly t: number;
  readonly type: 'attempt.end';
  readonly op: number;
  readonly attempt: number;
  readonly node: NodeId | null;
  readonly status?: KvStatus;
  readonly error?: OpErrorCode;
  readonly latencyMs: number;
}
/**
 * Real engine only: inside one attempt the node answered ASK (the slot is
 * being migrated and this key already moved), so the request was repeated
 * on the named node after ASKING. Not a retry: Redis defines ASK as a
 * one-off redirection that does not change the slot's owner.
 */
export interface AttemptAskEvent {
  readonly t: number;
  readonly type: 'attempt.ask';
  readonly op: number;
  /** the node that answered ASK */
  readonly node: NodeId;
  /** the node the request was repeated on */
  readonly to: NodeId;
  readonly segment: number;
}
export interface BackoffEvent {
  readonly t: number;
  readonly type: 'backoff';
  readonly op: number;
  /** the attempt that just failed */
  readonly attempt: number;
  readonly delayMs: number;
  readonly status?: KvStatus;
  readonly error?: OpErrorCode;
}
export interface RefreshRequestEvent {
  readonly t: number;
  readonly type: 'refresh.request';
  readonly op: number | null;
  readonly cause: RefreshCause;
}
export interface RefreshCoalescedEvent {
  readonly t: number;
  readonly type: 'refresh.coalesced';
  readonly op: number | null;
  /** the in-flight refresh this caller rode */
  readonly refresh: number;
}
export interface RefreshStartEvent {
  readonly t: number;
  readonly type: 'refresh.start';
  readonly refresh: number;
  /** the caller that started it */
  readonly op: number | null;
}
export interface RefreshEndEvent {
  readonly t: number;
  readonly type: 'refresh.end';
  readonly refresh: number;
  readonly ok: boolean;
  readonly epochBefore: number;
  readonly epochAfter: number;
  /** node the map was fetched from (null when no fetch succeeded) */
  readonly node: NodeId | null;
  /** map fetches tried (one per node asked) */
  readonly fetches: number;
}
export interface RefreshDebouncedEvent {
  readonly t: number;
  readonly type: 'refresh.debounced';
  readonly refresh: number;
  readonly op: number | null;
  /** ms since the last successful refresh */
  readonly sinceLastMs: number;
}
export interface RefreshWaitAbandonedEvent {
  readonly t: number;
  readonly type: 'refresh.waitAbandoned';
  readonly op: number | null;
  readonly refresh: number;
  readonly waitedMs: number;
}
export interface OpEndEvent {
  readonly t: number;
  readonly type: 'op.end';
  readonly op: number;
  readonly status?: KvStatus;
  readonly error?: OpErrorCode;
  readonly attempts: number;
  readonly latencyMs: number;
  /** version read or written, when the answer carried one */
  readonly version?: number;
  readonly reason: EndReason;
}

/** Fault actions (SPEC §4); see `src/core/cluster/faults.ts`. */
export const FAULT_ACTIONS = ['failover', 'scaleOut', 'failback', 'hang', 'resume', 'slow', 'lostAck', 'partition', 'garble'] as const;
export type FaultAction = (typeof FAULT_ACTIONS)[number];

export interface FaultEvent {
  readonly t: number;
  readonly type: 'fault';
  readonly action: FaultAction;
  readonly node: NodeId;
  /** segments whose ownership this fault puts in motion */
  readonly segments: readonly number[];
  /** what it did, in words; a fault that did nothing says why, after {@link IGNORED_FAULT} */
  readonly detail?: string;
  /** how long the fault stays in effect, ms (a link fault, a hang with a duration); absent: until another fault ends it */
  readonly durationMs?: number;
}

/** the start of a fault event's detail when the control plane ignored the fault (node already down, …) */
export const IGNORED_FAULT = 'ignored: ';

/** why the control plane ignored this fault, or null when it took effect */
export function ignoredBecause(e: Pick<FaultEvent, 'detail'>): string | null {
  return e.detail !== undefined && e.detail.startsWith(IGNORED_FAULT) ? e.detail.slice(IGNORED_FAULT.length) : null;
}

export const TOPOLOGY_CHANGES = [
  'initial',
  'nodeDown',
  'promoted',
  'unavailable',
  'nodeJoined',
  'migrationStart',
  'migrationEnd',
  'catchUpStart',
  'catchUpEnd',
  'handoffStart',
  'handoffEnd',
  'reclaimed',
] as const;
export type TopologyChange = (typeof TOPOLOGY_CHANGES)[number];

export interface TopologyEvent {
  readonly t: number;
  readonly type: 'topology';
  readonly epoch: number;
  readonly change: TopologyChange;
  readonly node: NodeId;
  readonly segments: readonly number[];
}

export type ClientEvent =
  | OpStartEvent
  | AttemptStartEvent
  | AttemptEndEvent
  | AttemptAskEvent
  | BackoffEvent
  | RefreshRequestEvent
  | RefreshCoalescedEvent
  | RefreshStartEvent
  | RefreshEndEvent
  | RefreshDebouncedEvent
  | RefreshWaitAbandonedEvent
  | OpEndEvent;

export type ClusterEvent = FaultEvent | TopologyEvent;

/** The application turned an arrival away: its request pool (`maxInFlight`) was full (open loop only). */
export interface ArrivalRejectedEvent {
  readonly t: number;
  readonly type: 'arrival.rejected';
  /** operations the pool held at that moment */
  readonly inFlight: number;
}
export type WorkloadEvent = ArrivalRejectedEvent;
export type ZarisEvent = ClientEvent | ClusterEvent | WorkloadEvent;
export type EventType = ZarisEvent['type'];

export const EVENT_TYPES = [
  'op.start',
  'attempt.start',
  'attempt.end',
  'backoff',
  'refresh.request',
  'refresh.coalesced',
  'refresh.start',
  'refresh.end',
  'refresh.debounced',
  'refresh.waitAbandoned',
  'op.end',
  'fault',
  'topology',
  'arrival.rejected',
  'attempt.ask',
] as const satisfies readonly EventType[];

/** Where events go. With no sink attached, emitters skip building events at all. */
export interface TelemetrySink {
  emit(event: ZarisEvent): void;
}

/**
 * A sink with one method per per-operation event type (most of a run's
 * events; `emit` does the same for them and handles the rest). A fan-out
 * to several such sinks reads each event's type once and calls the
 * methods, instead of every sink switching on the type again.
 */
export interface OpEventSink extends TelemetrySink {
  /**
   * The sink reads each per-operation event during the call only and keeps
   * no reference to it (numbers and strings copied out are fine). Then the
   * producer may hand it the same object again, refilled, instead of a new
   * one per event (see {@link OpEventScratch}). Absent: it gets fresh events.
   */
  readonly transient?: boolean;
  opStart(e: OpStartEvent): void;
  attemptStart(e: AttemptStartEvent): void;
  attemptEnd(e: AttemptEndEvent): void;
  opEnd(e: OpEndEvent): void;
}

function isOpEventSink(s: TelemetrySink): s is OpEventSink {
  const o = s as Partial<OpEventSink>;
  return typeof o.opStart === 'function' && typeof o.attemptStart === 'function' && typeof o.attemptEnd === 'function' && typeof o.opEnd === 'function';
}

/** `s` itself when it takes the per-operation events by method, else an adapter that hands them to its `emit` */
export function asOpEventSink(s: TelemetrySink): OpEventSink {
  if (isOpEventSink(s)) return s;
  const emit = (e: ZarisEvent): void => s.emit(e);
  return { emit, opStart: emit, attemptStart: emit, attemptEnd: emit, opEnd: emit };
}

/** `T` with its fields writable (an event being built) */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * One reusable object per per-operation event type, for a producer whose
 * sink is {@link OpEventSink.transient}: every operation of a run emits
 * about 4.7 of these events, and an object per event is most of what the
 * garbage collector sees. Each object has every field of its type (absent
 * ones undefined) in the order a fresh event has them.
 */
export class OpEventScratch {
  readonly opStart: Mutable<OpStartEvent> = newOpStart();
  readonly attemptStart: Mutable<AttemptStartEvent> = newAttemptStart();
  readonly attemptEnd: Mutable<AttemptEndEvent> = newAttemptEnd();
  readonly opEnd: Mutable<OpEndEvent> = newOpEnd();
}

/** fresh per-operation events, all fields present (the producer fills them) */
export function newOpStart(): Mutable<OpStartEvent> {
  return { t: 0, type: 'op.start', op: 0, kind: 'get', key: '', segment: 0, deadline: null, budget: 0, cond: undefined, vu: undefined };
}
export function newAttemptStart(): Mutable<AttemptStartEvent> {
  return { t: 0, type: 'attempt.start', op: 0, attempt: 0, node: null, epoch: 0 };
}
export function newAttemptEnd(): Mutable<AttemptEndEvent> {
  return { t: 0, type: 'attempt.end', op: 0, attempt: 0, node: null, status: undefined, error: undefined, latencyMs: 0 };
}
export function newOpEnd(): Mutable<OpEndEvent> {
  return { t: 0, type: 'op.end', op: 0, status: undefined, error: undefined, attempts: 0, latencyMs: 0, reason: 'success', version: undefined };
}

/**
 * fans one stream out to several sinks, in order: each event's type is read
 * once, and the per-operation events go to the sinks' methods (see
 * {@link OpEventSink}; sinks without them get every event by `emit`)
 */
export function teeSink(sinks: readonly TelemetrySink[]): TelemetrySink {
  // Every event of a run passes here: for the usual two or three sinks, one
  // call site per sink (each sees a single sink class) instead of a loop.
  const [a, b, c] = sinks;
  if (a === undefined) return { emit: () => {} };
  if (b === undefined) return a;
  if (c === undefined) return new OpTee2(asOpEventSink(a), asOpEventSink(b));
  if (sinks.length === 3) return new OpTee3(asOpEventSink(a), asOpEventSink(b), asOpEventSink(c));
  const all = sinks.map(asOpEventSink);
  const rest = teeSink(all.slice(2)) as OpEventSink;
  return new OpTee3(all[0] as OpEventSink, all[1] as OpEventSink, rest);
}

/** a fan-out that reads each event's type once: the per-operation events by method, the rest by `others` */
abstract class OpTee implements OpEventSink {
  /** every member is transient */
  abstract readonly transient: boolean;
  abstract opStart(e: OpStartEvent): void;
  abstract attemptStart(e: AttemptStartEvent): void;
  abstract attemptEnd(e: AttemptEndEvent): void;
  abstract opEnd(e: OpEndEvent): void;
  /** any other event, to every sink */
  protected abstract others(e: ZarisEvent): void;
  emit(e: ZarisEvent): void {
    switch (e.type) {
      case 'op.start':
        return this.opStart(e);
      case 'attempt.start':
        return this.attemptStart(e);
      case 'attempt.end':
        return this.attemptEnd(e);
      case 'op.end':
        return this.opEnd(e);
      default:
        return this.others(e);
    }
  }
}

/** two sinks (itself an {@link OpEventSink}, so tees nest) */
class OpTee2 extends OpTee {
  readonly transient: boolean;
  constructor(
    private readonly a: OpEventSink,
    private readonly b: OpEventSink,
  ) {
    super();
    this.transient = a.transient === true && b.transient === true;
  }
  opStart(e: OpStartEvent): void {
    this.a.opStart(e);
    this.b.opStart(e);
  }
  attemptStart(e: AttemptStartEvent): void {
    this.a.attemptStart(e);
    this.b.attemptStart(e);
  }
  attemptEnd(e: AttemptEndEvent): void {
    this.a.attemptEnd(e);
    this.b.attemptEnd(e);
  }
  opEnd(e: OpEndEvent): void {
    this.a.opEnd(e);
    this.b.opEnd(e);
  }
  protected others(e: ZarisEvent): void {
    this.a.emit(e);
    this.b.emit(e);
  }
}

/** three sinks (unrolled: one call site per sink, each sees a single sink class) */
class OpTee3 extends OpTee {
  readonly transient: boolean;
  constructor(
    private readonly a: OpEventSink,
    private readonly b: OpEventSink,
    private readonly c: OpEventSink,
  ) {
    super();
    this.transient = a.transient === true && b.transient === true && c.transient === true;
  }
  opStart(e: OpStartEvent): void {
    this.a.opStart(e);
    this.b.opStart(e);
    this.c.opStart(e);
  }
  attemptStart(e: AttemptStartEvent): void {
    this.a.attemptStart(e);
    this.b.attemptStart(e);
    this.c.attemptStart(e);
  }
  attemptEnd(e: AttemptEndEvent): void {
    this.a.attemptEnd(e);
    this.b.attemptEnd(e);
    this.c.attemptEnd(e);
  }
  opEnd(e: OpEndEvent): void {
    this.a.opEnd(e);
    this.b.opEnd(e);
    this.c.opEnd(e);
  }
  protected others(e: ZarisEvent): void {
    this.a.emit(e);
    this.b.emit(e);
    this.c.emit(e);
  }
}
