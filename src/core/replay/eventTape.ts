/**
 * A whole run's event stream, recorded once as columnar chunks (the
 * EventBatch layout of the codec, CHUNK events each): no event objects, so a
 * 10-minute run of tens of millions of events is a few hundred typed arrays.
 * Reads are by index: binary search by time, zero-copy slices for folding,
 * decoding one row when an object is needed.
 */
import { decodeEvent, EventBatchBuilder, type EventBatch } from '../telemetry/eventCodec';
import type { TelemetrySink, ZarisEvent } from '../telemetry/events';

/** events per chunk */
export const TAPE_CHUNK = 1 << 16;

/** bytes per event row in a chunk (the codec's columns) */
const ROW_BYTES = 8 + 1 + 8 + 4 + 4 + 8 + 4 + 4 + 8 + 4;

export class EventTape implements TelemetrySink {
  private readonly chunks: EventBatch[] = [];
  /** global index of each chunk's first row */
  private readonly starts: number[] = [];
  private builder: EventBatchBuilder | null = new EventBatchBuilder(TAPE_CHUNK);
  private count = 0;
  private lastT = -Infinity;
  private strings = 0;

  /** rows recorded */
  get length(): number {
    return this.count;
  }

  /** time of the last row (0 when empty) */
  get endT(): number {
    return this.count === 0 ? 0 : this.lastT;
  }

  emit(e: ZarisEvent): void {
    const b = this.builder;
    if (b === null) throw new Error('EventTape: sealed, no more events');
    if (e.t < this.lastT) throw new Error(`EventTape: event at ${e.t} ms after one at ${this.lastT} ms (events must be in time order)`);
    this.lastT = e.t;
    b.push(e);
    this.count++;
    if (b.length >= TAPE_CHUNK) this.flush();
  }

  /** appends a batch as it is (rows in time order) */
  appendBatch(batch: EventBatch): void {
    if (batch.n === 0) return;
    this.flush();
    for (let i = 0; i < batch.n; i++) {
      const t = batch.t[i] as number;
      if (t < this.lastT) throw new Error(`EventTape: event at ${t} ms after one at ${this.lastT} ms (events must be in time order)`);
      this.lastT = t;
    }
    this.starts.push(this.count);
    this.chunks.push(batch);
    this.count += batch.n;
    this.strings += batch.strings.length;
  }

  private flush(): void {
    const b = this.builder;
    if (b === null || b.length === 0) return;
    const chunk = b.take();
    this.starts.push(this.count - chunk.n);
    this.chunks.push(chunk);
    this.strings += chunk.strings.length;
  }

  /** no more rows: the open chunk is closed (reads work before too) */
  seal(): this {
    this.flush();
    this.builder = null;
    return this;
  }

  private chunkOf(i: number): number {
    let a = 0;
    let b = this.starts.length - 1;
    while (a < b) {
      const m = (a + b + 1) >> 1;
      if ((this.starts[m] as number) <= i) a = m;
      else b = m - 1;
    }
    return a;
  }

  /** time of row `i` */
  timeAt(i: number): number {
    this.flush();
    const c = this.chunkOf(i);
    return (this.chunks[c] as EventBatch).t[i - (this.starts[c] as number)] as number;
  }

  /** rows with time ≤ `t` (the index of the first row after `t`) */
  indexAfter(t: number): number {
    this.flush();
    let a = 0;
    let b = this.chunks.length;
    // the first chunk whose last row is after t
    while (a < b) {
      const m = (a + b) >> 1;
      const ch = this.chunks[m] as EventBatch;
      if ((ch.t[ch.n - 1] as number) <= t) a = m + 1;
      else b = m;
    }
    if (a === this.chunks.length) return this.count;
    const ch = this.chunks[a] as EventBatch;
    let lo = 0;
    let hi = ch.n;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if ((ch.t[m] as number) <= t) lo = m + 1;
      else hi = m;
    }
    return (this.starts[a] as number) + lo;
  }

  /** calls `fn` with zero-copy batches covering rows [from, to), in order */
  forEachSlice(from: number, to: number, fn: (batch: EventBatch, firstIndex: number) => void): void {
    this.flush();
    const end = Math.min(to, this.count);
    let i = Math.max(0, from);
    while (i < end) {
      const c = this.chunkOf(i);
      const ch = this.chunks[c] as EventBatch;
      const base = this.starts[c] as number;
      const a = i - base;
      const b = Math.min(ch.n, end - base);
      fn(a === 0 && b === ch.n ? ch : sliceBatch(ch, a, b), i);
      i = base + b;
    }
  }

  /** row `i` as an event object */
  event(i: number): ZarisEvent {
    this.flush();
    const c = this.chunkOf(i);
    return decodeEvent(this.chunks[c] as EventBatch, i - (this.starts[c] as number));
  }

  /** rows [from, to) as event objects */
  events(from = 0, to = this.count): ZarisEvent[] {
    const out: ZarisEvent[] = [];
    this.forEachSlice(from, to, (b) => {
      for (let k = 0; k < b.n; k++) out.push(decodeEvent(b, k));
    });
    return out;
  }

  /** bytes held: the columns plus ≈ 8 bytes per string reference (the strings themselves are shared with the run) */
  get bytes(): number {
    return (this.count + (this.builder === null ? 0 : TAPE_CHUNK)) * ROW_BYTES + this.strings * 8;
  }
}

/** rows [a, b) of a batch as views on its buffers (the string table is shared) */
export function sliceBatch(ch: EventBatch, a: number, b: number): EventBatch {
  return {
    n: b - a,
    t: ch.t.subarray(a, b),
    type: ch.type.subarray(a, b),
    op: ch.op.subarray(a, b),
    a: ch.a.subarray(a, b),
    b: ch.b.subarray(a, b),
    c: ch.c.subarray(a, b),
    d: ch.d.subarray(a, b),
    e: ch.e.subarray(a, b),
    f: ch.f.subarray(a, b),
    s: ch.s.subarray(a, b),
    strings: ch.strings,
  };
}
