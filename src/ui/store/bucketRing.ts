/**
 * A fixed ring of time buckets, one typed-array column per metric
 * (`capacity × width` numbers each). Memory is allocated once; advancing
 * clears the slots it reuses, so the window slides without growing.
 */
import { GAUGE_METRICS, METRICS, METRIC_WIDTH, type Metric } from './layout';

/** an immutable copy of the window, oldest bucket first */
export interface BucketWindow {
  /** absolute index of the first bucket (bucket i covers [i·bucketMs, (i+1)·bucketMs)) */
  readonly firstBucket: number;
  /** buckets in the window */
  readonly length: number;
  /** metric → `length × width` values, bucket-major */
  readonly cols: Readonly<Record<Metric, Float64Array>>;
}

export class BucketRing {
  /** absolute index of the newest bucket; -1 before the first event */
  head = -1;
  /** buckets that hold data (≤ capacity) */
  private filled = 0;
  readonly cols: Record<Metric, Float64Array>;

  constructor(readonly capacity: number) {
    this.cols = Object.fromEntries(METRICS.map((m) => [m, new Float64Array(capacity * METRIC_WIDTH[m])])) as Record<Metric, Float64Array>;
  }

  /**
   * The slot of an absolute bucket; advances the ring when the bucket is newer than the head. Returns
   * -1 for a bucket that already slid out of the window.
   */
  slot(bucket: number): number {
    if (bucket > this.head) this.advance(bucket);
    if (bucket <= this.head - this.capacity) return -1;
    return bucket % this.capacity;
  }

  /** adds `v` to value `k` of metric `m` in `slot` */
  add(m: Metric, slot: number, k: number, v = 1): void {
    const col = this.cols[m];
    const i = slot * METRIC_WIDTH[m] + k;
    col[i] = (col[i] as number) + v;
  }

  /** raises value `k` of metric `m` in `slot` to at least `v` */
  max(m: Metric, slot: number, k: number, v: number): void {
    const col = this.cols[m];
    const i = slot * METRIC_WIDTH[m] + k;
    if (v > (col[i] as number)) col[i] = v;
  }

  /** sets value `k` of metric `m` in `slot` */
  put(m: Metric, slot: number, k: number, v: number): void {
    this.cols[m][slot * METRIC_WIDTH[m] + k] = v;
  }

  private advance(to: number): void {
    const prevSlot = this.head < 0 ? -1 : this.head % this.capacity;
    const from = Math.max(this.head + 1, to - this.capacity + 1);
    for (let b = from; b <= to; b++) {
      const s = b % this.capacity;
      for (const m of METRICS) {
        const w = METRIC_WIDTH[m];
        const col = this.cols[m];
        if (prevSlot >= 0 && GAUGE_METRICS.includes(m)) col.copyWithin(s * w, prevSlot * w, prevSlot * w + w);
        else col.fill(0, s * w, s * w + w);
      }
    }
    this.filled = this.head < 0 ? Math.min(this.capacity, to - from + 1) : Math.min(this.capacity, this.filled + (to - this.head));
    this.head = to;
  }

  /** copies the window out (oldest first) */
  snapshot(): BucketWindow {
    const length = this.head < 0 ? 0 : this.filled;
    const firstBucket = this.head - length + 1;
    const cols = {} as Record<Metric, Float64Array>;
    for (const m of METRICS) {
      const w = METRIC_WIDTH[m];
      const out = new Float64Array(length * w);
      const src = this.cols[m];
      for (let i = 0; i < length; i++) {
        const s = (firstBucket + i) % this.capacity;
        out.set(src.subarray(s * w, s * w + w), i * w);
      }
      cols[m] = out;
    }
    return { firstBucket, length, cols };
  }

  /** becomes the window of `src` (a ring at least as long) that ends at bucket `head`, as if it had folded the same events */
  loadWindow(src: BucketRing, head: number): void {
    this.clear();
    if (head < 0) return;
    if (head <= src.head - src.capacity) throw new Error(`BucketRing.loadWindow: bucket ${head} is no longer in the source`);
    const first = Math.max(0, head - this.capacity + 1, src.head - src.capacity + 1);
    for (const m of METRICS) {
      const w = METRIC_WIDTH[m];
      const from = src.cols[m];
      const to = this.cols[m];
      for (let b = first; b <= head; b++) {
        const s = (b % src.capacity) * w;
        to.set(from.subarray(s, s + w), (b % this.capacity) * w);
      }
    }
    this.head = head;
    this.filled = Math.min(this.capacity, head + 1);
  }

  clear(): void {
    for (const m of METRICS) this.cols[m].fill(0);
    this.head = -1;
    this.filled = 0;
  }
}
