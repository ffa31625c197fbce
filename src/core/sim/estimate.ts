/**
 * How big a run is, before it starts: the operations the workload will
 * offer (open-loop arrivals, closed-loop users bounded by the nodes'
 * service capacity), over the configuration schedule. The CLI prints it up
 * front for long runs and uses it to size progress steps. An estimate, not
 * a promise: churn, retries and pauses move the real figure.
 */
import type { ClusterConfig } from '../cluster/clusterConfig';
import { minOpMs } from './progress';
import type { Scenario } from './scenario';
import { mergeWorkload, MIX_KINDS, type WorkloadConfig } from './workloadConfig';

/** simulated ops per wall-clock second with aggregated telemetry (`npm run bench`, this project's 2-core machine, shared) */
export const REFERENCE_OPS_PER_SEC = 350_000;
/** wall-clock seconds per open-loop arrival beyond the operations (the arrival timer of a refused arrival; measured with the CLI: 10 M arrivals per virtual second take ≈5 s) */
export const SECONDS_PER_ARRIVAL = 5e-7;
/** NDJSON bytes per operation (`npm run bench`: 1.1 GB of events for 2.1 M operations) */
export const NDJSON_BYTES_PER_OP = 520;
/** runs estimated to take this many wall-clock seconds or more get the estimate on stderr */
export const ESTIMATE_FROM_SECONDS = 10;
/** …and progress lines on stderr when it is not a terminal */
export const PROGRESS_LINES_FROM_SECONDS = 10;

export interface RunEstimate {
  /** operations the workload is expected to issue */
  readonly operations: number;
  /** open-loop arrivals (an arrival the nodes cannot take is refused, but still costs its timer) */
  readonly arrivals: number;
  readonly durationMs: number;
  /** wall-clock seconds at {@link REFERENCE_OPS_PER_SEC} */
  readonly wallSeconds: number;
}

/** operations per second a workload issues on this cluster (no churn, no queueing beyond the nodes' capacity) */
export function opsPerSecond(cluster: ClusterConfig, w: WorkloadConfig): number {
  const op = minOpMs(cluster);
  const total = MIX_KINDS.reduce((a, k) => a + w.mix[k], 0);
  if (total <= 0) return 0;
  // mean time of one operation, and of node service per operation (a CAS is a read and a write)
  const meanMs = MIX_KINDS.reduce((a, k) => a + (w.mix[k] / total) * op[k], 0);
  const serviceMs = MIX_KINDS.reduce((a, k) => {
    const s = k === 'get' ? cluster.getServiceMs : k === 'cas' ? cluster.getServiceMs + cluster.writeServiceMs : cluster.writeServiceMs;
    return a + (w.mix[k] / total) * s;
  }, 0);
  const closed = w.concurrency > 0 ? (w.concurrency * 1000) / Math.max(w.thinkMs + meanMs, 1e-6) : 0;
  const capacity = serviceMs > 0 ? (cluster.nodes * 1000) / serviceMs : Infinity;
  return Math.min(closed + w.ratePerSec, capacity);
}

export function estimateRun(s: Scenario): RunEstimate {
  let w = s.workload;
  let paused = false;
  let t = 0;
  let ops = 0;
  let arrivals = 0;
  for (const c of s.changes) {
    const at = Math.min(c.atMs, s.durationMs);
    if (!paused) {
      ops += (opsPerSecond(s.cluster, w) * (at - t)) / 1000;
      arrivals += (w.ratePerSec * (at - t)) / 1000;
    }
    t = at;
    if (c.workload !== undefined) w = mergeWorkload(w, c.workload);
    if (c.paused !== undefined) paused = c.paused;
  }
  if (!paused) {
    ops += (opsPerSecond(s.cluster, w) * (s.durationMs - t)) / 1000;
    arrivals += (w.ratePerSec * (s.durationMs - t)) / 1000;
  }
  const operations = Math.round(ops);
  const extraArrivals = Math.max(0, arrivals - operations);
  return {
    operations,
    arrivals: Math.round(arrivals),
    durationMs: s.durationMs,
    wallSeconds: operations / REFERENCE_OPS_PER_SEC + extraArrivals * SECONDS_PER_ARRIVAL,
  };
}

/** progress steps: about one per 0.3 s of estimated wall time (at least 100) */
export function progressSlices(e: RunEstimate): number {
  return Math.max(100, Math.min(100_000, Math.ceil(e.wallSeconds / 0.3)));
}

const big = (n: number): string => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} billion` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} million` : String(Math.round(n)));

function duration(s: number): string {
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86_400).toFixed(1)} days`;
}

/** one line: operations, wall time at the reference rate, NDJSON size */
export function describeEstimate(e: RunEstimate): string {
  return (
    `about ${big(e.operations)} operations${e.arrivals > e.operations * 1.5 ? ` (of ${big(e.arrivals)} open-loop arrivals; the rest find the nodes or the pool full)` : ''} in ${e.durationMs / 1000} s of virtual time; ` +
    `on this project's machine that is ≈${duration(e.wallSeconds)} of wall time ` +
    `(--events would write ≈${big(e.operations * NDJSON_BYTES_PER_OP)} bytes); progress follows on stderr`
  );
}
