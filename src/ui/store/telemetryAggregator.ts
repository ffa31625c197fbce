/**
 * Folds the columnar event stream into the windowed aggregates, the event
 * log ring and the invariant monitor. Everything it holds is bounded: the
 * bucket ring and the log ring by capacity, the trackers by what is in
 * flight, the invariant checker by in-flight ops and the key count.
 */
import type { ClientConfig } from '../../core/client/config';
import { isServed } from '../../core/domain/service';
import { OUTCOMES, OUTCOME_CODE } from '../../core/domain/status';
import { InvariantChecker, type InvariantReport, type ViolationListener } from '../../core/sim/invariants';
import { decodeEvent, EventBatchBuilder, type EventBatch } from '../../core/telemetry/eventCodec';
import { EVENT_TYPES, type EventType, type FaultEvent, type TopologyEvent, type ZarisEvent } from '../../core/telemetry/events';
import { FaultEvidenceTracker, type FaultEvidenceState } from '../../core/telemetry/faultEvidence';
import { BucketRing } from './bucketRing';
import { ANSWERED_CODES, attemptBin, BUCKET_MS, latencyBin, LOG_CAPACITY, MAX_FAULT_MARKERS, PHASES, REFRESH_KINDS, SESSION_BUCKETS, SESSION_BUCKET_MS, WINDOW_BUCKETS, type RefreshKind } from './layout';
import { OpTracker, type OpTrackerState } from './opTracker';
import { Ring } from './ring';
import { SessionRing } from './sessionRing';
import { LATE_START_MS, type FaultMarker, type LoggedEvent, type PauseSpan, type SessionTotals, type TelemetrySnapshot } from './snapshot';

const T = Object.fromEntries(EVENT_TYPES.map((t, i) => [t, i])) as Record<EventType, number>;
const R = Object.fromEntries(REFRESH_KINDS.map((k, i) => [k, i])) as Record<RefreshKind, number>;
/** type code → 1 if the invariant checker reads it (the rest it ignores) */
const CHECKED = new Uint8Array(EVENT_TYPES.length);
for (const t of ['op.start', 'attempt.start', 'attempt.end', 'backoff', 'refresh.request', 'op.end'] as const) CHECKED[T[t]] = 1;
/** outcome code → 1 when it is a real answer (served) */
const SERVED_CODE = Uint8Array.from(OUTCOMES, (o) => (isServed(o) ? 1 : 0));
/** a stream whose time jumps back by more than this started a new session */
const RESTART_JUMP_MS = 10_000;
/** recent faults whose segment counts are kept by bucket (see segmentSteps) */
const MAX_SEGMENT_STEPS = 16;
/** pauses kept for the charts (oldest dropped first) */
const MAX_PAUSES = 64;

/** what one fault added: the segments it newly named affected, and how many segments it made known */
interface SegmentStep {
  readonly bucket: number;
  readonly added: readonly number[];
  readonly known: number;
}

type MutableTotals = { -readonly [K in keyof SessionTotals]: SessionTotals[K] };
const zeroTotals = (): MutableTotals => ({
  events: 0, opsEnded: 0, opsOk: 0, opsFailed: 0, attempts: 0, retries: 0,
  refreshRequested: 0, refreshExecuted: 0, maxAttemptsPerOp: 0, overBudgetOps: 0, rejected: 0, lastT: 0,
});

/** how an aggregator is built (the defaults are the dashboard's) */
export interface AggregatorOptions {
  /** buckets the ring keeps (default WINDOW_BUCKETS; a replay index keeps the whole run) */
  readonly buckets?: number;
  /** run the invariant checker (default true; a replay seek reads the verdict from its index instead) */
  readonly checkInvariants?: boolean;
  /** told of every violation the checker finds */
  readonly onViolation?: ViolationListener;
  /** keep the event log (default true; a replay seek sets it from its tape) */
  readonly keepLog?: boolean;
}

/**
 * The state a fold can resume from at a bucket boundary, small enough to keep
 * hundreds: the bucket columns themselves are not in it (a replay index keeps
 * the whole run's buckets once), nor the event log (re-read from the tape).
 */
export interface AggregatorCheckpoint {
  /** events folded before it */
  readonly index: number;
  /** the ring's newest bucket then (-1 = none yet) */
  readonly head: number;
  readonly tracker: OpTrackerState;
  readonly totals: SessionTotals;
  readonly affected: readonly number[];
  readonly known: readonly number[];
  readonly faults: readonly FaultMarker[];
  readonly pauses: readonly PauseSpan[];
  readonly evidence: FaultEvidenceState;
  /** the bucket the evidence has yet to sample (-1: none) and its last event's time */
  readonly gaugeBucket: number;
  readonly gaugeT: number;
}

export class TelemetryAggregator {
  readonly ring: BucketRing;
  /** the whole session, coarser (folded from `ring` one complete bucket at a time) */
  readonly session = new SessionRing(SESSION_BUCKETS, SESSION_BUCKET_MS);
  private readonly tracker = new OpTracker();
  private readonly evidence = new FaultEvidenceTracker();
  /** the bucket whose final gauges the evidence has not sampled yet (-1: none), and its last event's time */
  private gaugeBucket = -1;
  private gaugeT = 0;
  private readonly log = new Ring<LoggedEvent>(LOG_CAPACITY);
  private readonly affected = new Set<number>();
  /** the segments the cluster has (its `initial` topology events) and any a fault named */
  private readonly known = new Set<number>();
  /** `known` as a list, shared by every checkpoint until it grows (a Redis Cluster has 16,384 slots) */
  private knownList: readonly number[] | null = null;
  /**
   * What each recent fault added to `affected` and `known`, by the fault's bucket (oldest first): the
   * live streams (client worker, control worker) arrive in batches of their own, so a bucket's gauges
   * may be written after a later fault was folded in; they are written as of the bucket's time.
   */
  private segmentSteps: SegmentStep[] = [];
  private checker: InvariantChecker;
  private readonly totals = zeroTotals();
  private publishes = 0;
  /** fault markers, oldest first (replaced, never mutated, when a fault arrives) */
  faults: readonly FaultMarker[] = [];
  /** the workload's pauses, oldest first (replaced, never mutated, on Pause and on Start after it) */
  pauses: readonly PauseSpan[] = [];
  /** noteWorkload has seen a Start */
  private workloadStarted = false;

  private readonly checking: boolean;

  constructor(
    private readonly config: () => ClientConfig,
    private readonly options: AggregatorOptions = {},
  ) {
    this.ring = new BucketRing(options.buckets ?? WINDOW_BUCKETS);
    this.checking = options.checkInvariants ?? true;
    this.checker = new InvariantChecker(config, options.onViolation);
  }

  /**
   * The availability rule's latest report from the live control worker (it
   * holds the cluster's truth); the invariants list it from the next snapshot
   * on. Returns whether it changed.
   */
  reportAvailability(report: { readonly violations: number; readonly examples: readonly string[] }): boolean {
    return this.checker.reportAvailability(report);
  }

  /**
   * The workload stopped (`running` false: Pause) or sent again (Start after a pause) at session
   * time `t` (default: the newest event's). The charts shade the pause; the fault evidence leaves
   * it out. `firstStartIsLate`: a live session's first Start after its boot counts as a pause from
   * 0 (a recorded schedule says so itself: a replay passes false). Returns whether the pauses changed.
   */
  noteWorkload(running: boolean, t: number = this.totals.lastT, firstStartIsLate = true): boolean {
    const last = this.pauses[this.pauses.length - 1];
    const open = last !== undefined && last.to === null;
    const first = running && !this.workloadStarted;
    if (running) this.workloadStarted = true;
    // the first Start, after the session's boot: nothing was sent before it (as a recording's schedule says)
    if (firstStartIsLate && first && last === undefined && t > LATE_START_MS) {
      this.pauses = [{ from: 0, to: t }];
      this.evidence.pause(0);
      this.evidence.resume(t);
      return true;
    }
    if (running === !open) return false;
    if (running) {
      const to = Math.max((last as PauseSpan).from, t);
      this.pauses = [...this.pauses.slice(0, -1), { from: (last as PauseSpan).from, to }];
      this.evidence.resume(to);
    } else {
      const from = Math.max(t, last?.to ?? 0);
      this.pauses = [...this.pauses.slice(-(MAX_PAUSES - 1)), { from, to: null }];
      this.evidence.pause(from);
    }
    return true;
  }

  /** events folded in so far this session */
  get events(): number {
    return this.totals.events;
  }

  reset(): void {
    this.ring.clear();
    this.session.clear();
    this.tracker.clear();
    this.evidence.clear();
    this.gaugeBucket = -1;
    this.gaugeT = 0;
    this.log.clear();
    this.affected.clear();
    this.known.clear();
    this.knownList = null;
    this.segmentSteps = [];
    this.checker = new InvariantChecker(this.config, this.options.onViolation);
    Object.assign(this.totals, zeroTotals());
    this.faults = [];
    this.pauses = [];
    this.workloadStarted = false;
  }

  /** where the fold stands (call between batches, at a bucket boundary) */
  checkpoint(): AggregatorCheckpoint {
    return { index: this.totals.events, head: this.ring.head, tracker: this.tracker.save(), totals: { ...this.totals }, affected: [...this.affected], known: (this.knownList ??= [...this.known]), faults: this.faults, pauses: this.pauses, evidence: this.evidence.save(), gaugeBucket: this.gaugeBucket, gaugeT: this.gaugeT };
  }

  /**
   * Resumes from `cp`: the ring's buckets up to `cp.head` are copied from
   * `buckets` (a ring that holds the whole run). The invariant checker is
   * not restored: an aggregator that resumes runs without one. Nor is the
   * whole-session ring, which only the live view reads: it is cleared.
   */
  restore(cp: AggregatorCheckpoint, buckets: BucketRing): void {
    if (this.checking) throw new Error('TelemetryAggregator.restore: only without the invariant checker');
    this.ring.loadWindow(buckets, cp.head);
    this.session.clear();
    this.evidence.load(cp.evidence);
    this.gaugeBucket = cp.gaugeBucket;
    this.gaugeT = cp.gaugeT;
    this.tracker.load(cp.tracker);
    this.affected.clear();
    for (const s of cp.affected) this.affected.add(s);
    this.known.clear();
    for (const s of cp.known) this.known.add(s);
    this.knownList = cp.known;
    // a recorded run is one stream in time order: no bucket is written after a later fault
    this.segmentSteps = [];
    Object.assign(this.totals, cp.totals);
    this.faults = cp.faults;
    this.pauses = cp.pauses;
  }

  /** replaces the event log (the most recent events, oldest first) */
  setLog(log: readonly LoggedEvent[]): void {
    this.log.clear();
    for (const e of log) this.log.push(e);
  }

  /** test helper path: encodes with the real codec, then folds */
  ingestEvents(events: readonly ZarisEvent[]): void {
    const b = new EventBatchBuilder(Math.max(16, events.length));
    for (const e of events) b.push(e);
    this.ingestBatch(b.take());
  }

  ingestBatch(b: EventBatch): void {
    const ring = this.ring;
    const tr = this.tracker;
    const tot = this.totals;
    const logFrom = this.options.keepLog === false ? b.n : b.n - LOG_CAPACITY;
    // The parked gauge of a bucket is the in-flight count after its last event: it is written
    // when the stream moves to another bucket (before the ring may advance and carry it forward)
    // and at the end of the batch, rather than after every event.
    let parkedSlot = -1;
    let parkedBucket = -1;
    let parkedT = 0;
    for (let i = 0; i < b.n; i++) {
      const t = b.t[i] as number;
      if (ring.head >= 0 && t < ring.head * BUCKET_MS - RESTART_JUMP_MS) {
        parkedSlot = -1;
        this.reset();
      }
      const bucket = Math.floor(t / BUCKET_MS);
      if (parkedSlot >= 0 && bucket !== parkedBucket) {
        this.writeParked(parkedSlot, parkedT);
        parkedSlot = -1;
      }
      // the evidence's gauge peaks sample each bucket's final state, once it is known (the stream
      // moved on), so they do not depend on where the stream was cut into batches
      if (this.gaugeBucket >= 0 && bucket !== this.gaugeBucket) {
        this.evidence.gauges(this.gaugeT, tr.openOps, tr.stalled(this.gaugeT));
        this.gaugeBucket = -1;
      }
      // the head bucket is complete once the stream moves past it: fold it into the session ring
      if (bucket > ring.head && ring.head >= 0) this.session.fold(ring.head * BUCKET_MS, ring.cols, ring.head % ring.capacity);
      const slot = ring.slot(bucket);
      const type = b.type[i] as number;
      const op = b.op[i] as number;
      const A = b.a[i] as number;
      const C = b.c[i] as number;
      const D = b.d[i] as number;
      tot.events++;
      if (t > tot.lastT) tot.lastT = t;
      const ok = slot >= 0;
      switch (type) {
        case T['op.start']:
          tr.start(op, A, t, b.e[i] as number);
          // (a stream without an initial topology event still learns its segments)
          this.learnSegment(A);
          break;
        case T['attempt.start']: {
          // counted when the attempt starts (event time), not when its operation ends
          tot.attempts++;
          if (A > tot.maxAttemptsPerOp) tot.maxAttemptsPerOp = A;
          if (A > 1) {
            tot.retries++;
            if (ok) ring.add('retries', slot, 0);
          }
          const budget = tr.budget(op);
          const over = budget > 0 && A === budget + 1;
          if (over) {
            tot.overBudgetOps++;
            if (ok) ring.add('overBudget', slot, 0);
            tr.markOverBudget(op);
          }
          this.evidence.attemptStart(t, op, A, over);
          tr.phase(op, 'attempt');
          break;
        }
        case T['attempt.end']:
          if (ok) ring.add('attemptsByOutcome', slot, D);
          this.evidence.attemptEnd(t, op, SERVED_CODE[D] === 1);
          break;
        case T.backoff:
          if (ok) {
            ring.add('backoffCount', slot, D);
            ring.add('backoffSumMs', slot, D, C);
            ring.max('backoffMaxMs', slot, D, C);
          }
          tr.phase(op, 'backoff');
          break;
        case T['refresh.request']:
          tot.refreshRequested++;
          if (ok) ring.add('refresh', slot, R.requested);
          this.evidence.refreshRequest(t, op);
          if (op >= 0) tr.phase(op, 'refreshWait');
          break;
        case T['refresh.coalesced']:
          if (ok) ring.add('refresh', slot, R.coalesced);
          tr.refreshRidden(A);
          break;
        case T['refresh.start']:
          tot.refreshExecuted++;
          if (ok) ring.add('refresh', slot, R.executed);
          tr.refreshStarted(A);
          break;
        case T['refresh.end']: {
          const callers = tr.refreshEnded(A);
          if (!ok) break;
          if (D !== 1) ring.add('refresh', slot, R.failed);
          ring.add('refreshCallers', slot, 0);
          ring.add('refreshCallers', slot, 1, callers);
          ring.max('refreshCallers', slot, 2, callers);
          break;
        }
        case T['refresh.debounced']:
          if (ok) ring.add('refresh', slot, R.debounced);
          break;
        case T['refresh.waitAbandoned']:
          if (ok) ring.add('refresh', slot, R.waitAbandoned);
          break;
        case T['op.end']:
          this.opEnd(slot, t, op, A, C, D, b.e[i] as number);
          break;
        case T.fault:
          this.fault(decodeEvent(b, i) as FaultEvent);
          break;
        case T.topology: {
          const e = decodeEvent(b, i) as TopologyEvent;
          if (e.change === 'initial') for (const s of e.segments) this.learnSegment(s);
          break;
        }
        case T['arrival.rejected']:
          tot.rejected++;
          if (ok) ring.add('rejected', slot, 0);
          this.evidence.arrivalRejected(t);
          break;
      }
      if (ok) {
        parkedSlot = slot;
        parkedBucket = bucket;
        parkedT = t;
        this.gaugeBucket = bucket;
        this.gaugeT = t;
      }
      const logIt = i >= logFrom;
      const checked = this.checking && CHECKED[type] === 1;
      if (logIt || checked) {
        const e = decodeEvent(b, i);
        if (checked) this.checker.emit(e);
        // seq = the event's number in the session: the same whichever way the stream was cut into batches
        if (logIt) this.log.push({ seq: tot.events - 1, event: e });
      }
    }
    if (parkedSlot >= 0) this.writeParked(parkedSlot, parkedT);
  }

  /** the gauges of a bucket: in flight by phase and stalled, as of its last event at `t` */
  private writeParked(slot: number, t: number): void {
    const parked = this.tracker.parked;
    for (let p = 0; p < PHASES.length; p++) this.ring.put('parked', slot, p, parked[p] as number);
    this.ring.put('stalled', slot, 0, this.tracker.stalled(t));
    // as of the bucket's time: less what faults of later buckets added (folded in first, from another stream)
    let affected = this.affected.size;
    let known = this.known.size;
    for (let i = this.firstStepAfter(t); i < this.segmentSteps.length; i++) {
      const step = this.segmentSteps[i] as SegmentStep;
      affected -= step.added.length;
      known -= step.known;
    }
    this.ring.put('segments', slot, 0, known - affected);
    this.ring.put('segments', slot, 1, affected);
  }

  private opEnd(slot: number, t: number, op: number, attempts: number, latencyMs: number, outcome: number, reason: number): void {
    const tot = this.totals;
    const segment = this.tracker.end(op);
    const healthy = !this.affectedAt(segment, t);
    tot.opsEnded++;
    if (outcome === OUTCOME_CODE.Ok) tot.opsOk++;
    if (!ANSWERED_CODES.has(outcome)) tot.opsFailed++;
    if (attempts > tot.maxAttemptsPerOp) tot.maxAttemptsPerOp = attempts;
    this.evidence.opEnd(t, op, SERVED_CODE[outcome] === 1, healthy, latencyMs);
    if (slot < 0) return;
    const ring = this.ring;
    ring.add('opsByOutcome', slot, outcome);
    // served only (a real answer), as the run summary's split: a failing affected segment must not read as throughput
    if (ANSWERED_CODES.has(outcome)) ring.add('opsBySplit', slot, healthy ? 0 : 1);
    ring.add('attemptsPerOp', slot, attemptBin(attempts));
    if (reason >= 0) ring.add('endReasons', slot, reason);
    ring.add('latency', slot, latencyBin(latencyMs));
  }

  private learnSegment(s: number): void {
    if (this.known.has(s)) return;
    this.known.add(s);
    this.knownList = null;
  }

  /** whether a fault had named `segment` by `t` (a fault of a later bucket, folded in first from another stream, had not) */
  private affectedAt(segment: number, t: number): boolean {
    if (!this.affected.has(segment)) return false;
    for (let i = this.firstStepAfter(t); i < this.segmentSteps.length; i++) if ((this.segmentSteps[i] as SegmentStep).added.includes(segment)) return false;
    return true;
  }

  /** the index of the first recent fault step of a bucket after `t`'s (the steps are by bucket; their length when none is) */
  private firstStepAfter(t: number): number {
    const bucket = Math.floor(t / BUCKET_MS);
    let i = this.segmentSteps.length;
    while (i > 0 && (this.segmentSteps[i - 1] as SegmentStep).bucket > bucket) i--;
    return i;
  }

  private fault(e: FaultEvent): void {
    const healthyBefore = this.known.size - this.affected.size;
    const knownBefore = this.known.size;
    const added: number[] = [];
    for (const s of e.segments) {
      if (!this.affected.has(s)) added.push(s);
      this.affected.add(s);
      this.learnSegment(s);
    }
    const step: SegmentStep = { bucket: Math.floor(e.t / BUCKET_MS), added, known: this.known.size - knownBefore };
    // a few recent ones suffice: a stream runs behind another by a batch or two, not by many faults
    this.segmentSteps = [...this.segmentSteps.slice(-(MAX_SEGMENT_STEPS - 1)), step].sort((a, b) => a.bucket - b.bucket);
    // the healthy baseline before the fault spans more segments than "healthy" does after it
    const healthyAfter = this.known.size - this.affected.size;
    this.evidence.fault(e.t, e.action, e.node, e.segments.length, healthyBefore > 0 ? healthyAfter / healthyBefore : 1, e.detail, e.durationMs);
    const marker: FaultMarker = { t: e.t, action: e.action, node: e.node, segments: e.segments.length };
    this.faults = [...this.faults.slice(-(MAX_FAULT_MARKERS - 1)), marker];
  }

  /** the final-state check of acknowledged writes against the cluster's data (key → version held), for writes acknowledged up to `asOfMs` */
  checkFinalData(asOfMs: number, versions: ReadonlyMap<string, number>): void {
    this.checker.checkFinalData((key) => versions.get(key) ?? 0, asOfMs);
    this.publishes++;
  }

  /**
   * An immutable copy of everything panels read. `invariants` overrides the checker's report (a
   * replay reads it from its index); `withSession` copies the whole-session ring too, only when a
   * view shows it.
   */
  snapshot(invariants?: InvariantReport | null, withSession = false): TelemetrySnapshot {
    const p = this.tracker.parked;
    return {
      version: ++this.publishes,
      bucketMs: BUCKET_MS,
      window: this.ring.snapshot(),
      session: withSession ? { bucketMs: this.session.bucketMs, window: this.session.snapshot() } : null,
      parkedNow: { attempt: p[0] as number, refreshWait: p[1] as number, backoff: p[2] as number },
      stalledNow: this.tracker.stalled(this.totals.lastT),
      overBudgetInFlight: this.tracker.overBudgetInFlight,
      evidence: this.evidence.list(),
      events: this.log.toArray(),
      invariants: this.totals.events === 0 ? null : invariants !== undefined ? invariants : this.checker.report(),
      affectedSegments: [...this.affected].sort((a, b) => a - b),
      totals: { ...this.totals },
    };
  }
}
