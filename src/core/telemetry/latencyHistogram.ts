/**
 * Log-bucketed latency histogram (≈1 % relative precision, bounded memory,
 * deterministic): bucket i holds values in [GROWTH^(i-1), GROWTH^i) µs.
 */
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);
const BUCKETS = 1400; // up to ≈ 1.02^1400 µs ≈ 10^12 µs

export class LatencyHistogram {
  private readonly counts = new Float64Array(BUCKETS);
  count = 0;
  max = 0;

  record(ms: number): void {
    const us = ms * 1000;
    const i = us < 1 ? 0 : Math.min(BUCKETS - 1, 1 + Math.floor(Math.log(us) / LOG_GROWTH));
    this.counts[i] = (this.counts[i] as number) + 1;
    this.count++;
    if (ms > this.max) this.max = ms;
  }

  /** the q-quantile (0..1) in ms, rounded to µs; 0 when empty */
  quantile(q: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i] as number;
      if (seen >= rank) {
        const upperUs = i === 0 ? 1 : Math.pow(GROWTH, i);
        return Math.round(Math.min(upperUs / 1000, this.max) * 1000) / 1000;
      }
    }
    return this.max;
  }

  reset(): void {
    this.counts.fill(0);
    this.count = 0;
    this.max = 0;
  }
}
