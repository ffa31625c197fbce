import { z } from 'zod';
import { timeMs } from '../validation';

/** Relative weights of the application-level operations. */
export interface OpMix {
  readonly get: number;
  readonly put: number;
  readonly delete: number;
  /** read-modify-write with ifMatchVersion, re-reading on Conflict */
  readonly cas: number;
  /** put with ifAbsent; Conflict means "already done" */
  readonly createOnce: number;
}
export const MIX_KINDS = ['get', 'put', 'delete', 'cas', 'createOnce'] as const satisfies readonly (keyof OpMix)[];
export type MixKind = (typeof MIX_KINDS)[number];

/** What drives the client (scenario field `workload`). */
export interface WorkloadConfig {
  /** closed-loop virtual users: each issues its next operation when the last one ends (default 32, or 0 when ratePerSec is set) */
  readonly concurrency: number;
  /** pause of a closed-loop user between operations, ms */
  readonly thinkMs: number;
  /** open-loop arrivals per second (Poisson) */
  readonly ratePerSec: number;
  /** open loop: arrivals beyond this many in flight are rejected (the app's request pool) */
  readonly maxInFlight: number;
  /** number of distinct keys */
  readonly keys: number;
  readonly distribution: 'uniform' | 'zipf';
  /** zipf exponent s (popularity ∝ 1/rank^s) */
  readonly zipfExponent: number;
  readonly mix: OpMix;
  /** a CAS loop gives up after this many re-reads */
  readonly casMaxRereads: number;
}

export const DEFAULT_WORKLOAD: WorkloadConfig = {
  concurrency: 32,
  thinkMs: 0,
  ratePerSec: 0,
  maxInFlight: 256,
  keys: 1000,
  distribution: 'uniform',
  zipfExponent: 1,
  mix: { get: 0.5, put: 0.5, delete: 0, cas: 0, createOnce: 0 },
  casMaxRereads: 5,
};

/** the largest mix weight: weights are shares, and huge ones sum to Infinity (1e308 + 1e308 made the mix 100 % get) */
export const MAX_MIX_WEIGHT = 1_000_000;
const weight = z.number().min(0, 'weights must be ≥ 0').max(MAX_MIX_WEIGHT, `weights must be ≤ ${MAX_MIX_WEIGHT} (they are shares: 0.5 and 0.5 is the same mix as 1 and 1)`);

export const workloadSchema = z
  .strictObject({
    concurrency: z.number().int('concurrency must be a whole number').min(0, 'concurrency must be ≥ 0').max(100_000, 'concurrency must be ≤ 100000'),
    thinkMs: timeMs('thinkMs '),
    ratePerSec: z.number().min(0, 'ratePerSec must be ≥ 0').max(10_000_000, 'ratePerSec must be ≤ 10000000'),
    maxInFlight: z.number().int('maxInFlight must be a whole number').min(1, 'maxInFlight must be ≥ 1').max(1_000_000, 'maxInFlight must be ≤ 1000000'),
    keys: z.number().int('keys must be a whole number').min(1, 'keys must be ≥ 1').max(10_000_000, 'keys must be ≤ 10000000'),
    distribution: z.enum(['uniform', 'zipf'], { error: 'distribution must be "uniform" or "zipf"' }),
    zipfExponent: z.number().min(0, 'zipfExponent must be ≥ 0').max(5, 'zipfExponent must be ≤ 5'),
    // a given mix replaces the whole mix (omitted weights are 0), so all-zero would silently mean 100 % get
    mix: z
      .strictObject({ get: weight, put: weight, delete: weight, cas: weight, createOnce: weight })
      .partial()
      .refine((m) => Object.values(m).some((w) => w !== undefined && w > 0), {
        message: 'mix weights are all 0 (or none given): at least one of get, put, delete, cas, createOnce must be > 0',
      }),
    casMaxRereads: z.number().int('casMaxRereads must be a whole number').min(0, 'casMaxRereads must be ≥ 0').max(1000, 'casMaxRereads must be ≤ 1000'),
  })
  .partial();

export function resolveWorkload(input: z.output<typeof workloadSchema>): WorkloadConfig {
  const { mix, ...rest } = input;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  // an open-loop workload has no closed-loop users unless it asks for them
  if (input.concurrency === undefined && (input.ratePerSec ?? 0) > 0) defined.concurrency = 0;
  const resolvedMix: OpMix = mix === undefined ? DEFAULT_WORKLOAD.mix : { get: 0, put: 0, delete: 0, cas: 0, createOnce: 0, ...mix };
  return { ...DEFAULT_WORKLOAD, ...defined, mix: resolvedMix };
}

/**
 * Applies a validated partial workload over the one in effect (a scheduled
 * change): fields it names replace the base's; a `mix` replaces the whole
 * mix (weights it omits are 0).
 */
export function mergeWorkload(base: WorkloadConfig, input: z.output<typeof workloadSchema>): WorkloadConfig {
  const { mix, ...rest } = input;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return { ...base, ...defined, mix: mix === undefined ? base.mix : { get: 0, put: 0, delete: 0, cas: 0, createOnce: 0, ...mix } };
}

/** a workload that issues nothing (no users, no arrivals) */
export function isIdleWorkload(w: Pick<WorkloadConfig, 'concurrency' | 'ratePerSec'>): boolean {
  return w.concurrency === 0 && w.ratePerSec === 0;
}

/** the settings of `cur` that differ from `base`, as a partial workload section (`mergeWorkload(base, diff)` gives `cur`) */
export function workloadDiff(base: WorkloadConfig, cur: WorkloadConfig): z.input<typeof workloadSchema> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(cur) as (keyof WorkloadConfig)[]) {
    if (k === 'mix') {
      if (MIX_KINDS.some((m) => cur.mix[m] !== base.mix[m])) out.mix = { ...cur.mix };
    } else if (cur[k] !== base[k]) {
      out[k] = cur[k];
    }
  }
  return out as z.input<typeof workloadSchema>;
}
