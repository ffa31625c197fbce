/**
 * fast-check generators of small random scenarios with random fault
 * schedules that pass scenario validation (every fault's node exists at its
 * time: scaleOuts are tracked), every workload shape (closed loop, open-loop
 * Poisson rates with a pool, both; uniform or zipf keys) and configuration
 * schedules (`changes`). Pure, used only by property tests.
 */
import fc from 'fast-check';
import { BUG_TOGGLES, type BugToggles } from '../../client/config';
import { DEFAULT_CLUSTER_CONFIG } from '../../cluster/clusterConfig';
import { FAULT_ACTIONS, type FaultAction } from '../../telemetry/events';
import { faultScheduleIssues } from '../faultTimeline';
import type { OpMix, WorkloadConfig } from '../workloadConfig';

export interface GeneratedFault {
  readonly atMs: number;
  readonly action: FaultAction;
  readonly node?: number;
  readonly durationMs?: number;
  readonly factor?: number;
  readonly probability?: number;
}

/** a scenario input as the loader takes it */
export interface GeneratedScenario {
  readonly name: string;
  readonly seed: number;
  readonly durationMs: number;
  readonly cluster: {
    readonly nodes: number;
    readonly segments: number;
    readonly replicas: number;
    readonly heartbeatMs: number;
    readonly failureTimeoutMs: number;
    readonly migrationBaseMs: number;
    readonly catchUpBaseMs: number;
    readonly handoffMs: number;
  };
  readonly client: {
    readonly maxAttempts?: number;
    readonly disableRetries?: boolean;
    readonly operationTimeoutMs: number | 'infinite';
    readonly attemptTimeoutMs: number;
    readonly backoffMillis: number;
    readonly refreshWaitBudgetMs: number;
  };
  readonly bugs: Partial<BugToggles>;
  readonly workload: GeneratedWorkload;
  readonly faults: readonly GeneratedFault[];
  /** the configuration schedule (omitted when empty) */
  readonly changes?: readonly GeneratedChange[];
}

/** a drawn operation mix: the scenario's own shape */
export type GeneratedMix = OpMix;

/** a drawn workload: the scenario's workload fields the generators set */
export type GeneratedWorkload = Pick<WorkloadConfig, 'concurrency' | 'thinkMs' | 'ratePerSec' | 'maxInFlight' | 'keys' | 'distribution' | 'zipfExponent' | 'mix'>;

/** one entry of a generated configuration schedule */
export interface GeneratedChange {
  readonly atMs: number;
  readonly client?: { readonly backoffMillis?: number; readonly operationTimeoutMs?: number | 'infinite'; readonly maxAttempts?: number };
  readonly workload?: Partial<Pick<GeneratedWorkload, 'concurrency' | 'thinkMs' | 'ratePerSec' | 'distribution' | 'mix'>>;
  readonly paused?: boolean;
}

interface RawFault {
  readonly at: number;
  readonly action: FaultAction;
  readonly pick: number;
  readonly omitNode: boolean;
  readonly durationMs: number | undefined;
  readonly factor: number;
  readonly probability: number;
  /** a burst: this fault comes this many ms after the previous drawn fault (`at` is then unused) */
  readonly follow?: number | undefined;
}

const rawFault: fc.Arbitrary<RawFault> = fc.record({
  at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  action: fc.constantFrom(...FAULT_ACTIONS),
  pick: fc.nat({ max: 1000 }),
  omitNode: fc.boolean(),
  durationMs: fc.option(fc.integer({ min: 1, max: 2500 }), { nil: undefined }),
  factor: fc.integer({ min: 2, max: 50 }),
  probability: fc.double({ min: 0.01, max: 1, noNaN: true }),
  // shrinks to undefined: an independent time, as before bursts
  follow: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined, freq: 3 }),
});

/** each raw fault's time: `at` scaled to the run, or the previous draw's time plus `follow` (a burst; may fall past the end, then validation leaves it out) */
function drawTimes(raw: readonly RawFault[], durationMs: number): number[] {
  const times: number[] = [];
  raw.forEach((f, i) => {
    const prev = times[i - 1];
    times.push(f.follow !== undefined && prev !== undefined ? prev + f.follow : Math.floor(f.at * durationMs));
  });
  return times;
}

/**
 * Turns raw draws into a valid schedule: faults in time order, each node
 * picked among the members that exist at that time (initial nodes plus the
 * scaleOuts before it); a fault drawn with `follow` comes that many ms after
 * the previous drawn fault (a burst) instead of at its own random time;
 * failback may omit its node; a failover of a node already down becomes its
 * failback. A draw that validation would still
 * refuse — a fault the control plane would ignore (`faultTimeline.ts`: a
 * resume of a node not hung, a failback of a node that is up, …) — is left out.
 */
export function toSchedule(raw: readonly RawFault[], nodes: number, durationMs: number, failureTimeoutMs = DEFAULT_CLUSTER_CONFIG.failureTimeoutMs): GeneratedFault[] {
  let members = nodes;
  const down = new Set<number>();
  const kept: GeneratedFault[] = [];
  const times = drawTimes(raw, durationMs);
  const drawn = raw
    .map((f, i) => ({ ...f, atMs: times[i] as number }))
    .sort((a, b) => a.atMs - b.atMs)
    .map((f): GeneratedFault => {
      if (f.action === 'scaleOut') {
        members++;
        return { atMs: f.atMs, action: 'scaleOut' };
      }
      // validation refuses a failover of a node already down: fail it back instead
      if (f.action === 'failover') {
        const node = f.pick % members;
        if (down.has(node)) {
          down.delete(node);
          return { atMs: f.atMs, action: 'failback', node };
        }
        down.add(node);
        return { atMs: f.atMs, action: 'failover', node };
      }
      if (f.action === 'failback') {
        const node = f.omitNode ? [...down].sort((a, b) => a - b)[0] : f.pick % members;
        if (node !== undefined) down.delete(node);
      }
      const base = f.action === 'failback' && f.omitNode ? { atMs: f.atMs, action: f.action } : { atMs: f.atMs, action: f.action, node: f.pick % members };
      switch (f.action) {
        case 'hang':
          return f.durationMs === undefined ? base : { ...base, durationMs: f.durationMs };
        case 'slow':
          return { ...base, factor: f.factor, ...(f.durationMs === undefined ? {} : { durationMs: f.durationMs }) };
        case 'lostAck':
          return { ...base, probability: f.probability, ...(f.durationMs === undefined ? {} : { durationMs: f.durationMs }) };
        default:
          return base;
      }
    });
  for (const f of drawn) {
    if (faultScheduleIssues([...kept, f], { members: nodes, durationMs, failureTimeoutMs }).length === 0) kept.push(f);
  }
  return kept;
}

const mixArb: fc.Arbitrary<GeneratedMix> = fc
  .record({
    get: fc.integer({ min: 0, max: 4 }),
    put: fc.integer({ min: 0, max: 4 }),
    delete: fc.integer({ min: 0, max: 2 }),
    cas: fc.integer({ min: 0, max: 3 }),
    createOnce: fc.integer({ min: 0, max: 3 }),
  })
  .map((m) => (m.get + m.put + m.delete + m.cas + m.createOnce === 0 ? { ...m, get: 1, put: 1 } : m));

/** closed loop, open loop or both; the loads stay small enough for many schedules per test */
const loopArb = fc.oneof(
  fc.record({ concurrency: fc.integer({ min: 4, max: 16 }), ratePerSec: fc.constant(0) }),
  fc.record({ concurrency: fc.constant(0), ratePerSec: fc.integer({ min: 200, max: 2500 }) }),
  fc.record({ concurrency: fc.integer({ min: 1, max: 8 }), ratePerSec: fc.integer({ min: 100, max: 1500 }) }),
);

interface RawChange {
  readonly at: number;
  readonly what: 'client' | 'workload' | 'pause';
  readonly backoffMillis: number;
  readonly operationTimeoutMs: number | 'infinite';
  readonly maxAttempts: number;
  readonly loop: { readonly concurrency: number; readonly ratePerSec: number };
  readonly thinkMs: number;
  readonly zipf: boolean;
  readonly mix: GeneratedMix | undefined;
}

const rawChange: fc.Arbitrary<RawChange> = fc.record({
  at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  what: fc.constantFrom('client' as const, 'workload' as const, 'pause' as const),
  backoffMillis: fc.integer({ min: 0, max: 200 }),
  operationTimeoutMs: fc.oneof(fc.constant<'infinite'>('infinite'), fc.integer({ min: 50, max: 3000 })),
  maxAttempts: fc.integer({ min: 1, max: 5 }),
  loop: loopArb,
  thinkMs: fc.integer({ min: 4, max: 12 }),
  zipf: fc.boolean(),
  mix: fc.option(mixArb, { nil: undefined }),
});

/**
 * Raw draws → a valid configuration schedule, in time order: client
 * settings (the attempt budget only when it may vary), a new workload
 * shape, or a pause that the next pause entry resumes.
 */
export function toChanges(raw: readonly RawChange[], durationMs: number, varyBudget: boolean): GeneratedChange[] {
  let paused = false;
  let last = -1;
  return raw
    .map((c) => ({ ...c, atMs: Math.floor(c.at * durationMs) }))
    .sort((a, b) => a.atMs - b.atMs)
    // one change per instant (validation refuses a setting given twice at one instant)
    .map((c) => {
      last = Math.max(c.atMs, last + 1);
      return { ...c, atMs: last };
    })
    .filter((c) => c.atMs < durationMs)
    .map((c): GeneratedChange => {
      if (c.what === 'pause') {
        paused = !paused;
        return { atMs: c.atMs, paused };
      }
      if (c.what === 'client') {
        return { atMs: c.atMs, client: { backoffMillis: c.backoffMillis, operationTimeoutMs: c.operationTimeoutMs, ...(varyBudget ? { maxAttempts: c.maxAttempts } : {}) } };
      }
      return {
        atMs: c.atMs,
        workload: { ...c.loop, thinkMs: c.thinkMs, distribution: c.zipf ? 'zipf' : 'uniform', ...(c.mix !== undefined ? { mix: c.mix } : {}) },
      };
    });
}

export interface ScenarioArbOptions {
  /** let the client configuration vary too (attempt budget, retries off) */
  readonly varyBudget?: boolean;
  /** bug toggles that may be switched on */
  readonly bugs?: readonly (keyof BugToggles)[];
  readonly maxFaults?: number;
  /** at most this many configuration changes (default 3; 0 = none) */
  readonly maxChanges?: number;
}

/**
 * Small clusters (2–4 nodes, 8–16 segments, 0–2 replicas below the node
 * count), a closed loop of 4–16 users and/or open-loop arrivals
 * (100–2,500/s through a pool of 8–128), uniform or zipf keys over 50 keys,
 * 2–4 s of virtual time, a fast failure detector so failovers complete
 * within the run, up to `maxFaults` random faults and up to `maxChanges`
 * configuration changes.
 */
export function scenarioArb(options: ScenarioArbOptions = {}): fc.Arbitrary<GeneratedScenario> {
  const bugNames = options.bugs ?? [];
  return fc
    .record({
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      durationMs: fc.integer({ min: 2000, max: 4000 }),
      nodes: fc.integer({ min: 2, max: 4 }),
      segments: fc.integer({ min: 8, max: 16 }),
      replicas: fc.integer({ min: 0, max: 2 }),
      heartbeatMs: fc.integer({ min: 20, max: 200 }),
      failureTimeoutMs: fc.integer({ min: 100, max: 1200 }),
      migrationBaseMs: fc.integer({ min: 0, max: 300 }),
      catchUpBaseMs: fc.integer({ min: 0, max: 600 }),
      handoffMs: fc.integer({ min: 0, max: 400 }),
      maxAttempts: fc.integer({ min: 1, max: 5 }),
      disableRetries: fc.boolean(),
      operationTimeoutMs: fc.oneof(fc.constant<'infinite'>('infinite'), fc.integer({ min: 1, max: 3000 }), fc.constant(60_000)),
      attemptTimeoutMs: fc.integer({ min: 20, max: 1000 }),
      backoffMillis: fc.integer({ min: 0, max: 200 }),
      refreshWaitBudgetMs: fc.integer({ min: 0, max: 2000 }),
      bugsOn: fc.subarray([...bugNames]),
      loop: loopArb,
      thinkMs: fc.integer({ min: 4, max: 12 }),
      maxInFlight: fc.integer({ min: 8, max: 128 }),
      zipf: fc.boolean(),
      zipfExponent: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
      mix: mixArb,
      faults: fc.array(rawFault, { maxLength: options.maxFaults ?? 6 }),
      changes: fc.array(rawChange, { maxLength: options.maxChanges ?? 3 }),
    })
    .map((r): GeneratedScenario => {
      const replicas = Math.min(r.replicas, r.nodes - 1);
      const bugs = Object.fromEntries(BUG_TOGGLES.map((b) => [b, r.bugsOn.includes(b)])) as unknown as BugToggles;
      return {
        name: 'property',
        seed: r.seed,
        durationMs: r.durationMs,
        cluster: {
          nodes: r.nodes,
          segments: r.segments,
          replicas,
          heartbeatMs: r.heartbeatMs,
          failureTimeoutMs: r.failureTimeoutMs,
          migrationBaseMs: r.migrationBaseMs,
          catchUpBaseMs: r.catchUpBaseMs,
          handoffMs: r.handoffMs,
        },
        client: {
          ...(options.varyBudget ? { maxAttempts: r.maxAttempts, disableRetries: r.disableRetries } : {}),
          operationTimeoutMs: r.operationTimeoutMs,
          attemptTimeoutMs: r.attemptTimeoutMs,
          backoffMillis: r.backoffMillis,
          refreshWaitBudgetMs: r.refreshWaitBudgetMs,
        },
        bugs,
        workload: {
          concurrency: r.loop.concurrency,
          thinkMs: r.thinkMs,
          ratePerSec: r.loop.ratePerSec,
          maxInFlight: r.maxInFlight,
          keys: 50,
          distribution: r.zipf ? 'zipf' : 'uniform',
          zipfExponent: r.zipfExponent,
          mix: r.mix,
        },
        faults: toSchedule(r.faults, r.nodes, r.durationMs, r.failureTimeoutMs),
        ...(r.changes.length > 0 ? { changes: toChanges(r.changes, r.durationMs, options.varyBudget === true) } : {}),
      };
    });
}
