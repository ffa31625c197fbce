/**
 * Log-bucketed latency histogram (≈1 % relative precision, bounded memory,
 * deterministic): bucket i holds values in [GROWTH^(i-1), GROWTH^i) µs.
 *
 * The bucket of a value is defined by {@link bucketByLog} (a logarithm);
 * {@link bucketOf} finds the same bucket without one, once per operation:
 * the value's exponent and top mantissa bits pick a cell of a table built
 * from `bucketByLog` itself, and one comparison with the next bucket's exact
 * lower bound (the smallest value `bucketByLog` puts there, found to the
 * last bit) settles it. `latencyHistogram.test.ts` checks the two agree.
 */
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);
const BUCKETS = 1400; // up to ≈ 1.02^1400 µs ≈ 10^12 µs

/** the definition: the bucket of `us` microseconds */
export function bucketByLog(us: number): number {
  return us < 1 ? 0 : Math.min(BUCKETS - 1, 1 + Math.floor(Math.log(us) / LOG_GROWTH));
}

const MANTISSA_BITS = 8;
const CELLS_PER_OCTAVE = 1 << MANTISSA_BITS;
/** octaves the table covers: [1, 2^OCTAVES) µs, past the last bucket's lower bound */
const OCTAVES = 41;

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
/** the index of the high word (sign, exponent, top of the mantissa) in `words` */
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** the next double above (step 1) or below (step -1) a positive finite `x` */
function nextDouble(x: number, step: 1 | -1): number {
  bits[0] = x;
  const lo = (words[1 - HI] as number) + step;
  words[1 - HI] = lo >>> 0;
  if (lo > 0xffffffff) words[HI] = (words[HI] as number) + 1;
  else if (lo < 0) words[HI] = (words[HI] as number) - 1;
  return bits[0] as number;
}

interface Tables {
  /** lower[i]: the smallest value bucketByLog puts in bucket i or above (lower[BUCKETS] = Infinity) */
  readonly lower: Float64Array;
  /** first[cell]: the bucket of the cell's smallest value */
  readonly first: Int16Array;
}

let tables: Tables | null = null;

function buildTables(): Tables {
  const lower = new Float64Array(BUCKETS + 1);
  lower[0] = -Infinity;
  lower[1] = 1;
  lower[BUCKETS] = Infinity;
  for (let i = 2; i < BUCKETS; i++) {
    let x = Math.pow(GROWTH, i - 1);
    while (bucketByLog(x) < i) x = nextDouble(x, 1);
    while (bucketByLog(nextDouble(x, -1)) >= i) x = nextDouble(x, -1);
    lower[i] = x;
  }
  const first = new Int16Array(OCTAVES * CELLS_PER_OCTAVE);
  for (let cell = 0; cell < first.length; cell++) {
    const octave = Math.floor(cell / CELLS_PER_OCTAVE);
    first[cell] = bucketByLog(Math.pow(2, octave) * (1 + (cell % CELLS_PER_OCTAVE) / CELLS_PER_OCTAVE));
  }
  return { lower, first };
}

/** the bucket of `us` microseconds, = {@link bucketByLog}(us) */
export function bucketOf(us: number): number {
  if (!(us >= 1)) return us < 1 ? 0 : bucketByLog(us);
  const t = tables ?? (tables = buildTables());
  bits[0] = us;
  const cell = ((words[HI] as number) >>> (20 - MANTISSA_BITS)) - (1023 << MANTISSA_BITS);
  if (cell >= t.first.length) return bucketByLog(us);
  // a cell spans < 0.4 %, a bucket 2 %: the value is in the cell's first bucket or the next
  const i = t.first[cell] as number;
  return us >= (t.lower[i + 1] as number) ? i + 1 : i;
}

export class LatencyHistogram {
  private readonly counts = new Float64Array(BUCKETS);
  count = 0;
  max = 0;

  record(ms: number): void {
    const i = bucketOf(ms * 1000);
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
