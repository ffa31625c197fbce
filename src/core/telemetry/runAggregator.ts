/**
 * Folds the event stream into the run summary (SPEC §10): operation and
 * attempt counts by status, refresh counters and peaks, latency quantiles,
 * and per-bucket series (throughput split into healthy vs affected segments,
 * refresh rates, where in-flight operations are parked). Memory is bounded
 * by the number of buckets and in-flight operations.
 */
import { OUTCOMES, type Outcome } from '../domain/status';
import { END_REASONS, type EndReason, type TelemetrySink, type ZarisEvent } from './events';
import { LatencyHistogram } from './latencyHistogram';

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
  /** attempt outcomes in this bucket, by outcome */
  statuses: Partial<Record<Outcome, number>>;
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
    statuses: {},
  };
}

interface LiveOp {
  segment: number;
  phase: OpPhase;
  /** counted under fault-affected segments (fixed when counted, so un-counting matches) */
  affected: boolean;
}

export class RunAggregator implements TelemetrySink {
  readonly buckets: Bucket[] = [];
  readonly opsByOutcome: Partial<Record<Outcome, number>> = {};
  readonly attemptsByOutcome: Partial<Record<Outcome, number>> = {};
  readonly endReasons: Record<EndReason, number> = Object.fromEntries(END_REASONS.map((r) => [r, 0])) as Record<EndReason, number>;
  /** attempts per finished op → count */
  readonly attemptHistogram = new Map<number, number>();
  readonly latency = new LatencyHistogram();
  readonly affectedSegments = new Set<number>();
  readonly live = new Map<number, LiveOp>();
  opsStarted = 0;
  opsEnded = 0;
  attempts = 0;
  retries = 0;
  maxAttemptsPerOp = 0;
  refresh = { requested: 0, executed: 0, coalesced: 0, debounced: 0, waitAbandoned: 0, failed: 0 };
  backoffCount = 0;
  backoffTotalMs = 0;
  private parked = { attemptHealthy: 0, attemptAffected: 0, refreshWait: 0, backoff: 0 };
  private lastT = 0;

  constructor(
    /** width of one series bucket, ms */
    readonly bucketMs: number = 1000,
  ) {}

  private bucket(t: number): Bucket {
    const i = Math.floor(t / this.bucketMs);
    while (this.buckets.length <= i) {
      // close the buckets we pass: record the parked gauges at their end
      const b = this.buckets[this.buckets.length - 1];
      if (b) this.sealGauges(b);
      this.buckets.push(emptyBucket());
    }
    return this.buckets[i] as Bucket;
  }

  private sealGauges(b: Bucket): void {
    b.parkedAttemptHealthy = this.parked.attemptHealthy;
    b.parkedAttemptAffected = this.parked.attemptAffected;
    b.parkedRefreshWait = this.parked.refreshWait;
    b.parkedBackoff = this.parked.backoff;
  }

  private setPhase(op: LiveOp | undefined, phase: OpPhase | null): void {
    if (op === undefined) return;
    this.adjust(op, -1);
    if (phase !== null) {
      op.phase = phase;
      this.adjust(op, 1);
    }
  }

  private adjust(op: LiveOp, d: number): void {
    if (op.phase === 'attempt') {
      if (d > 0) op.affected = this.affectedSegments.has(op.segment);
      if (op.affected) this.parked.attemptAffected += d;
      else this.parked.attemptHealthy += d;
    } else if (op.phase === 'refreshWait') this.parked.refreshWait += d;
    else this.parked.backoff += d;
  }

  emit(e: ZarisEvent): void {
    const b = this.bucket(e.t);
    this.lastT = e.t;
    switch (e.type) {
      case 'op.start': {
        this.opsStarted++;
        const op: LiveOp = { segment: e.segment, phase: 'attempt', affected: false };
        this.live.set(e.op, op);
        this.adjust(op, 1);
        return;
      }
      case 'attempt.start':
        this.attempts++;
        b.attempts++;
        if (e.attempt > 1) {
          this.retries++;
          b.retries++;
        }
        this.setPhase(this.live.get(e.op), 'attempt');
        return;
      case 'attempt.end': {
        const o = (e.status ?? e.error) as Outcome;
        this.attemptsByOutcome[o] = (this.attemptsByOutcome[o] ?? 0) + 1;
        b.statuses[o] = (b.statuses[o] ?? 0) + 1;
        return;
      }
      case 'backoff':
        this.backoffCount++;
        this.backoffTotalMs += e.delayMs;
        this.setPhase(this.live.get(e.op), 'backoff');
        return;
      case 'refresh.request':
        this.refresh.requested++;
        b.refreshRequests++;
        if (e.op !== null) this.setPhase(this.live.get(e.op), 'refreshWait');
        return;
      case 'refresh.coalesced':
        this.refresh.coalesced++;
        b.refreshCoalesced++;
        return;
      case 'refresh.start':
        this.refresh.executed++;
        b.refreshExecuted++;
        return;
      case 'refresh.end':
        if (!e.ok) this.refresh.failed++;
        return;
      case 'refresh.debounced':
        this.refresh.debounced++;
        b.refreshDebounced++;
        return;
      case 'refresh.waitAbandoned':
        this.refresh.waitAbandoned++;
        b.refreshAbandoned++;
        return;
      case 'op.end': {
        this.opsEnded++;
        const o = (e.status ?? e.error) as Outcome;
        this.opsByOutcome[o] = (this.opsByOutcome[o] ?? 0) + 1;
        this.endReasons[e.reason]++;
        this.attemptHistogram.set(e.attempts, (this.attemptHistogram.get(e.attempts) ?? 0) + 1);
        if (e.attempts > this.maxAttemptsPerOp) this.maxAttemptsPerOp = e.attempts;
        this.latency.record(e.latencyMs);
        const op = this.live.get(e.op);
        if (op !== undefined) {
          this.adjust(op, -1);
          this.live.delete(e.op);
        }
        if (e.reason === 'success' || e.reason === 'realAnswer') {
          if (op !== undefined && this.affectedSegments.has(op.segment)) b.okAffected++;
          else b.okHealthy++;
        } else b.failed++;
        return;
      }
      case 'fault':
        for (const s of e.segments) this.affectedSegments.add(s);
        return;
      case 'topology':
        return;
    }
  }

  /** closes the series at `t` (the run's end) */
  finish(t: number = this.lastT): void {
    const last = this.bucket(Math.max(0, t - 1e-9));
    this.sealGauges(last);
  }

  /** ok = ended Ok; realAnswers = NotFound/Conflict; failed = errors and exhausted retries */
  opCounts(): { total: number; ok: number; realAnswers: number; failed: number } {
    const ok = this.endReasons.success;
    const realAnswers = this.endReasons.realAnswer;
    return { total: this.opsEnded, ok, realAnswers, failed: this.opsEnded - ok - realAnswers };
  }

  /** outcome → count with every outcome listed (stable key order for byte-identical JSON) */
  static fullTable(t: Partial<Record<Outcome, number>>): Record<Outcome, number> {
    return Object.fromEntries(OUTCOMES.map((o) => [o, t[o] ?? 0])) as Record<Outcome, number>;
  }
}
