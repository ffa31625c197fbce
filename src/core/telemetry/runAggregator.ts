/**
 * Folds the event stream into the run summary (SPEC §10): operation and
 * attempt counts by status, refresh counters and peaks, latency quantiles,
 * and per-bucket series (throughput split into healthy vs affected segments,
 * refresh rates, where in-flight operations are parked). Memory is bounded
 * by the number of buckets and in-flight operations.
 *
 * It sees every event of a run, so counts live in typed arrays indexed by
 * dense codes (OUTCOME_CODE, END_REASON_CODE) and the public tables are
 * built on demand.
 */
import { OUTCOME_CODE, OUTCOMES, type Outcome } from '../domain/status';
import { END_REASONS, ignoredBecause, type AttemptEndEvent, type AttemptStartEvent, type EndReason, type FaultAction, type OpEndEvent, type OpEventSink, type OpStartEvent, type ZarisEvent } from './events';
import { LatencyHistogram } from './latencyHistogram';
import { grownF64, grownU8 } from '../grownColumns';
import { OpSlots } from './opSlots';

/** Where an in-flight operation is right now. */
export type OpPhase = 'attempt' | 'refreshWait' | 'backoff';

/** One time bucket of the series. */
export interface Bucket {
  /** operations that ended Ok (or with a real answer) on healthy / fault-affected segments */
  okHealthy: number;
  okAffected: number;
  /** operations that ended failed */
  failed: number;
  attempts: number;
  retries: number;
  refreshRequests: number;
  refreshExecuted: number;
  refreshCoalesced: number;
  refreshDebounced: number;
  refreshAbandoned: number;
  /** in-flight operations by phase at the bucket's end; split by segment health for attempts */
  parkedAttemptHealthy: number;
  parkedAttemptAffected: number;
  parkedRefreshWait: number;
  parkedBackoff: number;
  /** segments no fault named / segments a fault named, at the bucket's end (what per-segment rates divide by) */
  segmentsHealthy: number;
  segmentsAffected: number;
  /** attempt outcomes in this bucket, indexed by OUTCOME_CODE */
  readonly statuses: Float64Array;
}

function emptyBucket(): Bucket {
  return {
    okHealthy: 0,
    okAffected: 0,
    failed: 0,
    attempts: 0,
    retries: 0,
    refreshRequests: 0,
    refreshExecuted: 0,
    refreshCoalesced: 0,
    refreshDebounced: 0,
    refreshAbandoned: 0,
    parkedAttemptHealthy: 0,
    parkedAttemptAffected: 0,
    parkedRefreshWait: 0,
    parkedBackoff: 0,
    segmentsHealthy: 0,
    segmentsAffected: 0,
    statuses: new Float64Array(OUTCOMES.length),
  };
}

/** Dense code of an end reason (index in END_REASONS). */
export const END_REASON_CODE: Readonly<Record<EndReason, number>> = Object.fromEntries(END_REASONS.map((r, i) => [r, i])) as Record<EndReason, number>;

const PHASE_ATTEMPT = 0;
const PHASE_REFRESH_WAIT = 1;
const PHASE_BACKOFF = 2;

/**
 * Per in-flight operation, columns by {@link OpSlots} slot (no object per
 * operation): its segment, its PHASE_*, and whether it is counted under
 * fault-affected segments (fixed when counted, so un-counting matches).
 */
class LiveColumns {
  segment = new Float64Array(0);
  phase = new Uint8Array(0);
  affected = new Uint8Array(0);
  /** attempts started so far */
  attempts = new Float64Array(0);

  grow(n: number): void {
    this.segment = grownF64(this.segment, n);
    this.attempts = grownF64(this.attempts, n);
    this.phase = grownU8(this.phase, n);
    this.affected = grownU8(this.affected, n);
  }
}

function inc(counts: Float64Array, i: number): void {
  counts[i] = (counts[i] as number) + 1;
}

/** outcome counts → a table of the outcomes seen (absent = 0) */
function partialTable(counts: Float64Array): Partial<Record<Outcome, number>> {
  const t: Partial<Record<Outcome, number>> = {};
  OUTCOMES.forEach((o, i) => {
    if ((counts[i] as number) > 0) t[o] = counts[i] as number;
  });
  return t;
}

/** a fault that did nothing when it fired, and why (the node was already down, …) */
export interface IgnoredFault {
  readonly atMs: number;
  readonly action: FaultAction;
  readonly node: number;
  readonly why: string;
}

export class RunAggregator implements OpEventSink {
  /** reads events during the call only (OpEventSink.transient) */
  readonly transient = true;
  readonly buckets: Bucket[] = [];
  private readonly opsByCode = new Float64Array(OUTCOMES.length);
  private readonly attemptsByCode = new Float64Array(OUTCOMES.length);
  private readonly endReasonCounts = new Float64Array(END_REASONS.length);
  /** attempts per finished op → count, indexed by attempts */
  private attemptCounts = new Float64Array(16);
  readonly latency = new LatencyHistogram();
  /** segments a fault put in motion (from `fault` events) */
  readonly affectedSegments = new Set<number>();
  /** faults the control plane ignored (their events say why) */
  readonly ignoredFaults: IgnoredFault[] = [];
  /** the cluster's segments (its `initial` topology events) and any a fault named */
  private readonly knownSegments = new Set<number>();
  /** the same, as a bitmap by segment (checked on every attempt) */
  private affectedBits = new Uint8Array(0);
  /** affected segments that are no small whole number (not in the bitmap) */
  private affectedOutsideBits = 0;
  /** in-flight operations by op id (their fields: {@link cols}) */
  readonly live = new OpSlots((n) => this.cols.grow(n));
  private readonly cols = new LiveColumns();
  opsStarted = 0;
  opsEnded = 0;
  attempts = 0;
  retries = 0;
  maxAttemptsPerOp = 0;
  refresh = { requested: 0, executed: 0, coalesced: 0, debounced: 0, waitAbandoned: 0, failed: 0 };
  backoffCount = 0;
  backoffTotalMs = 0;
  // parked gauges: attempt (healthy / affected segment), refresh wait, backoff
  private parkedAttemptHealthy = 0;
  private parkedAttemptAffected = 0;
  private parkedRefreshWait = 0;
  private parkedBackoff = 0;
  private lastT = 0;
  /** the bucket events currently fall in, and its index */
  private current: Bucket | null = null;
  private currentIndex = -1;
  // the last outcome / end reason looked up, and its code (most are Ok / success)
  private lastOutcome: Outcome | null = null;
  private lastOutcomeCode = 0;
  private lastReason: EndReason | null = null;
  private lastReasonCode = 0;

  constructor(
    /** width of one series bucket, ms */
    readonly bucketMs: number = 1000,
  ) {
    this.cols.grow(this.live.capacity);
  }

  /** operations by final outcome */
  get opsByOutcome(): Partial<Record<Outcome, number>> {
    return partialTable(this.opsByCode);
  }

  /** attempts by outcome */
  get attemptsByOutcome(): Partial<Record<Outcome, number>> {
    return partialTable(this.attemptsByCode);
  }

  /** finished operations by end reason */
  get endReasons(): Record<EndReason, number> {
    return Object.fromEntries(END_REASONS.map((r, i) => [r, this.endReasonCounts[i] as number])) as Record<EndReason, number>;
  }

  /** attempts per finished op → count (ascending) */
  get attemptHistogram(): Map<number, number> {
    const m = new Map<number, number>();
    this.attemptCounts.forEach((n, attempts) => {
      if (n > 0) m.set(attempts, n);
    });
    return m;
  }

  private isAffected(segment: number): boolean {
    return this.affectedBits[segment] === 1 || (this.affectedOutsideBits > 0 && this.affectedSegments.has(segment));
  }

  private markAffected(segment: number): void {
    this.knownSegments.add(segment);
    if (this.affectedSegments.has(segment)) return;
    this.affectedSegments.add(segment);
    if (!Number.isInteger(segment) || segment < 0 || segment >= 1 << 20) {
      this.affectedOutsideBits++;
      return;
    }
    if (segment >= this.affectedBits.length) {
      this.affectedBits = grownU8(this.affectedBits, Math.max(64, segment + 1, this.affectedBits.length * 2));
    }
    this.affectedBits[segment] = 1;
  }

  private outcomeCode(o: Outcome): number {
    if (o !== this.lastOutcome) {
      this.lastOutcome = o;
      this.lastOutcomeCode = OUTCOME_CODE[o];
    }
    return this.lastOutcomeCode;
  }

  private bucket(t: number): Bucket {
    const i = Math.floor(t / this.bucketMs);
    if (i === this.currentIndex) return this.current as Bucket;
    while (this.buckets.length <= i) {
      // close the buckets we pass: record the parked gauges at their end
      const b = this.buckets[this.buckets.length - 1];
      if (b) this.sealGauges(b);
      this.buckets.push(emptyBucket());
    }
    const b = this.buckets[i] as Bucket;
    this.current = b;
    this.currentIndex = i;
    return b;
  }

  private sealGauges(b: Bucket): void {
    b.parkedAttemptHealthy = this.parkedAttemptHealthy;
    b.parkedAttemptAffected = this.parkedAttemptAffected;
    b.parkedRefreshWait = this.parkedRefreshWait;
    b.parkedBackoff = this.parkedBackoff;
    b.segmentsHealthy = this.knownSegments.size - this.affectedSegments.size;
    b.segmentsAffected = this.affectedSegments.size;
  }

  /** moves the in-flight operation `id` (if any) to `phase` */
  private setPhase(id: number, phase: number): void {
    const i = this.live.slotOf(id);
    if (i >= 0) this.moveTo(i, phase);
  }

  /** the operation in slot `i` now waits in `phase` */
  private moveTo(i: number, phase: number): void {
    this.adjust(i, -1);
    this.cols.phase[i] = phase;
    this.adjust(i, 1);
  }

  /**
   * The most attempts an operation still in flight has started (0 when none is): the attempt
   * histogram and {@link maxAttemptsPerOp} count operations when they end, so in a storm whose
   * operations never end they would read 1 while those in flight have hundreds.
   */
  maxAttemptsInFlight(): number {
    let max = 0;
    const attempts = this.cols.attempts;
    this.live.forEachSlot((i) => {
      if ((attempts[i] as number) > max) max = attempts[i] as number;
    });
    return max;
  }

  /** counts the operation in slot `i` in (d = 1) or out of (d = -1) its phase's gauge */
  private adjust(i: number, d: number): void {
    const c = this.cols;
    const phase = c.phase[i];
    if (phase === PHASE_ATTEMPT) {
      if (d > 0) c.affected[i] = this.isAffected(c.segment[i] as number) ? 1 : 0;
      if (c.affected[i] === 1) this.parkedAttemptAffected += d;
      else this.parkedAttemptHealthy += d;
    } else if (phase === PHASE_REFRESH_WAIT) this.parkedRefreshWait += d;
    else this.parkedBackoff += d;
  }

  opStart(e: OpStartEvent): void {
    this.at(e.t);
    this.opsStarted++;
    // a repeated op.start (a stream that has one) replaces the record, as a Map would
    const i = this.live.add(e.op);
    this.cols.segment[i] = e.segment;
    this.cols.phase[i] = PHASE_ATTEMPT;
    this.cols.affected[i] = 0;
    this.cols.attempts[i] = 0;
    this.adjust(i, 1);
  }

  attemptStart(e: AttemptStartEvent): void {
    const b = this.at(e.t);
    this.attempts++;
    b.attempts++;
    if (e.attempt > 1) {
      this.retries++;
      b.retries++;
    }
    const i = this.live.slotOf(e.op);
    if (i < 0) return;
    this.cols.attempts[i] = e.attempt;
    this.moveTo(i, PHASE_ATTEMPT);
  }

  attemptEnd(e: AttemptEndEvent): void {
    const b = this.at(e.t);
    const code = this.outcomeCode((e.status ?? e.error) as Outcome);
    inc(this.attemptsByCode, code);
    inc(b.statuses, code);
  }

  emit(e: ZarisEvent): void {
    // Switch first: each case reads the fields of one event type only
    // (the four per-operation types first: they are most events, and a
    // fan-out calls their methods directly).
    switch (e.type) {
      case 'op.start':
        this.opStart(e);
        return;
      case 'attempt.start':
        this.attemptStart(e);
        return;
      case 'attempt.end':
        this.attemptEnd(e);
        return;
      case 'op.end':
        this.opEnd(e);
        return;
      case 'backoff':
        this.at(e.t);
        this.backoffCount++;
        this.backoffTotalMs += e.delayMs;
        this.setPhase(e.op, PHASE_BACKOFF);
        return;
      case 'refresh.request':
        this.refresh.requested++;
        this.at(e.t).refreshRequests++;
        if (e.op !== null) this.setPhase(e.op, PHASE_REFRESH_WAIT);
        return;
      case 'refresh.coalesced':
        this.refresh.coalesced++;
        this.at(e.t).refreshCoalesced++;
        return;
      case 'refresh.start':
        this.refresh.executed++;
        this.at(e.t).refreshExecuted++;
        return;
      case 'refresh.end':
        this.at(e.t);
        if (!e.ok) this.refresh.failed++;
        return;
      case 'refresh.debounced':
        this.refresh.debounced++;
        this.at(e.t).refreshDebounced++;
        return;
      case 'refresh.waitAbandoned':
        this.refresh.waitAbandoned++;
        this.at(e.t).refreshAbandoned++;
        return;
      case 'fault': {
        this.at(e.t);
        for (const s of e.segments) this.markAffected(s);
        const why = ignoredBecause(e);
        if (why !== null) this.ignoredFaults.push({ atMs: e.t, action: e.action, node: e.node, why });
        return;
      }
      case 'topology':
        this.at(e.t);
        if (e.change === 'initial') for (const seg of e.segments) this.knownSegments.add(seg);
        return;
    }
  }

  /** the bucket of an event at `t` (opening buckets up to it) */
  private at(t: number): Bucket {
    this.lastT = t;
    return this.bucket(t);
  }

  opEnd(e: OpEndEvent): void {
    const b = this.at(e.t);
    this.opsEnded++;
    inc(this.opsByCode, this.outcomeCode((e.status ?? e.error) as Outcome));
    const reason = e.reason;
    if (reason !== this.lastReason) {
      this.lastReason = reason;
      this.lastReasonCode = END_REASON_CODE[reason];
    }
    inc(this.endReasonCounts, this.lastReasonCode);
    const attempts = e.attempts;
    if (attempts >= this.attemptCounts.length) {
      this.attemptCounts = grownF64(this.attemptCounts, Math.max(attempts + 1, this.attemptCounts.length * 2));
    }
    inc(this.attemptCounts, attempts);
    if (attempts > this.maxAttemptsPerOp) this.maxAttemptsPerOp = attempts;
    this.latency.record(e.latencyMs);
    const i = this.live.slotOf(e.op);
    const segment = i >= 0 ? (this.cols.segment[i] as number) : NaN;
    if (i >= 0) {
      this.adjust(i, -1);
      this.live.delete(e.op);
    }
    if (e.reason === 'success' || e.reason === 'realAnswer') {
      if (i >= 0 && this.isAffected(segment)) b.okAffected++;
      else b.okHealthy++;
    } else b.failed++;
  }

  /** closes the series at `t` (the run's end) */
  finish(t: number = this.lastT): void {
    const last = this.bucket(Math.max(0, t - 1e-9));
    this.sealGauges(last);
  }

  /** ok = ended Ok; realAnswers = NotFound/Conflict; failed = errors and exhausted retries */
  opCounts(): { total: number; ok: number; realAnswers: number; failed: number } {
    const ok = this.endReasonCounts[END_REASON_CODE.success] as number;
    const realAnswers = this.endReasonCounts[END_REASON_CODE.realAnswer] as number;
    return { total: this.opsEnded, ok, realAnswers, failed: this.opsEnded - ok - realAnswers };
  }

  /** outcome → count with every outcome listed (stable key order for byte-identical JSON) */
  static fullTable(t: Partial<Record<Outcome, number>>): Record<Outcome, number> {
    return Object.fromEntries(OUTCOMES.map((o) => [o, t[o] ?? 0])) as Record<Outcome, number>;
  }
}
