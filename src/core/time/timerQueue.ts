/**
 * The pending timers of a virtual clock: a calendar queue (R. Brown, "Calendar
 * queues", CACM 1988) on typed arrays, ordered by (time, insertion sequence)
 * so that equal times fire in the order they were scheduled — the property
 * every deterministic replay depends on.
 *
 * Time is cut into buckets of `width`; bucket `floor(t / width) mod B` holds a
 * sorted linked list of its timers. The earliest timer is the head of the
 * first bucket, scanning from the current one, whose head falls in the
 * bucket's current "year"; so push and pop cost O(1) when the width matches
 * the spacing of the timers near the front. Where the timers fall into
 * buckets only decides the cost, never the order: any width gives the same
 * pops as a binary heap.
 *
 * The width is learnt from the run itself, never preset: whenever the
 * number of buckets is resized (the queue holds more than 2 B or fewer than
 * B / 2 timers) and whenever the work per timer (empty buckets scanned, list
 * entries walked) has been high for a while, the queue is rebuilt with a
 * width of three times the mean gap between its earliest pending timers
 * (Brown's rule, gaps over twice the mean left out).
 *
 * A timer's id is `seq × 2^22 + slot`; the slot holds its time, its
 * callback, its argument and the id that validates cancellations.
 */
import { grownF64, grownI32 } from '../grownColumns';

const SLOT_BITS = 2 ** 22;
const INITIAL_SLOTS = 1024;
const MIN_BUCKETS = 16;
/**
 * pops between two checks of the work per timer (at least the pending count,
 * so a rebuild's O(n log n) is spread over n pops: never worse than a heap)
 */
const CHECK_EVERY = 4096;
/** work units (buckets scanned + list entries walked) per timer above which the width is re-learnt */
const RETUNE_ABOVE = 4;
/** the earliest pending timers whose gaps set the width */
const SAMPLE = 64;
/** the largest virtual bucket number that `&` can reduce (buckets are indexed by int32) */
const INT_VB = 2 ** 31;

/** A timer callback; `arg` is what was pushed with it (undefined for plain thunks). */
export type TimerCallback = (arg?: unknown) => void;

export class TimerQueue {
  // per slot
  private times = new Float64Array(INITIAL_SLOTS);
  private slotIds = new Float64Array(INITIAL_SLOTS);
  /** the virtual bucket (floor(time / width)) of each slot */
  private slotVbs = new Float64Array(INITIAL_SLOTS);
  /** next slot in the same bucket's list, -1 at the tail */
  private nexts = new Int32Array(INITIAL_SLOTS);
  private readonly fns: (TimerCallback | null)[] = [];
  private readonly args: unknown[] = [];
  private freeSlots = new Int32Array(INITIAL_SLOTS);
  private freeCount = 0;
  private nextSlot = 0;
  private seq = 0;
  private size = 0;
  // the calendar
  private nBuckets = MIN_BUCKETS;
  private mask = MIN_BUCKETS - 1;
  private heads = new Int32Array(MIN_BUCKETS).fill(-1);
  private tails = new Int32Array(MIN_BUCKETS).fill(-1);
  private width = 1;
  private invWidth = 1;
  /** no pending timer has a virtual bucket below this one */
  private curVb = 0;
  /** the earliest pending slot once found, -1 when not known */
  private minSlot = -1;
  // the cost watch
  private work = 0;
  private looked = 0;
  private checkAt = CHECK_EVERY;
  /** the argument pushed with the entry the last {@link pop} removed */
  poppedArg: unknown = undefined;

  get length(): number {
    return this.size;
  }

  /** the current bucket width (for tests and benchmarks) */
  get bucketWidth(): number {
    return this.width;
  }

  /**
   * schedules `fn` (called as `fn(arg)`) at absolute time `at`; returns an
   * id usable with {@link cancel}
   */
  push<T>(at: number, fn: (arg: T) => void, arg?: T): number {
    const slot = this.freeCount > 0 ? (this.freeSlots[--this.freeCount] as number) : this.allocSlot();
    const id = this.seq++ * SLOT_BITS + slot;
    this.slotIds[slot] = id;
    this.times[slot] = at;
    this.fns[slot] = fn as TimerCallback;
    this.args[slot] = arg;
    this.insert(slot, at, id);
    const min = this.minSlot;
    if (min >= 0) {
      const mt = this.times[min] as number;
      if (at < mt || (at === mt && id < (this.slotIds[min] as number))) this.minSlot = slot;
    }
    if (++this.size > 2 * this.nBuckets) this.rebuild(this.nBuckets * 2);
    return id;
  }

  /** marks a pending timer as cancelled (lazy deletion) */
  cancel(id: number): void {
    const slot = slotOf(id);
    if (slot >= 0 && slot < this.nextSlot && this.slotIds[slot] === id) {
      this.fns[slot] = null;
      this.args[slot] = undefined;
    }
  }

  /** time of the earliest entry (cancelled ones included), or Infinity */
  peekTime(): number {
    if (this.size === 0) return Infinity;
    const s = this.minSlot >= 0 ? this.minSlot : this.findMin();
    return this.times[s] as number;
  }

  /**
   * removes the earliest entry; returns its callback (null when it was
   * cancelled, or when the queue is empty) and leaves its argument in {@link poppedArg}
   */
  pop(): TimerCallback | null {
    if (this.size === 0) {
      this.poppedArg = undefined;
      return null;
    }
    const top = this.minSlot >= 0 ? this.minSlot : this.findMin();
    this.minSlot = -1;
    // the earliest timer heads its bucket's list
    const b = this.bucketOf(this.slotVbs[top] as number);
    const next = this.nexts[top] as number;
    this.heads[b] = next;
    if (next < 0) this.tails[b] = -1;
    this.size--;
    const fn = this.fns[top] ?? null;
    this.poppedArg = this.args[top];
    this.fns[top] = null;
    this.args[top] = undefined;
    this.slotIds[top] = -1;
    this.freeSlots[this.freeCount++] = top;
    if (++this.looked >= this.checkAt) this.checkCost();
    else if (this.size < this.nBuckets >> 1 && this.nBuckets > MIN_BUCKETS) this.rebuild(this.nBuckets >> 1);
    return fn;
  }

  private bucketOf(vb: number): number {
    return vb < INT_VB ? vb & this.mask : vb % this.nBuckets;
  }

  private vbOf(t: number): number {
    const vb = Math.floor(t * this.invWidth);
    // Infinity and beyond-2^53 buckets share the last virtual bucket (still ordered within it)
    return vb < Number.MAX_SAFE_INTEGER ? vb : Number.MAX_SAFE_INTEGER;
  }

  /** links `slot` into its bucket's list, in (time, id) order */
  private insert(slot: number, t: number, id: number): void {
    const vb = this.vbOf(t);
    this.slotVbs[slot] = vb;
    if (vb < this.curVb) this.curVb = vb;
    const b = this.bucketOf(vb);
    const tail = this.tails[b] as number;
    const times = this.times;
    const nexts = this.nexts;
    if (tail < 0) {
      this.heads[b] = slot;
      this.tails[b] = slot;
      nexts[slot] = -1;
      return;
    }
    // most timers are later than every timer of their bucket: append
    const tt = times[tail] as number;
    if (tt < t || (tt === t && (this.slotIds[tail] as number) < id)) {
      nexts[tail] = slot;
      nexts[slot] = -1;
      this.tails[b] = slot;
      return;
    }
    let prev = -1;
    let cur = this.heads[b] as number;
    let walked = 0;
    for (;;) {
      const ct = times[cur] as number;
      if (ct > t || (ct === t && (this.slotIds[cur] as number) > id)) break;
      prev = cur;
      cur = nexts[cur] as number;
      walked++;
    }
    this.work += walked;
    nexts[slot] = cur;
    if (prev < 0) this.heads[b] = slot;
    else nexts[prev] = slot;
  }

  /** the earliest pending slot (size > 0); moves the current bucket up to it */
  private findMin(): number {
    const heads = this.heads;
    const vbs = this.slotVbs;
    let vb = this.curVb;
    for (let n = 0; n < this.nBuckets; n++, vb++) {
      const h = heads[this.bucketOf(vb)] as number;
      if (h >= 0 && vbs[h] === vb) {
        this.work += n;
        this.curVb = vb;
        this.minSlot = h;
        return h;
      }
    }
    // a whole year without a timer: the earliest of the bucket heads
    this.work += 2 * this.nBuckets;
    let best = -1;
    for (let b = 0; b < this.nBuckets; b++) {
      const h = heads[b] as number;
      if (h >= 0 && (best < 0 || this.earlier(h, best))) best = h;
    }
    this.curVb = vbs[best] as number;
    this.minSlot = best;
    return best;
  }

  private earlier(a: number, b: number): boolean {
    const ta = this.times[a] as number;
    const tb = this.times[b] as number;
    return ta < tb || (ta === tb && (this.slotIds[a] as number) < (this.slotIds[b] as number));
  }

  /** every {@link checkAt} pops: re-learn the width when the work per timer was high */
  private checkCost(): void {
    const high = this.work > RETUNE_ABOVE * this.looked;
    this.work = 0;
    this.looked = 0;
    this.checkAt = Math.max(CHECK_EVERY, this.size);
    if (high && this.size > 1) this.rebuild(this.nBuckets);
  }

  /** rebuilds the calendar with `nBuckets` buckets and a width learnt from the earliest pending timers */
  private rebuild(nBuckets: number): void {
    const pending: number[] = [];
    for (let b = 0; b < this.nBuckets; b++) {
      for (let s = this.heads[b] as number; s >= 0; s = this.nexts[s] as number) pending.push(s);
    }
    pending.sort((a, b) => (this.earlier(a, b) ? -1 : 1));
    const width = learntWidth(pending, this.times);
    if (width > 0) {
      this.width = width;
      this.invWidth = 1 / width;
    }
    this.nBuckets = nBuckets;
    this.mask = nBuckets - 1;
    this.heads = new Int32Array(nBuckets).fill(-1);
    this.tails = new Int32Array(nBuckets).fill(-1);
    this.curVb = Number.MAX_SAFE_INTEGER;
    this.minSlot = -1;
    // in order, so every insert appends
    for (const s of pending) this.insert(s, this.times[s] as number, this.slotIds[s] as number);
    if (pending.length === 0) this.curVb = 0;
    this.work = 0;
    this.looked = 0;
    this.checkAt = Math.max(CHECK_EVERY, pending.length);
  }

  private allocSlot(): number {
    const slot = this.nextSlot++;
    if (slot >= SLOT_BITS) throw new Error('TimerQueue: more than 4M pending timers');
    if (slot >= this.slotIds.length) {
      const n = this.slotIds.length * 2;
      this.times = grownF64(this.times, n);
      this.slotIds = grownF64(this.slotIds, n);
      this.slotVbs = grownF64(this.slotVbs, n);
      this.nexts = grownI32(this.nexts, n);
      this.freeSlots = grownI32(this.freeSlots, n);
    }
    return slot;
  }
}

/**
 * Brown's width: three times the mean gap between the earliest pending
 * timers (`sorted` slots in time order), gaps over twice the mean left out;
 * 0 when they all share one time (no information: keep the width).
 */
function learntWidth(sorted: readonly number[], times: Float64Array): number {
  const k = Math.min(sorted.length, SAMPLE);
  if (k < 2) return 0;
  const first = times[sorted[0] as number] as number;
  const last = times[sorted[k - 1] as number] as number;
  const mean = (last - first) / (k - 1);
  if (!(mean > 0) || !Number.isFinite(mean)) return 0;
  let sum = 0;
  let n = 0;
  for (let i = 1; i < k; i++) {
    const gap = (times[sorted[i] as number] as number) - (times[sorted[i - 1] as number] as number);
    if (gap <= 2 * mean) {
      sum += gap;
      n++;
    }
  }
  const w = n > 0 && sum > 0 ? (3 * sum) / n : 3 * mean;
  return Number.isFinite(w) ? w : 0;
}

/** the slot part of an id (exact: SLOT_BITS is a power of two) */
function slotOf(id: number): number {
  return id - Math.floor(id / SLOT_BITS) * SLOT_BITS;
}
