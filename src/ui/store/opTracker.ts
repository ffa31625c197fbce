/**
 * In-flight bookkeeping the windowed aggregates need: each open operation's
 * segment, attempt budget, phase and start time (for the parked and stalled
 * gauges, the healthy/affected split and attempts beyond the budget) and
 * each running refresh's callers. Bounded by what is in flight; a hard cap
 * evicts the oldest entries if a stream ever loses its end events.
 */
import { isStalled } from '../../core/domain/service';
import { PHASES, type Phase } from './layout';

const PHASE_CODE: Readonly<Record<Phase, number>> = { attempt: 0, refreshWait: 1, backoff: 2 };
/** entries beyond this are evicted oldest first (a lost op.end must not leak) */
export const MAX_TRACKED_OPS = 100_000;
const MAX_TRACKED_REFRESHES = 10_000;
/** packing of an op's entry: ((budget × SEG) + segment) × 4 + phase, plus OVER once it started an attempt beyond its budget */
const SEG = 65_536;
/** the over-budget flag: a multiple of 4 × SEG, so phase and segment decode as before */
const OVER = 2 ** 40;
/** budgets kept below OVER / (4 × SEG) */
const BUDGETS = OVER / (4 * SEG);

/** an OpTracker's contents as flat pairs (a replay checkpoint) */
export interface OpTrackerState {
  /** op, segment × 4 + phase code, … in insertion order */
  readonly ops: Float64Array;
  /** refresh id, callers, … */
  readonly refreshes: Float64Array;
  readonly parked: Float64Array;
  /** op, start time ms, … in start order (for the stalled count) */
  readonly started: Float64Array;
}

export class OpTracker {
  /** op → ((budget × SEG) + segment + 1) × 4 + phase code, + OVER when over budget (0 budget = unknown; segment -1 = unknown) */
  private readonly ops = new Map<number, number>();
  /** op → start time, ms; insertion order is start order (the stream is in time order) */
  private readonly started = new Map<number, number>();
  /** refresh id → callers riding it (the starter included) */
  private readonly refreshes = new Map<number, number>();
  /** operations in flight per phase (PHASES order) */
  readonly parked = new Float64Array(PHASES.length);
  /** operations in flight that started an attempt beyond their budget */
  overBudgetInFlight = 0;

  private bump(code: number, v: number): void {
    this.parked[code] = (this.parked[code] as number) + v;
  }

  get openOps(): number {
    return this.ops.size;
  }

  /** `budget` ≤ 0 = unknown */
  start(op: number, segment: number, t = 0, budget = 0): void {
    const old = this.ops.get(op);
    if (old !== undefined) {
      this.bump(old % 4, -1);
      if (old >= OVER) this.overBudgetInFlight--;
    }
    this.ops.set(op, ((Math.min(BUDGETS - 1, Math.max(0, budget)) * SEG + (segment + 1)) * 4) + PHASE_CODE.attempt);
    this.started.delete(op);
    this.started.set(op, t);
    this.bump(PHASE_CODE.attempt, 1);
    if (this.ops.size > MAX_TRACKED_OPS) {
      const oldest = this.ops.keys().next().value as number;
      this.end(oldest);
    }
  }

  phase(op: number, phase: Phase): void {
    const v = this.ops.get(op);
    if (v === undefined) return;
    const code = PHASE_CODE[phase];
    const was = v % 4;
    this.bump(was, -1);
    this.bump(code, 1);
    this.ops.set(op, v - was + code);
  }

  /** the attempt budget of an op in flight (0 = unknown) */
  budget(op: number): number {
    const v = this.ops.get(op);
    return v === undefined ? 0 : Math.floor(v / 4 / SEG) % BUDGETS;
  }

  /** the op in flight started an attempt beyond its budget (counted once) */
  markOverBudget(op: number): void {
    const v = this.ops.get(op);
    if (v === undefined || v >= OVER) return;
    this.ops.set(op, v + OVER);
    this.overBudgetInFlight++;
  }

  /** forgets the op; returns its segment (-1 if unknown) */
  end(op: number): number {
    const v = this.ops.get(op);
    if (v === undefined) return -1;
    this.ops.delete(op);
    this.started.delete(op);
    this.bump(v % 4, -1);
    if (v >= OVER) this.overBudgetInFlight--;
    return (Math.floor(v / 4) % SEG) - 1;
  }

  /** operations in flight longer than the stall threshold at `now` (walks the oldest only) */
  stalled(now: number): number {
    let n = 0;
    for (const t of this.started.values()) {
      if (!isStalled(now - t)) break;
      n++;
    }
    return n;
  }

  refreshStarted(refresh: number): void {
    this.refreshes.set(refresh, 1);
    if (this.refreshes.size > MAX_TRACKED_REFRESHES) this.refreshes.delete(this.refreshes.keys().next().value as number);
  }

  refreshRidden(refresh: number): void {
    const v = this.refreshes.get(refresh);
    if (v !== undefined) this.refreshes.set(refresh, v + 1);
  }

  /** forgets the refresh; returns its callers (1 if it was not seen starting) */
  refreshEnded(refresh: number): number {
    const v = this.refreshes.get(refresh) ?? 1;
    this.refreshes.delete(refresh);
    return v;
  }

  save(): OpTrackerState {
    const ops = new Float64Array(this.ops.size * 2);
    let i = 0;
    for (const [k, v] of this.ops) {
      ops[i++] = k;
      ops[i++] = v;
    }
    const refreshes = new Float64Array(this.refreshes.size * 2);
    i = 0;
    for (const [k, v] of this.refreshes) {
      refreshes[i++] = k;
      refreshes[i++] = v;
    }
    const started = new Float64Array(this.started.size * 2);
    i = 0;
    for (const [k, v] of this.started) {
      started[i++] = k;
      started[i++] = v;
    }
    return { ops, refreshes, parked: this.parked.slice(), started };
  }

  load(s: OpTrackerState): void {
    this.clear();
    for (let i = 0; i < s.ops.length; i += 2) {
      const v = s.ops[i + 1] as number;
      this.ops.set(s.ops[i] as number, v);
      if (v >= OVER) this.overBudgetInFlight++;
    }
    for (let i = 0; i < s.refreshes.length; i += 2) this.refreshes.set(s.refreshes[i] as number, s.refreshes[i + 1] as number);
    for (let i = 0; i < s.started.length; i += 2) this.started.set(s.started[i] as number, s.started[i + 1] as number);
    this.parked.set(s.parked);
  }

  clear(): void {
    this.ops.clear();
    this.started.clear();
    this.refreshes.clear();
    this.parked.fill(0);
    this.overBudgetInFlight = 0;
  }
}
