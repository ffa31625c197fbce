import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/**
 * Seeded randomness for the core (xoroshiro128+ from pure-rand). Independent
 * named streams are seeded from (seed, stream id) through a 32-bit mix, so
 * adding a consumer of one stream never shifts another: a VU's key sequence
 * stays the same when the client's configuration changes.
 */
export class Rng {
  private constructor(
    private readonly gen: RandomGenerator,
    /** the seed this generator was made from */
    readonly seed: number,
  ) {}

  static seeded(seed: number): Rng {
    return new Rng(xoroshiro128plus(seed | 0), seed | 0);
  }

  /** uniform in [0, 1) with 32 bits of resolution */
  next(): number {
    return (this.gen.next() >>> 0) / 4294967296;
  }

  /** uniform integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** exponential with the given mean (Poisson inter-arrival times, link jitter) */
  exp(mean: number): number {
    return this.standardExp() * mean;
  }

  /**
   * Exponential with mean 1, by Marsaglia & Tsang's ziggurat (256 layers):
   * for ≈ 98.9 % of samples one draw, a table lookup, a compare and a
   * multiply — no logarithm (the engine draws about two per operation). A
   * draw's low 8 bits pick the layer and its high 24 bits the position in it
   * (separate bits, so layer and position are independent — the flaw Doornik
   * (2005) found in the original, which used the same bits for both). The
   * rest: a wedge test (one more draw and an `exp`), or the tail beyond
   * {@link ZIG_R}, which is `ZIG_R` + a fresh exponential (memorylessness).
   */
  standardExp(): number {
    for (;;) {
      const u = this.gen.next() >>> 0;
      const layer = u & 255;
      const j = u >>> 8;
      if (j < (ZIG_K[layer] as number)) return j * (ZIG_W[layer] as number);
      if (layer === 0) return ZIG_R - Math.log(1 - this.next());
      const x = j * (ZIG_W[layer] as number);
      const f = ZIG_F[layer] as number;
      if (f + this.next() * ((ZIG_F[layer - 1] as number) - f) < Math.exp(-x)) return x;
    }
  }

  /** an independent stream for consumer `id` (e.g. one per virtual user) */
  stream(id: number): Rng {
    return Rng.seeded(mix32(this.seed, id));
  }
}

/** where the ziggurat's base layer ends and its tail begins (Marsaglia & Tsang, 256 layers) */
const ZIG_R = 7.697117470131487;
/** the area of each of the 256 layers */
const ZIG_V = 3.949659822581572e-3;
/** 2^24: positions are 24-bit */
const ZIG_M = 16777216;
/** per layer: positions below this are inside the density for sure (accepted at once) */
const ZIG_K = new Uint32Array(256);
/** per layer: position → x */
const ZIG_W = new Float64Array(256);
/** per layer: the density exp(-x) at the layer's edge */
const ZIG_F = new Float64Array(256);
{
  let x = ZIG_R;
  let prev = x;
  const q = ZIG_V / Math.exp(-x);
  ZIG_K[0] = Math.floor((x / q) * ZIG_M);
  ZIG_K[1] = 0;
  ZIG_W[0] = q / ZIG_M;
  ZIG_W[255] = x / ZIG_M;
  ZIG_F[0] = 1;
  ZIG_F[255] = Math.exp(-x);
  for (let i = 254; i >= 1; i--) {
    x = -Math.log(ZIG_V / x + Math.exp(-x));
    ZIG_K[i + 1] = Math.floor((x / prev) * ZIG_M);
    prev = x;
    ZIG_F[i] = Math.exp(-x);
    ZIG_W[i] = x / ZIG_M;
  }
}

/** murmur3-style finalizer over (a, b) */
export function mix32(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}
