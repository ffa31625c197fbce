/**
 * Seek anywhere in a recorded run, in either direction, without re-running
 * it. Built once by folding the whole tape through the dashboard's own
 * aggregator (so the figures are the dashboard's by construction):
 *
 * - the whole run's 100 ms buckets (one ring as long as the run),
 * - a small checkpoint of the fold (in-flight ops, totals, faults) at the
 *   first bucket boundary after every CHECKPOINT_EVENTS events,
 * - every invariant violation with the event that revealed it,
 * - each over-budget operation's span (first attempt beyond its budget → end).
 *
 * `frameAt(t)` copies the 60 s window ending at the checkpoint before `t`,
 * restores the checkpoint and folds at most a few thousand events from the
 * tape up to `t`: exactly the snapshot a fresh fold of the events ≤ t gives
 * (seekIndex.test.ts checks it over random times and scenarios).
 * Framework-free: the replay worker runs it; tests run it in Node.
 */
import type { WriteAuditReport } from '../../core/sim/applyTracker';
import type { ClientConfig } from '../../core/client/config';
import type { ClientView, ClusterView } from '../../core/cluster/views';
import { sliceBatch, type EventTape } from '../../core/replay/eventTape';
import type { RunViews } from '../../core/replay/recordRun';
import { lowerBound, upperBound } from '../../core/replay/sortedSearch';
import { addExample, invariantReport, TALLIES, type InvariantReport, type TallyName, type TallyView } from '../../core/sim/invariants';
import { decodeEvent } from '../../core/telemetry/eventCodec';
import { EVENT_TYPES } from '../../core/telemetry/events';
import { BUCKET_MS, LOG_CAPACITY } from '../store/layout';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import type { FaultMarker, LoggedEvent, PauseSpan, TelemetrySnapshot } from '../store/snapshot';
import { TelemetryAggregator, type AggregatorCheckpoint } from '../store/telemetryAggregator';

/** events between checkpoints (a seek folds at most this plus one bucket) */
export const CHECKPOINT_EVENTS = 4096;

const OP_START = EVENT_TYPES.indexOf('op.start');
const ATTEMPT_START = EVENT_TYPES.indexOf('attempt.start');
const OP_END = EVENT_TYPES.indexOf('op.end');

/** operations beyond their attempt budget at a time (the checker counts them only when they end) */
export interface BudgetAtCursor {
  /** in flight at the cursor with more attempts made than their budget */
  readonly overBudgetInFlight: number;
  /** ended by the cursor with more attempts than their budget */
  readonly overBudgetEnded: number;
}

/** everything the replay shows at one time */
export interface SeekFrame {
  readonly cursorMs: number;
  /** events at or before the cursor */
  readonly events: number;
  readonly snapshot: TelemetrySnapshot;
  readonly faults: readonly FaultMarker[];
  readonly clusterView: ClusterView | null;
  readonly clientView: ClientView | null;
  /** the engine's ambiguous-write audit at the cursor (null: the run has none) */
  readonly writeAudit: WriteAuditReport | null;
  readonly budget: BudgetAtCursor;
  /** the workload's pauses up to the cursor (one still paused there ends at the cursor) */
  readonly pauses: readonly PauseSpan[];
}

/** a scheduled pause or resume of the workload (a scenario's `changes` with `paused`) */
export interface PauseChange {
  readonly atMs: number;
  readonly paused: boolean;
}

/**
 * Folds batch `b` into `agg`, applying the pause changes from `next` on that are due before each
 * event (a change at `atMs` before the first event at or after it); returns the next change not applied.
 */
function ingestWithPauses(agg: TelemetryAggregator, b: EventBatch, changes: readonly PauseChange[], next: number): number {
  if (next >= changes.length || b.n === 0) {
    agg.ingestBatch(b);
    return next;
  }
  let ci = next;
  let from = 0;
  for (let i = 0; i < b.n && ci < changes.length; i++) {
    const t = b.t[i] as number;
    if ((changes[ci] as PauseChange).atMs > t) continue;
    if (i > from) agg.ingestBatch(sliceBatch(b, from, i));
    from = i;
    ci = applyPausesUntil(agg, changes, ci, t);
  }
  if (from < b.n) agg.ingestBatch(from === 0 ? b : sliceBatch(b, from, b.n));
  return ci;
}

/** applies the changes from `next` on due by `untilMs` (after the last event); returns the next one not applied */
function applyPausesUntil(agg: TelemetryAggregator, changes: readonly PauseChange[], next: number, untilMs: number): number {
  let ci = next;
  while (ci < changes.length && (changes[ci] as PauseChange).atMs <= untilMs) {
    const c = changes[ci] as PauseChange;
    agg.noteWorkload(!c.paused, c.atMs, false);
    ci++;
  }
  return ci;
}

/** what the index holds, for the header and the bench */
export interface SeekMemory {
  readonly events: number;
  readonly tapeBytes: number;
  readonly bucketBytes: number;
  readonly checkpoints: number;
  readonly checkpointBytes: number;
  readonly violationBytes: number;
  readonly viewBytes: number;
  readonly totalBytes: number;
}

/** a growable column of numbers */
class NumCol {
  data = new Float64Array(256);
  length = 0;
  push(x: number): void {
    if (this.length === this.data.length) {
      const d = new Float64Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = x;
  }
  /** entries < x (the column is ascending) */
  countBelow(x: number): number {
    return lowerBound(this.data, x, this.length);
  }
  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
}

/**
 * The report at a cursor, saying how many of the operations beyond their
 * attempt budget are still in flight there (the checker already counts them
 * at the attempt that broke the budget, so inside the storm the header, the
 * invariants panel and the lanes agree).
 */
export function withInFlightOverBudget(report: InvariantReport, budget: BudgetAtCursor, config: ClientConfig): InvariantReport {
  // The checker counts an operation against its attempt budget at the attempt.start beyond it (event
  // time), so the report at the cursor already holds the ones still in flight: only say how many.
  if (budget.overBudgetInFlight === 0) return report;
  const checks = report.checks.map((c) => {
    if (c.name !== 'attemptBudgetKept') return c;
    return {
      ...c,
      detail: `${c.violations} operation(s) made more attempts than their budget, ${budget.overBudgetInFlight} of them still in flight at the cursor${c.expected ? ` (expected: deadlineReplacesAttempts ${config.bugs.deadlineReplacesAttempts ? 'is' : 'was'} on — the refresh storm)` : ''}`,
    };
  });
  return { ok: checks.every((c) => c.ok || c.expected), checks };
}

export class SeekIndex {
  private readonly whole: TelemetryAggregator;
  private readonly seeker: TelemetryAggregator;
  private readonly checkpoints: AggregatorCheckpoint[] = [];
  /** per checkpoint: the pause changes applied before it */
  private readonly checkpointPauses: number[] = [];
  /** the run's pause schedule, in time order */
  private readonly pauseChanges: readonly PauseChange[];
  /** per tally: the event index that revealed each violation, its op, and how many of the violations up to it a bug toggle explains (a running count) */
  private readonly violations = Object.fromEntries(TALLIES.map((k) => [k, { at: new NumCol(), op: new NumCol(), explained: new NumCol() }])) as Record<TallyName, { at: NumCol; op: NumCol; explained: NumCol }>;
  private overStart: Float64Array = new Float64Array(0);
  private overEnd: Float64Array = new Float64Array(0);
  private checkpointBytes = 0;
  private readonly checkpointEvents: number;
  /** the verdict after the last event */
  readonly wholeRun: InvariantReport | null;

  constructor(
    readonly tape: EventTape,
    private readonly config: ClientConfig,
    readonly durationMs: number,
    private readonly views: RunViews | null = null,
    options: { readonly checkpointEvents?: number; readonly pauses?: readonly PauseChange[] } = {},
  ) {
    this.checkpointEvents = Math.max(1, options.checkpointEvents ?? CHECKPOINT_EVENTS);
    this.pauseChanges = [...(options.pauses ?? [])].sort((a, b) => a.atMs - b.atMs);
    const buckets = Math.floor(Math.max(durationMs, tape.endT) / BUCKET_MS) + 2;
    this.whole = new TelemetryAggregator(() => config, { buckets, onViolation: (tally, op, explained) => this.violation(tally, op, explained) });
    this.seeker = new TelemetryAggregator(() => config, { checkInvariants: false, keepLog: false });
    this.build();
    this.wholeRun = tape.length === 0 ? null : this.reportAt(tape.length);
  }

  private violation(tally: TallyName, op: number, explained: boolean): void {
    const v = this.violations[tally];
    v.at.push(this.whole.events - 1);
    v.op.push(op);
    v.explained.push((v.explained.length > 0 ? (v.explained.data[v.explained.length - 1] as number) : 0) + (explained ? 1 : 0));
  }

  private build(): void {
    const tape = this.tape;
    const whole = this.whole;
    const starts = new NumCol();
    const ends = new NumCol();
    const budgetOf = new Map<number, number>();
    const overAt = new Map<number, number>();
    const pauses = this.pauseChanges;
    let ci = 0;
    this.keep(whole.checkpoint(), ci);
    let sinceCp = 0;
    let lastBucket = -1;
    tape.forEachSlice(0, tape.length, (b) => {
      let from = 0;
      for (let i = 0; i < b.n; i++) {
        const t = b.t[i] as number;
        const bucket = Math.floor(t / BUCKET_MS);
        if (bucket !== lastBucket && sinceCp >= this.checkpointEvents) {
          ci = ingestWithPauses(whole, sliceBatch(b, from, i), pauses, ci);
          from = i;
          this.keep(whole.checkpoint(), ci);
          sinceCp = 0;
        }
        lastBucket = bucket;
        sinceCp++;
        // over-budget spans (columns: op.start e=budget, attempt.start a=attempt)
        const type = b.type[i] as number;
        if (type === OP_START) {
          const budget = b.e[i] as number;
          if (budget >= 0) budgetOf.set(b.op[i] as number, budget);
        } else if (type === ATTEMPT_START) {
          const op = b.op[i] as number;
          const budget = budgetOf.get(op);
          if (budget !== undefined && (b.a[i] as number) > budget && !overAt.has(op)) overAt.set(op, t);
        } else if (type === OP_END) {
          const op = b.op[i] as number;
          budgetOf.delete(op);
          const at = overAt.get(op);
          if (at !== undefined) {
            overAt.delete(op);
            starts.push(at);
            ends.push(t);
          }
        }
      }
      if (from < b.n) ci = ingestWithPauses(whole, sliceBatch(b, from, b.n), pauses, ci);
    });
    applyPausesUntil(whole, pauses, ci, Math.max(this.durationMs, tape.endT));
    for (const at of overAt.values()) starts.push(at);
    this.overStart = starts.sorted();
    this.overEnd = ends.sorted();
  }

  private keep(cp: AggregatorCheckpoint, pausesApplied: number): void {
    this.checkpoints.push(cp);
    this.checkpointPauses.push(pausesApplied);
    this.checkpointBytes += 160 + (cp.tracker.ops.length + cp.tracker.refreshes.length + cp.tracker.parked.length + cp.tracker.started.length) * 8 + cp.affected.length * 8 + cp.evidence.history.length * 8 + (cp.evidence.closed.length + 1) * 200;
  }

  /** the checker's report after the first `events` events (the availability rule, where the run has it: at `atMs`) */
  reportAt(events: number, atMs = Infinity): InvariantReport {
    const tallies = {} as Record<TallyName, TallyView>;
    for (const k of TALLIES) {
      const v = this.violations[k];
      const count = v.at.countBelow(events);
      const examples: number[] = [];
      for (let i = 0; i < count && examples.length < 10; i++) addExample(examples, v.op.data[i] as number);
      tallies[k] = { count, examples, explained: count > 0 ? (v.explained.data[count - 1] as number) : 0 };
    }
    return invariantReport(this.config, tallies, undefined, this.views?.availabilityAt?.(atMs) ?? null);
  }

  budgetAt(t: number): BudgetAtCursor {
    const started = upperBound(this.overStart, t);
    const ended = upperBound(this.overEnd, t);
    return { overBudgetInFlight: started - ended, overBudgetEnded: ended };
  }

  /** the replay's state at `t` (clamped to the run) */
  frameAt(t: number): SeekFrame {
    const cursorMs = Math.max(0, Math.min(t, Math.max(this.durationMs, this.tape.endT)));
    const n = this.tape.indexAfter(cursorMs);
    const k = this.checkpointBefore(n);
    const cp = this.checkpoints[k] as AggregatorCheckpoint;
    const seeker = this.seeker;
    seeker.restore(cp, this.whole.ring);
    let ci = this.checkpointPauses[k] as number;
    this.tape.forEachSlice(cp.index, n, (b) => {
      ci = ingestWithPauses(seeker, b, this.pauseChanges, ci);
    });
    applyPausesUntil(seeker, this.pauseChanges, ci, cursorMs);
    const log: LoggedEvent[] = [];
    let seq = Math.max(0, n - LOG_CAPACITY);
    this.tape.forEachSlice(seq, n, (b) => {
      for (let i = 0; i < b.n; i++) log.push({ seq: seq++, event: decodeEvent(b, i) });
    });
    seeker.setLog(log);
    const budget = this.budgetAt(cursorMs);
    const snapshot = seeker.snapshot(n === 0 ? null : withInFlightOverBudget(this.reportAt(n, cursorMs), budget, this.config));
    return {
      cursorMs,
      events: n,
      snapshot,
      faults: seeker.faults,
      clusterView: this.views?.clusterAt(cursorMs) ?? null,
      clientView: this.views?.clientAt(cursorMs) ?? null,
      writeAudit: this.views?.auditAt?.(cursorMs) ?? null,
      budget,
      pauses: seeker.pauses.map((p) => (p.to === null ? { from: p.from, to: cursorMs } : p)),
    };
  }

  /** the index of the last checkpoint at or before event `n` */
  private checkpointBefore(n: number): number {
    let a = 0;
    let b = this.checkpoints.length - 1;
    while (a < b) {
      const m = (a + b + 1) >> 1;
      if ((this.checkpoints[m] as AggregatorCheckpoint).index <= n) a = m;
      else b = m - 1;
    }
    return a;
  }

  memory(): SeekMemory {
    const tapeBytes = this.tape.bytes;
    const bucketBytes = Object.values(this.whole.ring.cols).reduce((a, c) => a + c.byteLength, 0) + Object.values(this.seeker.ring.cols).reduce((a, c) => a + c.byteLength, 0);
    let violationBytes = (this.overStart.length + this.overEnd.length) * 8;
    for (const k of TALLIES) violationBytes += this.violations[k].at.data.byteLength * 2;
    const viewBytes = this.views?.bytes ?? 0;
    return {
      events: this.tape.length,
      tapeBytes,
      bucketBytes,
      checkpoints: this.checkpoints.length,
      checkpointBytes: this.checkpointBytes,
      violationBytes,
      viewBytes,
      totalBytes: tapeBytes + bucketBytes + this.checkpointBytes + violationBytes + viewBytes,
    };
  }
}
