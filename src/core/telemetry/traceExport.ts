/**
 * Chrome trace-event JSON (opens in Perfetto and chrome://tracing) from the
 * event stream, for design reviews. Three processes:
 *   1 "operations" — one track per virtual user (per operation without one);
 *     each operation is a slice enclosing its attempts (named by status or
 *     error), refresh waits and backoffs (`backoff <delay> ms`);
 *   2 "refresh" — one slice per executed map refresh, on as many tracks as
 *     refreshes overlap (one unless coalescing is off);
 *   3 "cluster" — instant events for faults and topology changes.
 * Times are µs (whole numbers, so nested slices nest exactly).
 * {@link ChromeTraceBuilder} is a sink, so a replay can export without
 * keeping the events.
 */
import type { TelemetrySink, ZarisEvent } from './events';

export type TraceArg = string | number | boolean | null | readonly number[];
export type TraceArgs = Readonly<Record<string, TraceArg>>;

/** One record of the Chrome trace-event format. */
export interface TraceEvent {
  readonly name: string;
  /** X = complete slice, i = instant, M = metadata */
  readonly ph: 'X' | 'i' | 'M';
  /** µs since the run started */
  readonly ts: number;
  /** µs (X only) */
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly cat?: string;
  /** instant scope: thread */
  readonly s?: 't';
  readonly args?: TraceArgs;
}

export type TraceMeta = Readonly<Record<string, string | number | boolean | null>>;

export interface ChromeTrace {
  readonly traceEvents: readonly TraceEvent[];
  readonly displayTimeUnit: 'ms';
  readonly metadata: TraceMeta;
}

export const TRACE_PID = { operations: 1, refresh: 2, cluster: 3 } as const;
const CLUSTER_TID = { faults: 1, topology: 2 } as const;
/** tids of operations without a virtual user start here (virtual users use vu + 1) */
const OP_TID_BASE = 1_000_000;

const us = (ms: number): number => Math.round(ms * 1000);
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

interface OpenSlice {
  readonly t: number;
  readonly name: string;
  readonly cat: string;
  readonly args: Record<string, TraceArg>;
}

interface LiveOp {
  readonly tid: number;
  readonly start: number;
  readonly name: string;
  readonly args: Record<string, TraceArg>;
  attempt: OpenSlice | null;
  wait: OpenSlice | null;
  /** a backoff ends when the next attempt starts (or the op ends) */
  backoff: (OpenSlice & { readonly end: number }) | null;
}

interface LiveRefresh {
  readonly t: number;
  readonly lane: number;
  readonly startedBy: number | null;
  callers: number;
}

export class ChromeTraceBuilder implements TelemetrySink {
  private readonly out: TraceEvent[] = [];
  private readonly ops = new Map<number, LiveOp>();
  private readonly refreshes = new Map<number, LiveRefresh>();
  /** refresh track i is busy while it holds a refresh id */
  private readonly lanes: (number | null)[] = [];
  private readonly named = new Set<string>();
  private lastT = 0;
  private events = 0;

  emit(e: ZarisEvent): void {
    this.lastT = Math.max(this.lastT, e.t);
    this.events++;
    switch (e.type) {
      case 'op.start': {
        const tid = e.vu !== undefined ? e.vu + 1 : OP_TID_BASE + e.op;
        this.thread(TRACE_PID.operations, tid, e.vu !== undefined ? `vu ${e.vu}` : `op ${e.op}`);
        const args: Record<string, TraceArg> = { op: e.op, kind: e.kind, key: e.key, segment: e.segment };
        if (e.vu !== undefined) args.vu = e.vu;
        if (e.cond !== undefined) args.cond = JSON.stringify(e.cond);
        if (e.deadline !== undefined) args.deadline = e.deadline;
        if (e.budget !== undefined) args.budget = e.budget;
        this.ops.set(e.op, { tid, start: e.t, name: `${e.kind} ${e.key}`, args, attempt: null, wait: null, backoff: null });
        return;
      }
      case 'attempt.start': {
        const op = this.op(e.op, e.t);
        this.closeChildren(op, e.t);
        op.attempt = { t: e.t, name: 'in flight', cat: 'attempt', args: { op: e.op, attempt: e.attempt, node: e.node, epoch: e.epoch } };
        return;
      }
      case 'attempt.end': {
        const op = this.op(e.op, e.t);
        const a = op.attempt ?? { t: e.t - e.latencyMs, name: '', cat: 'attempt', args: { op: e.op, attempt: e.attempt, node: e.node } };
        this.slice(op.tid, a.t, e.t, (e.status ?? e.error) as string, 'attempt', { ...a.args, latencyMs: round3(e.latencyMs) });
        op.attempt = null;
        return;
      }
      case 'backoff': {
        const op = this.op(e.op, e.t);
        this.closeChildren(op, e.t);
        const name = `backoff ${round3(e.delayMs)} ms`;
        op.backoff = { t: e.t, end: e.t + e.delayMs, name, cat: 'backoff', args: { op: e.op, attempt: e.attempt, delayMs: round3(e.delayMs), after: (e.status ?? e.error) as string } };
        return;
      }
      case 'refresh.request':
        if (e.op !== null) {
          const op = this.op(e.op, e.t);
          this.closeChildren(op, e.t);
          op.wait = { t: e.t, name: 'refresh wait', cat: 'refreshWait', args: { op: e.op, cause: e.cause, refresh: null, how: null } };
        }
        return;
      case 'refresh.coalesced': {
        const r = this.refreshes.get(e.refresh);
        if (r) r.callers++;
        this.tagWait(e.op, e.refresh, 'coalesced');
        return;
      }
      case 'refresh.start': {
        let lane = this.lanes.indexOf(null);
        if (lane === -1) lane = this.lanes.push(null) - 1;
        this.lanes[lane] = e.refresh;
        this.thread(TRACE_PID.refresh, lane + 1, lane === 0 ? 'refresh' : `refresh (overlapping ${lane + 1})`);
        this.refreshes.set(e.refresh, { t: e.t, lane, startedBy: e.op, callers: e.op === null ? 0 : 1 });
        this.tagWait(e.op, e.refresh, 'started');
        return;
      }
      case 'refresh.end': {
        const r = this.refreshes.get(e.refresh);
        if (r === undefined) return;
        this.refreshes.delete(e.refresh);
        this.lanes[r.lane] = null;
        this.push({
          name: `refresh ${e.refresh}${e.ok ? '' : ' (failed)'}`,
          ph: 'X',
          ts: us(r.t),
          dur: us(e.t) - us(r.t),
          pid: TRACE_PID.refresh,
          tid: r.lane + 1,
          cat: 'refresh',
          args: { refresh: e.refresh, ok: e.ok, epochBefore: e.epochBefore, epochAfter: e.epochAfter, callers: r.callers, startedBy: r.startedBy, node: e.node, fetches: e.fetches },
        });
        return;
      }
      case 'refresh.debounced':
        this.tagWait(e.op, e.refresh, 'debounced');
        if (e.op !== null) {
          const op = this.ops.get(e.op);
          if (op) this.closeChildren(op, e.t);
        }
        return;
      case 'refresh.waitAbandoned':
        if (e.op !== null) {
          const op = this.ops.get(e.op);
          if (op?.wait) op.wait.args.abandoned = true;
          if (op) this.closeChildren(op, e.t);
        }
        return;
      case 'op.end': {
        const op = this.op(e.op, e.t);
        this.endOp(e.op, op, e.t, { outcome: (e.status ?? e.error) as string, attempts: e.attempts, reason: e.reason, latencyMs: round3(e.latencyMs), ...(e.version !== undefined ? { version: e.version } : {}) });
        return;
      }
      case 'fault':
        this.thread(TRACE_PID.cluster, CLUSTER_TID.faults, 'faults');
        this.push({ name: `${e.action} node ${e.node}`, ph: 'i', s: 't', ts: us(e.t), pid: TRACE_PID.cluster, tid: CLUSTER_TID.faults, cat: 'fault', args: { action: e.action, node: e.node, segments: e.segments, ...(e.detail !== undefined ? { detail: e.detail } : {}) } });
        return;
      case 'topology':
        this.thread(TRACE_PID.cluster, CLUSTER_TID.topology, 'topology');
        this.push({ name: `${e.change} node ${e.node}`, ph: 'i', s: 't', ts: us(e.t), pid: TRACE_PID.cluster, tid: CLUSTER_TID.topology, cat: 'topology', args: { change: e.change, node: e.node, epoch: e.epoch, segments: e.segments } });
        return;
    }
  }

  /** the trace; slices still open end at the last event ("in flight") */
  finish(meta: TraceMeta = {}): ChromeTrace {
    const end = this.lastT;
    for (const [id, op] of [...this.ops]) this.endOp(id, op, end, { outcome: 'in flight' });
    for (const [id, r] of [...this.refreshes]) {
      this.refreshes.delete(id);
      this.push({ name: `refresh ${id} (in flight)`, ph: 'X', ts: us(r.t), dur: us(end) - us(r.t), pid: TRACE_PID.refresh, tid: r.lane + 1, cat: 'refresh', args: { refresh: id, ok: null, callers: r.callers, startedBy: r.startedBy } });
    }
    const processes = (Object.entries(TRACE_PID) as [string, number][]).flatMap(([name, pid]): TraceEvent[] => [
      { name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name } },
      { name: 'process_sort_index', ph: 'M', ts: 0, pid, tid: 0, args: { sort_index: pid } },
    ]);
    return { traceEvents: [...processes, ...this.out], displayTimeUnit: 'ms', metadata: { generator: 'Zaris Churn Lab', events: this.events, endMs: end, ...meta } };
  }

  private push(e: TraceEvent): void {
    this.out.push(e);
  }

  private thread(pid: number, tid: number, name: string): void {
    const k = `${pid}:${tid}`;
    if (this.named.has(k)) return;
    this.named.add(k);
    this.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name } });
  }

  private slice(tid: number, t0: number, t1: number, name: string, cat: string, args: TraceArgs): void {
    const ts = us(t0);
    this.push({ name, ph: 'X', ts, dur: Math.max(0, us(t1) - ts), pid: TRACE_PID.operations, tid, cat, args });
  }

  /** an op seen first mid-stream (a trace of a window) gets its own track */
  private op(id: number, t: number): LiveOp {
    let op = this.ops.get(id);
    if (op === undefined) {
      const tid = OP_TID_BASE + id;
      this.thread(TRACE_PID.operations, tid, `op ${id}`);
      op = { tid, start: t, name: `op ${id}`, args: { op: id }, attempt: null, wait: null, backoff: null };
      this.ops.set(id, op);
    }
    return op;
  }

  private tagWait(opId: number | null, refresh: number, how: string): void {
    if (opId === null) return;
    const w = this.ops.get(opId)?.wait;
    if (w && w.args.refresh === null) {
      w.args.refresh = refresh;
      w.args.how = how;
    }
  }

  /** closes the op's open wait / backoff / attempt at `t` */
  private closeChildren(op: LiveOp, t: number): void {
    if (op.wait) {
      const w = op.wait;
      this.slice(op.tid, w.t, t, w.args.how === 'debounced' ? 'refresh debounced' : w.name, w.cat, w.args);
      op.wait = null;
    }
    if (op.backoff) {
      const b = op.backoff;
      this.slice(op.tid, b.t, Math.min(b.end, t), b.name, b.cat, b.args);
      op.backoff = null;
    }
    if (op.attempt) {
      const a = op.attempt;
      this.slice(op.tid, a.t, t, a.name, a.cat, a.args);
      op.attempt = null;
    }
  }

  private endOp(id: number, op: LiveOp, t: number, end: TraceArgs): void {
    this.closeChildren(op, t);
    this.ops.delete(id);
    this.slice(op.tid, op.start, t, op.name, 'op', { ...op.args, ...end });
  }
}

/** Chrome trace-event JSON of a recorded run; `meta` lands in `metadata` (scenario, seed, …). */
export function toChromeTrace(events: Iterable<ZarisEvent>, meta: TraceMeta = {}): ChromeTrace {
  const b = new ChromeTraceBuilder();
  for (const e of events) b.emit(e);
  return b.finish(meta);
}
