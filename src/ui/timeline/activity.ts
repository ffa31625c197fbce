/**
 * What the overview strip draws: attempts per time bucket by how they were
 * answered, folded from the columnar batches without decoding them. Bounded:
 * at most MAX_BUCKETS buckets; a longer run doubles the bucket width.
 */
import { SERVED_OUTCOMES } from '../../core/domain/service';
import { KV_STATUSES, OUTCOME_CODE, TRANSPORT_ERRORS } from '../../core/domain/status';
import { EVENT_TYPES } from '../../core/telemetry/events';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import type { ZarisEvent } from '../../core/telemetry/events';

/** how an attempt was answered: a real answer, a retryable status, a transport error */
export const ACTIVITY_CLASSES = ['answered', 'retryable', 'transport'] as const;
export type ActivityClass = (typeof ACTIVITY_CLASSES)[number];

const ATTEMPT_END = EVENT_TYPES.indexOf('attempt.end');
const ANSWERED = new Set<number>(SERVED_OUTCOMES.map((s) => OUTCOME_CODE[s]));
const TRANSPORT = new Set<number>(TRANSPORT_ERRORS.map((s) => OUTCOME_CODE[s]));
const RETRYABLE = new Set<number>(KV_STATUSES.map((s) => OUTCOME_CODE[s]).filter((c) => !ANSWERED.has(c)));

/** most buckets kept */
export const MAX_BUCKETS = 4096;

function classOf(code: number): number {
  if (ANSWERED.has(code)) return 0;
  if (RETRYABLE.has(code)) return 1;
  if (TRANSPORT.has(code)) return 2;
  return 2;
}

export class ActivityHistogram {
  /** ms per bucket (doubles when the run outgrows MAX_BUCKETS) */
  bucketMs: number;
  /** counts, 3 per bucket (ACTIVITY_CLASSES order) */
  private counts = new Float64Array(MAX_BUCKETS * 3);
  /** buckets in use */
  length = 0;

  constructor(private readonly initialBucketMs = 50) {
    this.bucketMs = initialBucketMs;
  }

  reset(): void {
    this.bucketMs = this.initialBucketMs;
    this.counts.fill(0);
    this.length = 0;
  }

  /** counts one attempt that ended at `t` with outcome code `code` */
  add(t: number, code: number): void {
    let i = Math.floor(Math.max(0, t) / this.bucketMs);
    while (i >= MAX_BUCKETS) {
      this.coarsen();
      i = Math.floor(t / this.bucketMs);
    }
    const k = i * 3 + classOf(code);
    this.counts[k] = (this.counts[k] as number) + 1;
    if (i + 1 > this.length) this.length = i + 1;
  }

  ingestBatch(b: EventBatch): void {
    for (let i = 0; i < b.n; i++) if (b.type[i] === ATTEMPT_END) this.add(b.t[i] as number, b.d[i] as number);
  }

  ingestEvent(e: ZarisEvent): void {
    if (e.type === 'attempt.end') this.add(e.t, OUTCOME_CODE[e.status ?? e.error ?? 'NonRetryable']);
  }

  /** halves the resolution: pairs of buckets merge */
  private coarsen(): void {
    const c = this.counts;
    for (let i = 0; i < MAX_BUCKETS / 2; i++) {
      for (let k = 0; k < 3; k++) c[i * 3 + k] = (c[2 * i * 3 + k] as number) + (c[(2 * i + 1) * 3 + k] as number);
    }
    c.fill(0, (MAX_BUCKETS / 2) * 3);
    this.bucketMs *= 2;
    this.length = Math.ceil(this.length / 2);
  }

  /** count of class `k` in bucket `i` */
  at(i: number, k: number): number {
    return i < 0 || i >= this.length ? 0 : (this.counts[i * 3 + k] as number);
  }

  /**
   * Sums per pixel column: `columns` columns spanning [t0, t1]; returns
   * 3 numbers per column and the largest column total.
   */
  columns(t0: number, t1: number, columns: number): { readonly values: Float64Array; readonly max: number } {
    const n = Math.max(0, Math.floor(columns));
    const values = new Float64Array(n * 3);
    let max = 0;
    const per = (t1 - t0) / Math.max(1, n);
    for (let x = 0; x < n; x++) {
      const a = Math.floor((t0 + x * per) / this.bucketMs);
      const b = Math.max(a + 1, Math.floor((t0 + (x + 1) * per) / this.bucketMs));
      let total = 0;
      for (let k = 0; k < 3; k++) {
        let s = 0;
        for (let i = a; i < b; i++) s += this.at(i, k);
        // a column narrower than a bucket shows that bucket's rate share
        const v = per < this.bucketMs ? (s * per) / this.bucketMs : s;
        values[x * 3 + k] = v;
        total += v;
      }
      if (total > max) max = total;
    }
    return { values, max };
  }
}
