/**
 * Keeps a whole run's per-operation timeline (attempts, refresh waits,
 * backoffs) plus refresh spans and cluster events, in bounded memory, and
 * answers window queries for the timeline renderer. When the stored
 * segments reach the cap, it keeps a deterministic sample of operations:
 * the ops whose hash is ≡ 0 mod 2^k, raising k until the count fits (a
 * factor of 2^k). Refresh spans, faults and topology are always kept.
 */
import type { ClusterEvent, TelemetrySink, ZarisEvent } from '../telemetry/events';
import { eventOutcome, outcomeCode, SEG, STRIDE, storyOf, WAIT_HOW, type OpRecord, type OpStory, type RefreshLookup, type WaitHow } from './opRecord';
import { keepsOp } from './opSampling';
import { laneView, type LaneMode, type LanesResult } from './timelineLanes';

/** default cap on stored segments (attempts + backoffs + waits + one per op) */
export const DEFAULT_MAX_SEGMENTS = 1_500_000;

export interface TimelineOptions {
  /** cap on stored segments; above it the recorder samples operations */
  readonly maxSegments?: number;
  /** record only these operations (e.g. one op's story) */
  readonly only?: (op: number) => boolean;
}

/** One executed map refresh. */
export interface RefreshSpan {
  readonly refresh: number;
  /** its number among the run's executed refreshes (1, 2, …): what the refresh lane and the op stories call it */
  readonly no: number;
  readonly t0: number;
  /** end, or the recording's end while still in flight */
  readonly t1: number;
  readonly open: boolean;
  readonly ok: boolean | null;
  readonly epochBefore: number | null;
  readonly epochAfter: number | null;
  /** operations that rode it (the starter included) */
  readonly callers: number;
  /** the op that started it (null: connect, or unattributed) */
  readonly startedBy: number | null;
  readonly node: number | null;
  readonly fetches: number | null;
}

type MutableSpan = { -readonly [K in keyof RefreshSpan]: RefreshSpan[K] };

export interface SamplingInfo {
  /** one op in `factor` is kept (1 = all) */
  readonly factor: number;
  readonly keptOps: number;
  /** ops dropped by sampling */
  readonly droppedOps: number;
  /** stored segments now */
  readonly segments: number;
  readonly maxSegments: number;
}

/** what the timeline reads of a recording (the recorder, or the recorder as of a time) */
export type TimelineAt = Pick<TimelineRecorder, 'refreshSpans' | 'faults' | 'story' | 'timeRange' | 'sampling'> & {
  lanes(mode: LaneMode, t0: number, t1: number, maxLanes: number): LanesResult;
};

/**
 * `r` as it stood at `t`: null if it had not started; an op that ended by
 * then as it is; otherwise in flight, with the steps begun by `t` (an
 * attempt or wait that ended later is open again). A backoff's end is known
 * when it starts, so it is kept.
 */
export function clipRecord(r: OpRecord, t: number): OpRecord | null {
  if (r.startMs > t) return null;
  if (r.endMs !== null && r.endMs <= t) return r;
  const segs: number[] = [];
  const s = r.segs;
  let openAttempt = -1;
  let openWait = -1;
  for (let i = 0; i < s.length; i += STRIDE) {
    if ((s[i + 1] as number) > t) break;
    const at = segs.length;
    for (let k = 0; k < STRIDE; k++) segs.push(s[i + k] as number);
    const end = s[i + 2] as number;
    if (s[i] === SEG.attempt && (Number.isNaN(end) || end > t)) {
      segs[at + 2] = NaN;
      segs[at + 6] = -1;
      openAttempt = at;
    } else if (s[i] === SEG.wait && (Number.isNaN(end) || end > t)) {
      segs[at + 2] = NaN;
      segs[at + 6] = 0;
      openWait = at;
    }
  }
  return { ...r, endMs: null, outcome: null, reason: null, attempts: 0, version: null, segs, openAttempt, openWait };
}

export class TimelineRecorder implements TelemetrySink {
  readonly maxSegments: number;
  private readonly only: ((op: number) => boolean) | undefined;
  /** kept ops in start order */
  private ops: OpRecord[] = [];
  private readonly byId = new Map<number, OpRecord>();
  private readonly openOps = new Set<OpRecord>();
  private readonly spans: MutableSpan[] = [];
  private readonly spanById = new Map<number, MutableSpan>();
  private readonly cluster: ClusterEvent[] = [];
  /** refresh id → times callers joined it (coalesced), for its callers as of a time */
  private readonly joins = new Map<number, number[]>();
  private count = 0;
  private k = 0;
  private dropped = 0;
  private maxClosedMs = 0;
  private firstT: number | null = null;
  private lastT = 0;
  /** refreshes that did nothing (debounced) */
  debounced = 0;

  constructor(options: TimelineOptions = {}) {
    this.maxSegments = Math.max(1, options.maxSegments ?? DEFAULT_MAX_SEGMENTS);
    this.only = options.only;
  }

  emit(e: ZarisEvent): void {
    if (this.firstT === null) this.firstT = e.t;
    if (e.t > this.lastT) this.lastT = e.t;
    switch (e.type) {
      case 'op.start':
        return this.startOp(e);
      case 'attempt.start': {
        const r = this.byId.get(e.op);
        if (!r) return;
        this.closeWait(r, e.t);
        r.openAttempt = this.push(r, SEG.attempt, e.t, NaN, e.attempt, e.node ?? -1, e.epoch, -1);
        return;
      }
      case 'attempt.end': {
        const r = this.byId.get(e.op);
        if (!r) return;
        const code = outcomeCode(eventOutcome(e));
        if (r.openAttempt >= 0) {
          r.segs[r.openAttempt + 2] = e.t;
          r.segs[r.openAttempt + 6] = code;
          r.openAttempt = -1;
        } else this.push(r, SEG.attempt, e.t - e.latencyMs, e.t, e.attempt, e.node ?? -1, -1, code);
        return;
      }
      case 'backoff': {
        const r = this.byId.get(e.op);
        if (!r) return;
        this.closeWait(r, e.t);
        this.push(r, SEG.backoff, e.t, e.t + e.delayMs, e.attempt, e.delayMs, outcomeCode(eventOutcome(e)), 0);
        return;
      }
      case 'refresh.request': {
        const r = e.op === null ? undefined : this.byId.get(e.op);
        if (!r) return;
        this.closeWait(r, e.t);
        r.openWait = this.push(r, SEG.wait, e.t, NaN, -1, 0, e.cause === 'connect' ? -1 : outcomeCode(e.cause), 0);
        return;
      }
      case 'refresh.coalesced': {
        const s = this.spanById.get(e.refresh);
        if (s) {
          s.callers++;
          const j = this.joins.get(e.refresh);
          if (j) j.push(e.t);
          else this.joins.set(e.refresh, [e.t]);
        }
        this.tagWait(e.op, e.refresh, 'coalesced');
        return;
      }
      case 'refresh.start': {
        const s: MutableSpan = { refresh: e.refresh, no: this.spans.length + 1, t0: e.t, t1: e.t, open: true, ok: null, epochBefore: null, epochAfter: null, callers: e.op === null ? 0 : 1, startedBy: e.op, node: null, fetches: null };
        this.spans.push(s);
        this.spanById.set(e.refresh, s);
        this.tagWait(e.op, e.refresh, 'started');
        return;
      }
      case 'refresh.end': {
        const s = this.spanById.get(e.refresh);
        if (!s) return;
        Object.assign(s, { t1: e.t, open: false, ok: e.ok, epochBefore: e.epochBefore, epochAfter: e.epochAfter, node: e.node, fetches: e.fetches });
        return;
      }
      case 'refresh.debounced': {
        this.debounced++;
        const r = this.tagWait(e.op, e.refresh, 'debounced');
        if (r) this.closeWait(r, e.t);
        return;
      }
      case 'refresh.waitAbandoned': {
        const r = e.op === null ? undefined : this.byId.get(e.op);
        if (!r || r.openWait < 0) return;
        r.segs[r.openWait + 6] = 1;
        this.closeWait(r, e.t);
        return;
      }
      case 'op.end': {
        const r = this.byId.get(e.op);
        if (!r) return;
        this.closeWait(r, e.t);
        if (r.openAttempt >= 0) r.segs[r.openAttempt + 2] = e.t;
        r.openAttempt = -1;
        r.endMs = e.t;
        r.outcome = eventOutcome(e);
        r.reason = e.reason;
        r.attempts = e.attempts;
        r.version = e.version ?? null;
        this.openOps.delete(r);
        this.maxClosedMs = Math.max(this.maxClosedMs, e.t - r.startMs);
        return;
      }
      case 'fault':
      case 'topology':
        this.cluster.push(e);
        return;
    }
  }

  private startOp(e: Extract<ZarisEvent, { type: 'op.start' }>): void {
    if (this.only !== undefined && !this.only(e.op)) return;
    if (!keepsOp(e.op, this.k)) {
      this.dropped++;
      return;
    }
    const r: OpRecord = {
      op: e.op,
      kind: e.kind,
      key: e.key,
      segment: e.segment,
      vu: e.vu ?? null,
      cond: e.cond ?? null,
      deadline: e.deadline ?? null,
      budget: e.budget ?? null,
      startMs: e.t,
      endMs: null,
      outcome: null,
      reason: null,
      attempts: 0,
      version: null,
      segs: [],
      openAttempt: -1,
      openWait: -1,
    };
    const last = this.ops[this.ops.length - 1];
    if (last === undefined || last.startMs <= e.t) this.ops.push(r);
    else this.ops.splice(this.ops.findIndex((x) => x.startMs > e.t), 0, r);
    this.byId.set(e.op, r);
    this.openOps.add(r);
    this.grow(1);
  }

  /** appends one segment; returns its index in `segs` */
  private push(r: OpRecord, kind: number, t0: number, t1: number, a: number, b: number, c: number, d: number): number {
    const at = r.segs.length;
    r.segs.push(kind, t0, t1, a, b, c, d);
    this.grow(1);
    return at;
  }

  private tagWait(op: number | null, refresh: number, how: WaitHow): OpRecord | undefined {
    const r = op === null ? undefined : this.byId.get(op);
    if (!r || r.openWait < 0 || r.segs[r.openWait + 3] !== -1) return r;
    r.segs[r.openWait + 3] = refresh;
    r.segs[r.openWait + 4] = WAIT_HOW.indexOf(how);
    return r;
  }

  private closeWait(r: OpRecord, t: number): void {
    if (r.openWait < 0) return;
    r.segs[r.openWait + 2] = t;
    r.openWait = -1;
  }

  private grow(n: number): void {
    this.count += n;
    while (this.count > this.maxSegments && this.ops.length > 0) this.resample();
  }

  /** halves the kept set: keeps ops with hash ≡ 0 mod 2^(k+1) */
  private resample(): void {
    this.k++;
    const kept: OpRecord[] = [];
    let count = 0;
    for (const r of this.ops) {
      if (keepsOp(r.op, this.k)) {
        kept.push(r);
        count += 1 + r.segs.length / STRIDE;
      } else {
        this.byId.delete(r.op);
        this.openOps.delete(r);
        this.dropped++;
      }
    }
    this.ops = kept;
    this.count = count;
  }

  get sampling(): SamplingInfo {
    return { factor: 2 ** this.k, keptOps: this.ops.length, droppedOps: this.dropped, segments: this.count, maxSegments: this.maxSegments };
  }

  /** first and last event time seen (ms since run start) */
  timeRange(): { readonly startMs: number; readonly endMs: number } {
    return { startMs: this.firstT ?? 0, endMs: this.lastT };
  }

  /**
   * The recording as it stood at `t`: what a recorder fed only the events
   * up to `t` would answer (the sampling is the whole recording's). The
   * replay's timeline reads this, so it shows the state at the cursor.
   */
  asOf(t: number): TimelineAt {
    if (t >= this.lastT) return this;
    return {
      lanes: (mode, t0, t1, maxLanes) => this.lanes(mode, t0, t1, maxLanes, t),
      refreshSpans: (t0, t1) => this.refreshSpans(t0, t1, t),
      faults: () => this.faults(t),
      story: (op) => this.story(op, t),
      timeRange: () => ({ startMs: Math.min(this.firstT ?? 0, t), endMs: Math.max(0, Math.min(this.lastT, t)) }),
      sampling: this.sampling,
    };
  }

  /** lanes (one per op, or per virtual user) with what intersects [t0, t1], at most maxLanes */
  lanes(mode: LaneMode, t0: number, t1: number, maxLanes: number, asOf = Infinity): LanesResult {
    t1 = Math.min(t1, asOf);
    let lo = t0 - this.maxClosedMs;
    for (const r of this.openOps) lo = Math.min(lo, r.startMs);
    let a = 0;
    let b = this.ops.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if ((this.ops[m] as OpRecord).startMs < lo) a = m + 1;
      else b = m;
    }
    const candidates: OpRecord[] = [];
    for (let i = a; i < this.ops.length; i++) {
      const r = this.ops[i] as OpRecord;
      if (r.startMs > t1) break;
      if ((r.endMs ?? Infinity) < t0) continue;
      const c = asOf === Infinity ? r : clipRecord(r, asOf);
      if (c !== null) candidates.push(c);
    }
    return laneView(mode, candidates, t0, t1, Math.max(0, Math.floor(maxLanes)), Math.min(this.lastT, asOf), 2 ** this.k, this.lookup(asOf));
  }

  /** executed refreshes intersecting [t0, t1] */
  refreshSpans(t0: number, t1: number, asOf = Infinity): RefreshSpan[] {
    const out: RefreshSpan[] = [];
    const now = Math.min(this.lastT, asOf);
    for (const s of this.spans) {
      if (s.t0 > asOf) break;
      const open = s.open || s.t1 > asOf;
      const end = open ? now : s.t1;
      if (s.t0 > t1 || end < t0) continue;
      if (!open) out.push({ ...s });
      else if (s.open) out.push({ ...s, t1: end });
      else {
        const joined = (this.joins.get(s.refresh) ?? []).filter((x) => x <= asOf).length;
        out.push({ ...s, t1: end, open: true, ok: null, epochBefore: null, epochAfter: null, node: null, fetches: null, callers: (s.startedBy === null ? 0 : 1) + joined });
      }
    }
    return out;
  }

  /** every fault and topology event up to `asOf`, in time order */
  faults(asOf = Infinity): readonly ClusterEvent[] {
    if (asOf === Infinity) return this.cluster;
    let n = 0;
    while (n < this.cluster.length && (this.cluster[n] as ClusterEvent).t <= asOf) n++;
    return this.cluster.slice(0, n);
  }

  /** the story of `op`, or null when it was not recorded (sampled out, or never seen) */
  story(op: number, asOf = Infinity): OpStory | null {
    const r = this.byId.get(op);
    if (r === undefined) return null;
    const rec = asOf === Infinity ? r : clipRecord(r, asOf);
    if (rec === null) return null;
    return storyOf(rec, this.lookup(asOf));
  }

  /** the run's refreshes as the stories and lanes name them, as of `asOf` */
  private lookup(asOf: number): RefreshLookup {
    return {
      ok: (id) => {
        const s = this.spanById.get(id);
        return s === undefined || s.open || s.t1 > asOf ? null : s.ok;
      },
      no: (id) => this.spanById.get(id)?.no ?? null,
      lastOkBefore: (t) => {
        let best: number | null = null;
        for (const s of this.spans) {
          if (s.t0 > t) break;
          if (!s.open && s.ok === true && s.t1 <= t) best = s.no;
        }
        return best;
      },
    };
  }
}
