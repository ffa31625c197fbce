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

  /** exponential with the given mean (Poisson inter-arrival times) */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** an independent stream for consumer `id` (e.g. one per virtual user) */
  stream(id: number): Rng {
    return Rng.seeded(mix32(this.seed, id));
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
