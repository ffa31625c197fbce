/**
 * The evidence a fault leaves behind, folded from the event stream as it
 * happens (event time): one record per fault, from its `fault` event until
 * the next fault or until the client has been quiet for {@link SETTLE_MS}.
 * Generic for any fault and any scenario: it counts what the stream shows —
 * operations hit, attempts and refresh requests they made, attempts beyond
 * their budget, arrivals turned away, stalled operations, and how long
 * healthy segments were starved (served throughput below half of the
 * pre-fault baseline). Nothing here knows a preset.
 *
 * Which fault hit an operation is one rule ({@link FaultEvidenceTracker.claim}): the fault
 * whose record was open when the operation first missed an attempt (or ended without a real
 * answer). It stays that fault's until it ends, so a later fault's card never counts an earlier
 * storm's operations as its own; it lists them apart ({@link CarriedOps}).
 *
 * Bounded: the open record, a fixed baseline history, closed records up to
 * {@link MAX_EVIDENCE}, and the hit operations in flight (up to {@link MAX_HIT_IN_FLIGHT}).
 */
import type { FaultAction, Mutable } from './events';

/** the client counts as settled after this long without a failing attempt, a stall or a rejection */
export const SETTLE_MS = 3000;
/** ms of healthy-segment history before a fault that form its baseline */
export const BASELINE_MS = 5000;
/** a 100 ms step of healthy served throughput below this share of the baseline counts as lost */
export const STARVED_SHARE = 0.5;
/** an operation answered this many times slower than the baseline's p99 counts as slowed */
export const SLOWED_FACTOR = 2;
/** the baseline's latency histogram: buckets from LAT_BASE_MS, each LAT_RATIO wider (25 % resolution, 0.05 ms – 2.2 s) */
const LAT_BUCKETS = 48;
const LAT_BASE_MS = 0.05;
const LAT_RATIO = 1.25;
const LOG_LAT_RATIO = Math.log(LAT_RATIO);
function latBucket(ms: number): number {
  if (!(ms > LAT_BASE_MS)) return 0;
  return Math.min(LAT_BUCKETS - 1, Math.floor(Math.log(ms / LAT_BASE_MS) / LOG_LAT_RATIO));
}
/** records kept (oldest dropped first) */
export const MAX_EVIDENCE = 32;
/** hit operations in flight remembered (oldest dropped first: only a stream that lost op.end events reaches it) */
export const MAX_HIT_IN_FLIGHT = 100_000;
const STEP_MS = 100;
const BASELINE_STEPS = BASELINE_MS / STEP_MS;
const STEPS_PER_SECOND = 1000 / STEP_MS;

/**
 * Operations an earlier fault hit that were still in flight when this record's fault came: they
 * stay that fault's ({@link FaultEvidenceTracker.claim}), so this record counts none of their
 * attempts, refresh requests, stalls or failures as its own, and keeps them here instead.
 */
export interface CarriedOps {
  /** the id of the record whose fault hit them */
  readonly from: number;
  /** how many were in flight when this record's fault came */
  readonly ops: number;
  /** of them, still in flight (as of the record's last event; all stalled from 1 s after its fault on, as they started before it) */
  readonly inFlight: number;
  /** of them, ended without a real answer since this record's fault */
  readonly failed: number;
}

export interface FaultEvidence {
  /** increases per fault this session (a stable key) */
  readonly id: number;
  readonly action: FaultAction;
  readonly node: number;
  /** ms since the session started */
  readonly t: number;
  /** segments the fault put in motion */
  readonly segments: number;
  /** the fault event's detail (a link fault's strength and side: "replies of the node lost for 5 s") */
  readonly detail?: string;
  /** when a fault with a duration stops being in effect (ms: its link heals, its hang ends), or null */
  readonly untilT: number | null;
  /** when it settled (ms), or null while the fault's effects last (never before {@link untilT}) */
  readonly settledT: number | null;
  /** when the next fault closed the record before it settled (ms), or null: from then on the next fault's card counts */
  readonly supersededT: number | null;
  /** newest event time folded into it, ms */
  readonly lastT: number;
  /** operations this fault hit ({@link FaultEvidenceTracker.claim}): their first missed attempt, or their end without a real answer, came while this record was open */
  readonly opsHit: number;
  /** attempts after the first, of the operations this record counts as hit (from their first miss in it) */
  readonly retries: number;
  readonly refreshRequests: number;
  /** operations that started an attempt beyond their attempt budget */
  readonly overBudget: number;
  /** operations this fault hit that ended without a real answer */
  readonly failed: number;
  /** arrivals turned away (request pool full) */
  readonly rejected: number;
  /** most operations stalled at once, less those an earlier fault hit ({@link carried}) */
  readonly stalledPeak: number;
  /** most operations in flight at once */
  readonly inFlightPeak: number;
  /** served ops/s before the fault on healthy segments, scaled to the share of them that stays healthy after it; null without enough history */
  readonly healthyBaselinePerSec: number | null;
  /** ms of 100 ms steps in which healthy segments were served below half the baseline */
  readonly healthyLostMs: number;
  /** served ops/s before the fault on every segment (what the application got); null without enough history */
  readonly servedBaselinePerSec: number | null;
  /** the lowest served ops/s over a whole second since the fault (every segment); null before a second has passed */
  readonly servedLowPerSec: number | null;
  /** p99 latency of the operations answered in the baseline before the fault, ms (to 25 %); null without enough history */
  readonly slowBaselineMs: number | null;
  /** operations answered without a missed attempt but over SLOWED_FACTOR × slowBaselineMs (a slow link hits nothing else) */
  readonly slowed: number;
  /** the slowest of those, ms (0: none) */
  readonly slowestMs: number;
  /** operations earlier faults hit, in flight when this one came, by the record that counts them (oldest first; empty: none) */
  readonly carried: readonly CarriedOps[];
}


/** the tracker's whole state, for a replay checkpoint (small: one open card, the closed ones, a short history) */
export interface FaultEvidenceState {
  readonly open: FaultEvidence | null;
  readonly closed: readonly FaultEvidence[];
  readonly nextId: number;
  readonly history: Float64Array;
  readonly historyAll: Float64Array;
  readonly historyLat: Float64Array;
  readonly historyFilled: number;
  readonly historyPos: number;
  readonly sawTraffic: boolean;
  readonly step: number;
  readonly stepHealthy: number;
  readonly stepAll: number;
  readonly stepLat: Float64Array;
  readonly recent: Float64Array;
  readonly recentSteps: number;
  readonly pausedSince: number | null;
  readonly pauses: readonly (readonly [number, number])[];
  readonly lastTrouble: number;
  /** the hit operations in flight: op, id of the record whose fault hit it, … */
  readonly hitBy: readonly number[];
}

export class FaultEvidenceTracker {
  private open: Mutable<FaultEvidence> | null = null;
  private closed: FaultEvidence[] = [];
  private nextId = 1;
  /** healthy served ops per 100 ms step, the last BASELINE_STEPS complete steps (ring) */
  private readonly history = new Float64Array(BASELINE_STEPS);
  /** served ops per 100 ms step on every segment, the same steps (ring) */
  private readonly historyAll = new Float64Array(BASELINE_STEPS);
  /** answered operations per latency bucket per step, the same steps (ring of LAT_BUCKETS-wide rows) */
  private readonly historyLat = new Float64Array(BASELINE_STEPS * LAT_BUCKETS);
  private historyFilled = 0;
  /** steps written to the history rings so far (the next slot is this modulo their length) */
  private historyPos = 0;
  /** an operation has ended: steps before the first one (the cluster booting) are not history, or they would dilute the baseline */
  private sawTraffic = false;
  private step = -1;
  private stepHealthy = 0;
  private stepAll = 0;
  private readonly stepLat = new Float64Array(LAT_BUCKETS);
  /** served ops per step since the open record's fault, the last second of them (ring), and how many steps it has seen */
  private readonly recent = new Float64Array(STEPS_PER_SECOND);
  private recentSteps = 0;
  /**
   * The workload is paused since this time (null: it runs), and the pauses the step clock has
   * not passed yet: a paused step sends nothing, so it is neither history, nor lost throughput,
   * nor a low second, and a pause does not count toward settling.
   */
  private pausedSince: number | null = null;
  private pauses: (readonly [number, number])[] = [];
  /** last time anything showed the fault still biting */
  private lastTrouble = 0;
  /**
   * The hit operations in flight → the id of the record whose fault hit them ({@link claim}).
   * Every figure of a card is about its own: an operation hurt by an earlier fault and still
   * retrying is not this fault's (a card could read "21 ops hit, 27 failed" and "30 attempts per
   * op hit" otherwise, or, after a refresh storm, "2,048 ops hit" that the storm's fault hit).
   */
  private hitBy = new Map<number, number>();
  private version = 0;
  private cached: readonly FaultEvidence[] = [];
  private cachedVersion = -1;

  /** moves the 100 ms step clock to `t`, closing the steps before it */
  private at(t: number): void {
    const s = Math.floor(t / STEP_MS);
    // a long gap (a pause) closes at most the baseline's worth of empty steps one by one
    if (this.step < 0) this.step = s;
    else if (s - this.step > BASELINE_STEPS + 1) {
      this.closeStep();
      this.step = s - BASELINE_STEPS - 1;
    }
    while (this.step < s) {
      this.closeStep();
      this.step++;
    }
    const o = this.open;
    if (o !== null) {
      if (t > o.lastT) o.lastT = t;
      // a fault still in effect has not settled, however quiet the client is (a slow link that fails nothing)
      const quietSince = o.untilT !== null && o.untilT > this.lastTrouble ? o.untilT : this.lastTrouble;
      if (this.pausedSince === null && t - quietSince >= SETTLE_MS) {
        o.settledT = quietSince;
        this.finish();
      }
    }
  }

  /** the step being closed lies in a pause (by its midpoint) */
  private stepPaused(): boolean {
    const mid = this.step * STEP_MS + STEP_MS / 2;
    while (this.pauses.length > 0 && (this.pauses[0] as readonly [number, number])[1] <= this.step * STEP_MS) this.pauses.shift();
    if (this.pausedSince !== null && mid >= this.pausedSince) return true;
    return this.pauses.some(([from, to]) => mid >= from && mid < to);
  }

  private closeStep(): void {
    if (this.stepPaused()) {
      this.stepHealthy = 0;
      this.stepAll = 0;
      this.stepLat.fill(0);
      return;
    }
    const o = this.open;
    const v = this.stepHealthy;
    if (o !== null && o.healthyBaselinePerSec !== null && (v * 1000) / STEP_MS < STARVED_SHARE * o.healthyBaselinePerSec && this.step * STEP_MS >= o.t) {
      o.healthyLostMs += STEP_MS;
      this.lastTrouble = Math.max(this.lastTrouble, (this.step + 1) * STEP_MS);
      this.version++;
    }
    if (o !== null && this.step * STEP_MS >= o.t) {
      // the lowest whole second of served throughput since the fault
      this.recent[this.recentSteps % STEPS_PER_SECOND] = this.stepAll;
      this.recentSteps++;
      if (this.recentSteps >= STEPS_PER_SECOND) {
        let sum = 0;
        for (let i = 0; i < STEPS_PER_SECOND; i++) sum += this.recent[i] as number;
        const perSec = (sum * 1000) / (STEPS_PER_SECOND * STEP_MS);
        if (o.servedLowPerSec === null || perSec < o.servedLowPerSec) {
          o.servedLowPerSec = perSec;
          this.version++;
        }
      }
    }
    if (o === null && this.sawTraffic) {
      // the ring is the last BASELINE_STEPS steps that ran (a paused step is not in it)
      const at = this.historyPos++ % BASELINE_STEPS;
      this.history[at] = v;
      this.historyAll[at] = this.stepAll;
      this.historyLat.set(this.stepLat, at * LAT_BUCKETS);
      this.historyFilled = Math.min(BASELINE_STEPS, this.historyFilled + 1);
    }
    this.stepHealthy = 0;
    this.stepAll = 0;
    this.stepLat.fill(0);
  }

  /** p99 latency of the answers over the history, ms (its bucket's upper edge): at least 1 s of it, and some traffic in it */
  private slowBaseline(): number | null {
    if (this.historyFilled < STEPS_PER_SECOND) return null;
    const counts = new Float64Array(LAT_BUCKETS);
    let n = 0;
    for (let i = 0; i < this.historyLat.length; i++) {
      const b = i % LAT_BUCKETS;
      counts[b] = (counts[b] as number) + (this.historyLat[i] as number);
      n += this.historyLat[i] as number;
    }
    if (n === 0) return null;
    let seen = 0;
    for (let b = 0; b < LAT_BUCKETS; b++) {
      seen += counts[b] as number;
      if (seen >= 0.99 * n) return LAT_BASE_MS * LAT_RATIO ** (b + 1);
    }
    return LAT_BASE_MS * LAT_RATIO ** LAT_BUCKETS;
  }

  /** ops/s over the history in `ring`: at least 1 s of it, and some traffic in it */
  private baseline(ring: Float64Array = this.history): number | null {
    if (this.historyFilled < STEPS_PER_SECOND) return null;
    let s = 0; // slots not filled since the last reset hold 0
    for (let i = 0; i < BASELINE_STEPS; i++) s += ring[i] as number;
    return s > 0 ? (s * 1000) / (this.historyFilled * STEP_MS) : null;
  }

  private finish(): void {
    if (this.open === null) return;
    this.closed = [...this.closed.slice(-(MAX_EVIDENCE - 1)), { ...this.open }];
    this.open = null;
    this.history.fill(0);
    this.historyAll.fill(0);
    this.historyLat.fill(0);
    this.historyFilled = 0;
    this.version++;
  }

  private trouble(t: number): void {
    if (t > this.lastTrouble) this.lastTrouble = t;
  }

  /**
   * A fault at `t` that names `segments` segments. `healthyShare`: the segments no fault names
   * after it, as a share of those before it — the baseline was measured over the larger set, so
   * it is scaled to the segments that stay healthy (a failover of a node owning a third of
   * the segments leaves two thirds of the traffic healthy, and that is not a loss).
   */
  fault(t: number, action: FaultAction, node: number, segments: number, healthyShare = 1, detail?: string, durationMs?: number): void {
    this.at(t);
    if (this.open !== null) {
      this.open.settledT = null;
      this.open.supersededT = t;
      this.finish();
    }
    // the operations earlier faults hit that are still in flight stay theirs: counted apart, by fault
    const carried = new Map<number, number>();
    for (const from of this.hitBy.values()) carried.set(from, (carried.get(from) ?? 0) + 1);
    this.open = {
      id: this.nextId++, action, node, t, segments, ...(detail !== undefined ? { detail } : {}), untilT: durationMs !== undefined ? t + durationMs : null, settledT: null, supersededT: null, lastT: t, opsHit: 0, retries: 0, refreshRequests: 0, overBudget: 0,
      failed: 0, rejected: 0, stalledPeak: 0, inFlightPeak: 0, healthyBaselinePerSec: scaled(this.baseline(), healthyShare), healthyLostMs: 0,
      servedBaselinePerSec: this.baseline(this.historyAll), servedLowPerSec: null, slowBaselineMs: this.slowBaseline(), slowed: 0, slowestMs: 0,
      carried: [...carried].sort((a, b) => a[0] - b[0]).map(([from, ops]) => ({ from, ops, inFlight: ops, failed: 0 })),
    };
    this.recent.fill(0);
    this.recentSteps = 0;
    this.lastTrouble = t;
    this.version++;
  }

  /**
   * The open record, for an event at `t`: none for an event from before its fault (the live
   * streams arrive in batches of their own, so a client event can be folded in after the
   * control worker's fault that followed it).
   */
  private openAt(t: number): Mutable<FaultEvidence> | null {
    const o = this.open;
    return o !== null && t >= o.t ? o : null;
  }

  /**
   * The one attribution rule: an operation is hit by the fault whose record is open when it first
   * misses an attempt or ends without a real answer, and it stays that fault's until it ends. A
   * later fault does not take it over, whatever it does after that fault (retries, refresh
   * requests, attempts past its budget, a stall, its failure): those are the earlier fault's
   * storm, listed on the later card as {@link CarriedOps}. An operation that had missed nothing
   * before a fault is the fault's if it misses after it, whenever it started.
   * Counts `op` as hit by `o` if no fault has hit it yet; returns whether it is `o`'s.
   */
  private claim(op: number, o: Mutable<FaultEvidence>): boolean {
    const by = this.hitBy.get(op);
    if (by !== undefined) return by === o.id;
    this.hitBy.set(op, o.id);
    if (this.hitBy.size > MAX_HIT_IN_FLIGHT) this.hitBy.delete(this.hitBy.keys().next().value as number);
    o.opsHit++;
    return true;
  }

  /** an attempt started; `overBudget` when its number is the first beyond the operation's budget */
  attemptStart(t: number, op: number, attempt: number, overBudget: boolean): void {
    this.at(t);
    const o = this.openAt(t);
    if (o === null || this.hitBy.get(op) !== o.id) return;
    if (attempt > 1) o.retries++;
    if (overBudget) o.overBudget++;
    if (attempt > 1 || overBudget) this.version++;
  }

  /** an attempt ended; an unserved one marks its operation as hit ({@link claim}) */
  attemptEnd(t: number, op: number, served: boolean): void {
    this.at(t);
    const o = this.openAt(t);
    if (o === null || served) return;
    this.claim(op, o);
    // an earlier fault's operation missing again: the client is not quiet, whoever hit it
    this.trouble(t);
    this.version++;
  }

  /** a refresh request, by operation `op` (-1: none) */
  refreshRequest(t: number, op: number): void {
    this.at(t);
    const o = this.openAt(t);
    if (o === null || this.hitBy.get(op) !== o.id) return;
    o.refreshRequests++;
    this.version++;
  }

  /** an operation ended after `latencyMs`: `served` = a real answer, `healthy` = on a segment no fault named */
  opEnd(t: number, op: number, served: boolean, healthy: boolean, latencyMs = 0): void {
    this.at(t);
    this.sawTraffic = true;
    if (served) {
      this.stepAll++;
      if (healthy) this.stepHealthy++;
      const b = latBucket(latencyMs);
      this.stepLat[b] = (this.stepLat[b] as number) + 1;
    }
    const o = this.openAt(t);
    // ended without a real answer while a record was open: hit, by this fault unless an earlier one hit it first
    const failedHere = !served && o !== null;
    const mine = failedHere && this.claim(op, o);
    const by = this.hitBy.get(op);
    this.hitBy.delete(op);
    // an earlier fault's operation that the open record found in flight has ended (whenever its event says)
    const open = this.open;
    const c = by === undefined || open === null || by === open.id ? -1 : open.carried.findIndex((x) => x.from === by);
    if (c >= 0 && open !== null) {
      const was = open.carried[c] as CarriedOps;
      const now = { ...was, inFlight: Math.max(0, was.inFlight - 1), failed: was.failed + (failedHere ? 1 : 0) };
      open.carried = open.carried.map((x, i) => (i === c ? now : x));
      this.version++;
    }
    if (o === null) return;
    if (served) {
      // answered, no attempt missed, but far slower than nearly every answer before the fault (a slow link, a busy node)
      if (by === undefined && o.slowBaselineMs !== null && latencyMs > SLOWED_FACTOR * o.slowBaselineMs) {
        o.slowed++;
        if (latencyMs > o.slowestMs) o.slowestMs = latencyMs;
        this.trouble(t);
        this.version++;
      }
      return;
    }
    if (mine) o.failed++;
    this.trouble(t);
    this.version++;
  }

  arrivalRejected(t: number): void {
    this.at(t);
    const o = this.openAt(t);
    if (o === null) return;
    o.rejected++;
    this.trouble(t);
    this.version++;
  }

  /** the workload stopped sending at `t` (Pause) */
  pause(t: number): void {
    if (this.pausedSince !== null) return;
    this.at(t);
    this.pausedSince = t;
    this.version++;
  }

  /** the workload sends again from `t` (Start after Pause): the pause does not count toward settling the open record */
  resume(t: number): void {
    const from = this.pausedSince;
    if (from === null) return;
    const to = Math.max(from, t);
    this.pauses.push([from, to]);
    this.pausedSince = null;
    // the quiet time before the pause counts; the pause itself does not (trouble during it: quiet from the resume)
    if (this.open !== null) this.lastTrouble = this.lastTrouble <= from ? this.lastTrouble + (to - from) : Math.max(this.lastTrouble, to);
    this.version++;
  }

  /** the in-flight and stalled gauges at `t` */
  gauges(t: number, inFlight: number, stalled: number): void {
    this.at(t);
    const o = this.openAt(t);
    if (o === null) return;
    if (stalled > 0) this.trouble(t);
    // an earlier fault's operations stall, not this one's (all of them from 1 s after this fault on: they started before it)
    const own = ownStalled(o, stalled);
    if (inFlight > o.inFlightPeak || own > o.stalledPeak) {
      o.inFlightPeak = Math.max(o.inFlightPeak, inFlight);
      o.stalledPeak = Math.max(o.stalledPeak, own);
      this.version++;
    }
  }

  /** every record, oldest first (the open one last); the same array while nothing changed */
  list(): readonly FaultEvidence[] {
    if (this.cachedVersion !== this.version) {
      this.cached = this.open === null ? this.closed : [...this.closed, { ...this.open }];
      this.cachedVersion = this.version;
    }
    return this.cached;
  }

  /** a copy of the state (see {@link load}) */
  save(): FaultEvidenceState {
    return {
      open: this.open === null ? null : { ...this.open },
      closed: this.closed.slice(),
      nextId: this.nextId,
      history: this.history.slice(),
      historyAll: this.historyAll.slice(),
      historyLat: this.historyLat.slice(),
      historyFilled: this.historyFilled,
      historyPos: this.historyPos,
      sawTraffic: this.sawTraffic,
      step: this.step,
      stepHealthy: this.stepHealthy,
      stepAll: this.stepAll,
      stepLat: this.stepLat.slice(),
      recent: this.recent.slice(),
      recentSteps: this.recentSteps,
      pausedSince: this.pausedSince,
      pauses: this.pauses.slice(),
      lastTrouble: this.lastTrouble,
      hitBy: [...this.hitBy].flat(),
    };
  }

  /** resumes from a saved state */
  load(st: FaultEvidenceState): void {
    this.open = st.open === null ? null : { ...st.open };
    this.closed = st.closed.slice();
    this.nextId = st.nextId;
    this.history.set(st.history);
    this.historyAll.set(st.historyAll);
    this.historyLat.set(st.historyLat);
    this.historyFilled = st.historyFilled;
    this.historyPos = st.historyPos;
    this.sawTraffic = st.sawTraffic;
    this.step = st.step;
    this.stepHealthy = st.stepHealthy;
    this.stepAll = st.stepAll;
    this.stepLat.set(st.stepLat);
    this.recent.set(st.recent);
    this.recentSteps = st.recentSteps;
    this.pausedSince = st.pausedSince;
    this.pauses = st.pauses.slice();
    this.lastTrouble = st.lastTrouble;
    this.hitBy = new Map();
    for (let i = 0; i + 1 < st.hitBy.length; i += 2) this.hitBy.set(st.hitBy[i] as number, st.hitBy[i + 1] as number);
    this.version++;
  }

  clear(): void {
    this.open = null;
    this.closed = [];
    this.nextId = 1;
    this.history.fill(0);
    this.historyAll.fill(0);
    this.historyLat.fill(0);
    this.historyFilled = 0;
    this.historyPos = 0;
    this.sawTraffic = false;
    this.step = -1;
    this.stepHealthy = 0;
    this.stepAll = 0;
    this.stepLat.fill(0);
    this.recent.fill(0);
    this.recentSteps = 0;
    this.pausedSince = null;
    this.pauses = [];
    this.lastTrouble = 0;
    this.hitBy.clear();
    this.version++;
  }
}

/** the record still open (the newest, while its fault's effects last), or null */
export function openRecord(records: readonly FaultEvidence[]): FaultEvidence | null {
  const last = records[records.length - 1];
  return last !== undefined && last.settledT === null && last.supersededT === null ? last : null;
}

/**
 * Of `stalled` operations at a time in `e`'s record, those that are not earlier faults' ({@link
 * CarriedOps}): exact from 1 s after its fault on (a carried operation in flight started before
 * the fault, so it is stalled), a lower bound in the first second.
 */
export function ownStalled(e: FaultEvidence, stalled: number): number {
  let carried = 0;
  for (const c of e.carried) carried += c.inFlight;
  return Math.max(0, stalled - carried);
}

/** `perSec` is below {@link STARVED_SHARE} of a known, positive rate before the fault */
export function fellBelowBaseline(perSec: number, baseline: number | null): baseline is number {
  return baseline !== null && baseline > 0 && perSec < STARVED_SHARE * baseline;
}

/** a baseline scaled to a share of the segments it was measured over (null stays null; a share outside 0..1 is clamped) */
function scaled(baseline: number | null, share: number): number | null {
  if (baseline === null) return null;
  const k = Number.isFinite(share) ? Math.min(1, Math.max(0, share)) : 1;
  return baseline * k;
}
