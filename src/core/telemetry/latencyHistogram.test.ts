import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { bucketByLog, bucketOf, LatencyHistogram } from './latencyHistogram';

/** the double `by` steps away from a positive finite `x` */
function step(x: number, by: number): number {
  const b = new Float64Array([x]);
  const w = new BigInt64Array(b.buffer);
  w[0] = (w[0] as bigint) + BigInt(by);
  return b[0] as number;
}

describe('LatencyHistogram bucketOf (no logarithm) puts every value where bucketByLog does', () => {
  it('log-uniform values from 1 ns to 10^7 s', () => {
    const rng = Rng.seeded(7);
    const bad: number[] = [];
    for (let n = 0; n < 200_000; n++) {
      const us = Math.pow(10, -3 + 16 * rng.next());
      if (bucketOf(us) !== bucketByLog(us)) bad.push(us);
    }
    expect(bad).toEqual([]);
  });

  it('both sides of every bucket boundary, to the last bit', () => {
    const bad: string[] = [];
    for (let i = 2; i < 1400; i++) {
      // the boundary as the logarithm places it, searched for around GROWTH^(i-1)
      let x = Math.pow(1.02, i - 1);
      while (bucketByLog(x) < i) x = step(x, 1);
      while (bucketByLog(step(x, -1)) >= i) x = step(x, -1);
      for (const d of [-3, -2, -1, 0, 1, 2, 3]) {
        const v = step(x, d);
        if (bucketOf(v) !== bucketByLog(v)) bad.push(`bucket ${i}, ${d} ulp: ${v}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the edges: below 1 µs, powers of two, past the table, infinite and NaN', () => {
    const values = [-Infinity, -1, -0, 0, 1e-9, 0.5, step(1, -1), 1, step(1, 1), 2, 4, 1024, 2 ** 40, 2 ** 41, 1e12, 1e15, Number.MAX_VALUE, Infinity];
    for (const v of values) expect(bucketOf(v), String(v)).toBe(bucketByLog(v));
    expect(bucketOf(NaN)).toBeNaN();
  });
});

describe('LatencyHistogram', () => {
  it('a quantile is its bucket upper bound: at most 2 % above the exact value', () => {
    const h = new LatencyHistogram();
    for (let i = 1; i <= 1000; i++) h.record(i / 100);
    expect(h.count).toBe(1000);
    for (const [q, exact] of [[0.5, 5], [0.9, 9], [0.99, 9.9]] as const) {
      expect(h.quantile(q)).toBeGreaterThanOrEqual(exact);
      expect(h.quantile(q)).toBeLessThan(exact * 1.02);
    }
    expect(h.max).toBe(10);
  });
});
