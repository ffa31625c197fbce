/**
 * The whole session at a coarser grain: buckets of `bucketMs` from t = 0,
 * at most `capacity` of them. When the session outgrows it, neighbouring
 * buckets merge pairwise and the width doubles (1 s → 2 s → 4 s …), so any
 * session length fits in the same memory. Fed one complete fine bucket at a
 * time (the aggregator folds each 100 ms bucket in as it closes), never per
 * event.
 */
import type { BucketWindow } from './bucketRing';
import { GAUGE_METRICS, MAX_VALUES, METRICS, METRIC_WIDTH, type Metric } from './layout';

export class SessionRing {
  /** ms per bucket now */
  bucketMs: number;
  /** buckets in use (the last one may still be filling) */
  private length = 0;
  readonly cols: Record<Metric, Float64Array>;

  constructor(
    readonly capacity: number,
    private readonly initialBucketMs: number,
  ) {
    this.bucketMs = initialBucketMs;
    this.cols = Object.fromEntries(METRICS.map((m) => [m, new Float64Array(capacity * METRIC_WIDTH[m])])) as Record<Metric, Float64Array>;
  }

  /** folds one fine bucket starting at `t` ms (values of `src` at slot `srcSlot`) */
  fold(t: number, src: Readonly<Record<Metric, Float64Array>>, srcSlot: number): void {
    let b = Math.floor(t / this.bucketMs);
    while (b >= this.capacity) {
      this.halve();
      b = Math.floor(t / this.bucketMs);
    }
    this.extendTo(b);
    for (const m of METRICS) {
      const w = METRIC_WIDTH[m];
      const dst = this.cols[m];
      const s = src[m];
      const maxes = MAX_VALUES[m];
      const gauge = GAUGE_METRICS.includes(m);
      for (let k = 0; k < w; k++) {
        const v = s[srcSlot * w + k] as number;
        const i = b * w + k;
        if (gauge) dst[i] = v;
        else if (maxes?.includes(k)) dst[i] = Math.max(dst[i] as number, v);
        else dst[i] = (dst[i] as number) + v;
      }
    }
  }

  /** opens buckets up to `b`, gauges carried forward */
  private extendTo(b: number): void {
    for (let n = this.length; n <= b; n++) {
      for (const m of METRICS) {
        const w = METRIC_WIDTH[m];
        const col = this.cols[m];
        if (n > 0 && GAUGE_METRICS.includes(m)) col.copyWithin(n * w, (n - 1) * w, n * w);
        else col.fill(0, n * w, n * w + w);
      }
    }
    this.length = Math.max(this.length, b + 1);
  }

  /** merges bucket pairs: counters add, max values take the max, gauges take the later bucket */
  private halve(): void {
    const half = Math.ceil(this.length / 2);
    for (const m of METRICS) {
      const w = METRIC_WIDTH[m];
      const col = this.cols[m];
      const maxes = MAX_VALUES[m];
      const gauge = GAUGE_METRICS.includes(m);
      for (let n = 0; n < half; n++) {
        const a = 2 * n;
        const hasB = a + 1 < this.length;
        for (let k = 0; k < w; k++) {
          const va = col[a * w + k] as number;
          const vb = hasB ? (col[(a + 1) * w + k] as number) : gauge ? va : 0;
          col[n * w + k] = gauge ? vb : maxes?.includes(k) ? Math.max(va, vb) : va + vb;
        }
      }
      col.fill(0, half * w);
    }
    this.length = half;
    this.bucketMs *= 2;
  }

  /** copies the buckets out, oldest first (bucket i covers [i·bucketMs, (i+1)·bucketMs)) */
  snapshot(): BucketWindow {
    const cols = {} as Record<Metric, Float64Array>;
    for (const m of METRICS) cols[m] = this.cols[m].slice(0, this.length * METRIC_WIDTH[m]);
    return { firstBucket: 0, length: this.length, cols };
  }

  clear(): void {
    for (const m of METRICS) this.cols[m].fill(0);
    this.length = 0;
    this.bucketMs = this.initialBucketMs;
  }
}
