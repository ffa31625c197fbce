/**
 * An imported event log kept as the columnar batches it arrived in from the
 * import worker (transferred, never copied into objects): time lookups by
 * binary search over the `t` columns, windows handed to listeners as
 * zero-copy sub-batches, objects decoded only for exports and for the few
 * cluster events the cluster view is rebuilt from.
 */
import { decodeEvent, EventBatchBuilder, type EventBatch } from '../../core/telemetry/eventCodec';
import { EVENT_TYPES, type ClusterEvent, type ZarisEvent } from '../../core/telemetry/events';
import type { TopologyFacts } from '../../core/replay/topologyView';

const TOPOLOGY = EVENT_TYPES.indexOf('topology');
const FAULT = EVENT_TYPES.indexOf('fault');
const ATTEMPT_START = EVENT_TYPES.indexOf('attempt.start');

/** rows [from, to) of a batch, sharing its buffers */
export function sliceBatch(b: EventBatch, from: number, to: number): EventBatch {
  return {
    n: to - from,
    t: b.t.subarray(from, to),
    type: b.type.subarray(from, to),
    op: b.op.subarray(from, to),
    a: b.a.subarray(from, to),
    b: b.b.subarray(from, to),
    c: b.c.subarray(from, to),
    d: b.d.subarray(from, to),
    e: b.e.subarray(from, to),
    f: b.f.subarray(from, to),
    s: b.s.subarray(from, to),
    strings: b.strings,
  };
}

export class ColumnarLog {
  /** global index of each batch's first row */
  private readonly starts: number[] = [];
  readonly length: number;

  constructor(readonly batches: readonly EventBatch[]) {
    let n = 0;
    for (const b of batches) {
      this.starts.push(n);
      n += b.n;
    }
    this.length = n;
  }

  static fromEvents(events: readonly ZarisEvent[], chunk = 1 << 15): ColumnarLog {
    const out: EventBatch[] = [];
    const b = new EventBatchBuilder(Math.min(chunk, Math.max(16, events.length)));
    for (const e of events) {
      b.push(e);
      if (b.length >= chunk) out.push(b.take());
    }
    if (b.length > 0) out.push(b.take());
    return new ColumnarLog(out);
  }

  private tAt(i: number): number {
    let k = this.starts.length - 1;
    let lo = 0;
    while (lo < k) {
      const m = (lo + k + 1) >> 1;
      if ((this.starts[m] as number) <= i) lo = m;
      else k = m - 1;
    }
    const b = this.batches[lo] as EventBatch;
    return b.t[i - (this.starts[lo] as number)] as number;
  }

  /** time of the last event (0 for an empty log) */
  get lastT(): number {
    return this.length === 0 ? 0 : this.tAt(this.length - 1);
  }

  /** index of the first event with t > `t` (events are in time order) */
  indexAfter(t: number): number {
    let a = 0;
    let b = this.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (this.tAt(m) <= t) a = m + 1;
      else b = m;
    }
    return a;
  }

  /** rows [from, to) as sub-batches of at most one source batch each */
  *window(from: number, to: number): Generator<EventBatch> {
    for (let k = 0; k < this.batches.length && from < to; k++) {
      const b = this.batches[k] as EventBatch;
      const s = this.starts[k] as number;
      if (s + b.n <= from) continue;
      const i = from - s;
      const j = Math.min(b.n, to - s);
      if (j > i) yield i === 0 && j === b.n ? b : sliceBatch(b, i, j);
      from = s + j;
    }
  }

  *events(): Generator<ZarisEvent> {
    for (const b of this.batches) for (let i = 0; i < b.n; i++) yield decodeEvent(b, i);
  }

  /** the topology and fault events (decoded) and the highest node routed to: what the cluster view is rebuilt from */
  topologyFacts(): TopologyFacts {
    const cluster: ClusterEvent[] = [];
    let maxRoutedNode = -1;
    for (const b of this.batches) {
      for (let i = 0; i < b.n; i++) {
        const ty = b.type[i];
        if (ty === TOPOLOGY || ty === FAULT) cluster.push(decodeEvent(b, i) as ClusterEvent);
        else if (ty === ATTEMPT_START && (b.b[i] as number) > maxRoutedNode) maxRoutedNode = b.b[i] as number;
      }
    }
    return { cluster, maxRoutedNode };
  }
}
