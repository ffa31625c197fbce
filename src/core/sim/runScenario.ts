/**
 * One headless run: engine + aggregator + invariant checker → the JSON
 * summary of SPEC §10. Used by the CLI, the tests, the benchmark and the
 * replay worker.
 */

import type { TelemetrySink } from '../telemetry/events';
import { RunAggregator, type Bucket, type IgnoredFault } from '../telemetry/runAggregator';
import { SimEngine } from './engine';
import { InvariantChecker, type InvariantReport } from './invariants';
import { bugsOnAtAnyTime, type ConfigChange, type Scenario } from './scenario';
import type { WorkloadStats } from './workload';
import type { FaultSpec } from '../cluster/faults';
import { ApplyTracker, type WriteAuditReport } from './applyTracker';
import type { ClientConfig } from '../client/config';
import type { SimClock } from '../time/simClock';

export interface RunSummary {
  readonly scenario: string;
  readonly seed: number;
  readonly durationMs: number;
  readonly client: ClientConfig;
  readonly ops: {
    readonly total: number;
    readonly ok: number;
    readonly failed: number;
    /** NotFound / Conflict: real answers, handed back */
    readonly realAnswers: number;
    readonly inFlightAtEnd: number;
    readonly byStatus: Record<string, number>;
    readonly endReasons: Record<string, number>;
  };
  readonly attempts: {
    readonly total: number;
    readonly retries: number;
    /** the most attempts of one operation that ended */
    readonly maxPerOp: number;
    /** the most attempts an operation still in flight at the end had started (0: none in flight) */
    readonly maxPerOpInFlight: number;
    /** attempts per operation → operations that ended */
    readonly histogram: Record<string, number>;
  };
  /** attempt outcomes by status or error */
  readonly statuses: Record<string, number>;
  readonly backoff: { readonly count: number; readonly meanMs: number };
  readonly refresh: {
    readonly requested: number;
    readonly executed: number;
    readonly coalesced: number;
    readonly debounced: number;
    readonly waitAbandoned: number;
    readonly failed: number;
    readonly peakRequestsPerSecond: number;
    readonly peakExecutedPerSecond: number;
    /** the debounce ceiling on executed refreshes: 1000 / refreshDebounceMs */
    readonly debounceCeilingPerSecond: number;
  };
  readonly latencyMs: { readonly p50: number; readonly p95: number; readonly p99: number; readonly max: number };
  readonly throughput: {
    readonly bucketMs: number;
    /** completed operations per second of run time (ok + real answers) */
    readonly series: readonly number[];
    /** of those, on segments no fault touched / on segments a fault touched */
    readonly healthy: readonly number[];
    readonly affected: readonly number[];
    /** failed operations per second */
    readonly failed: readonly number[];
    /** segments no fault named / a fault named at each bucket's end: `healthy` ÷ these is the rate per segment */
    readonly segments: { readonly healthy: readonly number[]; readonly affected: readonly number[] };
  };
  /** in-flight operations by where they wait, sampled at each second's end */
  readonly parked: { readonly attempt: readonly number[]; readonly refreshWait: readonly number[]; readonly backoff: readonly number[] };
  readonly workload: WorkloadStats;
  /** the ambiguous-write audit: writes whose outcome the client could not know, with op ids */
  readonly writes: WriteAuditReport;
  readonly faults: readonly FaultSpec[];
  /** faults that did nothing when they fired, and why (present only when there are any) */
  readonly ignoredFaults?: readonly IgnoredFault[];
  /** the configuration schedule (present only when the scenario has one) */
  readonly changes?: readonly ConfigChange[];
  readonly cluster: { readonly epoch: number; readonly nodes: readonly { readonly id: number; readonly status: string }[] };
  readonly invariants: InvariantReport;
  /** present when the run was on a real engine (`npm run sim -- … --engine redis`) */
  readonly engine?: RealEngineSummary;
}

/** the most attempts of one operation in the run, ended or still in flight at its end */
export function maxAttemptsOfOneOp(s: Pick<RunSummary, 'attempts'>): number {
  return Math.max(s.attempts.maxPerOp, s.attempts.maxPerOpInFlight);
}

/**
 * A summary's served ops/s per segment on each side of the split (null where that side had no
 * segment in the bucket: none is affected before the first fault). In totals, a fault naming a
 * third of the segments takes a third of the traffic off "healthy" without any segment serving less.
 */
export function servedPerSegment(t: RunSummary['throughput']): { readonly healthy: (number | null)[]; readonly affected: (number | null)[] } {
  const per = (rates: readonly number[], segments: readonly number[]): (number | null)[] =>
    rates.map((r, i) => {
      const n = segments[i] ?? 0;
      return n > 0 ? r / n : null;
    });
  return { healthy: per(t.healthy, t.segments.healthy), affected: per(t.affected, t.segments.affected) };
}

/** What a run on a real cluster adds to the summary (see src/engine/redis/README.md). */
export interface RealEngineSummary {
  readonly kind: 'redis';
  /** the client that drove the workload */
  readonly client: 'zaris' | 'ioredis';
  readonly redisVersion: string;
  /** masters + replicas started (scale-out nodes included) */
  readonly servers: number;
  /** cluster-node-timeout, ms (from cluster.failureTimeoutMs) */
  readonly nodeTimeoutMs: number;
  /** WAIT n before acknowledging a write (0: Redis's asynchronous replication) */
  readonly waitReplicas: number;
  /** open-loop rate asked for and run at (ops/s), and why they differ */
  readonly rate: { readonly scenario: number; readonly run: number; readonly note: string };
  readonly prefill: { readonly keys: number; readonly ms: number; readonly opsPerSec: number };
  /** ASK redirections followed inside an attempt */
  readonly asks: number;
  /** map fetches the servers served (INFO commandstats, summed over nodes; a killed node's last second may be missing) */
  readonly serverCalls: Readonly<Record<string, number>>;
  /** per fault: when it was applied, when the cluster was whole again, what the application got meanwhile */
  readonly faultWindows: readonly {
    readonly action: string;
    readonly node: number;
    readonly atMs: number;
    /** ms until the monitor saw the repair (promotion, migration done, failback done); null: not within the run */
    readonly repairedAfterMs: number | null;
    readonly okOpsPerSec: number;
    readonly failedOps: number;
  }[];
  /** longest stretch of 100 ms buckets with under 10 % of the pre-fault completion rate, ms */
  readonly stallMs: number;
  /** acknowledged writes lost: stale reads + keys the read-back found at an older version (op ids of the first) */
  readonly lostAckedWrites: { readonly count: number; readonly ops: readonly number[] };
  /** the client's own counters, where it has them (ioredis: redirections, errors by message) */
  readonly clientNotes: Readonly<Record<string, number | string>>;
  /** "stopped all N redis-server processes" */
  readonly cleanup: string;
}

/** What a summary needs from a run besides its events. */
export interface RunFacts {
  readonly scenario: Scenario;
  readonly seed: number;
  readonly workload: WorkloadStats;
  /** the engine's ambiguous-write audit (null where applies cannot be observed: a real engine) */
  readonly applies: ApplyTracker | null;
  readonly cluster: { readonly epoch: number; readonly nodes: readonly { readonly id: number; readonly status: string }[] };
}

export interface RunOptions {
  readonly seed?: number;
  /** extra sinks (e.g. NDJSON output) */
  readonly sinks?: readonly TelemetrySink[];
  readonly onProgress?: (fraction: number) => void;
  /** how many progress steps (default 100) */
  readonly progressSlices?: number;
  /** the clock to run on (default: the engine's own virtual time) */
  readonly clock?: SimClock;
}

export interface RunOutcome {
  readonly summary: RunSummary;
  readonly engine: SimEngine;
  readonly aggregator: RunAggregator;
}

export function runScenario(scenario: Scenario, options: RunOptions = {}): RunOutcome {
  const aggregator = new RunAggregator(1000);
  // Allowances follow the configuration in effect; a violation counts as
  // explained by a bug toggle that was on at any point of the run.
  const bugs = bugsOnAtAnyTime(scenario);
  let current: () => ClientConfig = () => scenario.client;
  // one object per configuration in effect (the checker reads it per operation and caches by identity)
  let seen: ClientConfig | null = null;
  let withBugs: ClientConfig = scenario.client;
  const checker = new InvariantChecker(() => {
    const c = current();
    if (c !== seen) {
      seen = c;
      withBugs = { ...c, bugs };
    }
    return withBugs;
  });
  const engine = new SimEngine(scenario, {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    sinks: [aggregator, checker, ...(options.sinks ?? [])],
    ...(options.clock !== undefined ? { clock: options.clock } : {}),
  });
  current = () => engine.client.config;
  checker.watchCluster(engine.state);
  engine.run(options.onProgress, options.progressSlices);
  aggregator.finish(scenario.durationMs);
  checker.finishAvailability(engine.now);
  checker.checkFinalState(engine.cluster);
  return { summary: summarize(engine, aggregator, checker.report()), engine, aggregator };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export function summarize(engine: SimEngine, agg: RunAggregator, invariants: InvariantReport): RunSummary {
  return summarizeRun(
    {
      scenario: engine.scenario,
      seed: engine.seed,
      workload: engine.workload.stats,
      applies: engine.applies,
      cluster: { epoch: engine.state.epoch, nodes: engine.state.nodes.map((n) => ({ id: n.id, status: n.status })) },
    },
    agg,
    invariants,
  );
}

/** the SPEC §10 summary of any run: the simulation's, or a real engine's */
export function summarizeRun(run: RunFacts, agg: RunAggregator, invariants: InvariantReport): RunSummary {
  const sc = run.scenario;
  const perSec = 1000 / agg.bucketMs;
  const buckets = agg.buckets.slice(0, Math.ceil(sc.durationMs / agg.bucketMs));
  const series = (f: (b: Bucket) => number): number[] => buckets.map((b) => round3(f(b) * perSec));
  const counts = agg.opCounts();
  const histogram: Record<string, number> = {};
  const attemptHistogram = agg.attemptHistogram;
  for (const k of [...attemptHistogram.keys()].sort((a, b) => a - b)) histogram[String(k)] = attemptHistogram.get(k) as number;
  const applies = run.applies;
  return {
    scenario: sc.name,
    seed: run.seed,
    durationMs: sc.durationMs,
    client: sc.client,
    ops: {
      total: counts.total,
      ok: counts.ok,
      failed: counts.failed,
      realAnswers: counts.realAnswers,
      inFlightAtEnd: agg.live.size,
      byStatus: RunAggregator.fullTable(agg.opsByOutcome),
      endReasons: { ...agg.endReasons },
    },
    attempts: { total: agg.attempts, retries: agg.retries, maxPerOp: agg.maxAttemptsPerOp, maxPerOpInFlight: agg.maxAttemptsInFlight(), histogram },
    statuses: RunAggregator.fullTable(agg.attemptsByOutcome),
    backoff: { count: agg.backoffCount, meanMs: agg.backoffCount === 0 ? 0 : round3(agg.backoffTotalMs / agg.backoffCount) },
    refresh: {
      ...agg.refresh,
      peakRequestsPerSecond: Math.max(0, ...series((b) => b.refreshRequests)),
      peakExecutedPerSecond: Math.max(0, ...series((b) => b.refreshExecuted)),
      debounceCeilingPerSecond: sc.client.refreshDebounceMs > 0 ? round3(1000 / sc.client.refreshDebounceMs) : Infinity,
    },
    latencyMs: {
      p50: agg.latency.quantile(0.5),
      p95: agg.latency.quantile(0.95),
      p99: agg.latency.quantile(0.99),
      max: round3(agg.latency.max),
    },
    throughput: {
      bucketMs: agg.bucketMs,
      series: series((b) => b.okHealthy + b.okAffected),
      healthy: series((b) => b.okHealthy),
      affected: series((b) => b.okAffected),
      failed: series((b) => b.failed),
      segments: { healthy: buckets.map((b) => b.segmentsHealthy), affected: buckets.map((b) => b.segmentsAffected) },
    },
    parked: {
      attempt: buckets.map((b) => b.parkedAttemptHealthy + b.parkedAttemptAffected),
      refreshWait: buckets.map((b) => b.parkedRefreshWait),
      backoff: buckets.map((b) => b.parkedBackoff),
    },
    workload: { ...run.workload },
    writes: (applies ?? new ApplyTracker()).report(),
    faults: sc.faults,
    ...(agg.ignoredFaults.length > 0 ? { ignoredFaults: agg.ignoredFaults.map((f) => ({ ...f })) } : {}),
    ...(sc.changes.length > 0 ? { changes: sc.changes } : {}),
    cluster: { epoch: run.cluster.epoch, nodes: run.cluster.nodes.map((n) => ({ ...n })) },
    invariants,
  };
}

