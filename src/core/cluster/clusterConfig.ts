import { z } from 'zod';
import { timeMs } from '../validation';

/** Shape and mechanics of the simulated cluster (scenario field `cluster`). */
export interface ClusterConfig {
  /** initial members (node ids 0..nodes-1) */
  readonly nodes: number;
  /** keyspace segments (SPEC default 64) */
  readonly segments: number;
  /** synchronous replicas per segment besides the active owner */
  readonly replicas: number;
  /** ms between heartbeats; the detector checks on the same period */
  readonly heartbeatMs: number;
  /** missed-heartbeat window after which a silent node is declared dead, ms */
  readonly failureTimeoutMs: number;
  /** one-way network latency floor, ms */
  readonly latencyMs: number;
  /** mean of the exponential jitter added to each one-way latency, ms */
  readonly jitterMs: number;
  /** node service time of a get, ms (one request at a time per node) */
  readonly getServiceMs: number;
  /** node service time of a put/delete, ms */
  readonly writeServiceMs: number;
  /** extra ack delay of a write for synchronous replication (one round trip), ms */
  readonly replicationMs: number;
  /** node service time of a map fetch: base + per segment, ms */
  readonly mapServiceMs: number;
  readonly mapServicePerSegmentMs: number;
  /** segment migration time: base + per key moved, ms */
  readonly migrationBaseMs: number;
  readonly migrationMsPerKey: number;
  /** segments migrating at once during a rebalance */
  readonly migrationConcurrency: number;
  /** catch-up of a returning node: base + per key copied, ms */
  readonly catchUpBaseMs: number;
  readonly catchUpMsPerKey: number;
  /** length of an ownership handoff window (failback), ms */
  readonly handoffMs: number;
}

export const DEFAULT_CLUSTER_CONFIG: ClusterConfig = {
  nodes: 3,
  segments: 64,
  replicas: 1,
  heartbeatMs: 500,
  failureTimeoutMs: 3_500,
  latencyMs: 0.25,
  jitterMs: 0.1,
  getServiceMs: 0.02,
  writeServiceMs: 0.04,
  replicationMs: 0.5,
  mapServiceMs: 0.5,
  mapServicePerSegmentMs: 0.02,
  migrationBaseMs: 200,
  migrationMsPerKey: 0.5,
  migrationConcurrency: 2,
  catchUpBaseMs: 500,
  catchUpMsPerKey: 0.2,
  handoffMs: 300,
};

/** the most members a cluster may have (cluster.nodes, and the total after scale-outs) */
export const MAX_CLUSTER_NODES = 32;

/** a cluster time: 0, or 1 µs up to an hour */
const clusterMs = timeMs();

export const clusterConfigSchema = z
  .strictObject({
    nodes: z.number().int('must be a whole number').min(1, 'must be ≥ 1').max(MAX_CLUSTER_NODES, `must be ≤ ${MAX_CLUSTER_NODES}`),
    segments: z.number().int('must be a whole number').min(1, 'must be ≥ 1').max(4096, 'must be ≤ 4096'),
    replicas: z.number().int('must be a whole number').min(0, 'must be ≥ 0').max(8, 'must be ≤ 8'),
    heartbeatMs: clusterMs.min(1, 'must be ≥ 1 ms'),
    failureTimeoutMs: clusterMs,
    latencyMs: clusterMs,
    jitterMs: clusterMs,
    getServiceMs: clusterMs,
    writeServiceMs: clusterMs,
    replicationMs: clusterMs,
    mapServiceMs: clusterMs,
    mapServicePerSegmentMs: clusterMs,
    migrationBaseMs: clusterMs,
    migrationMsPerKey: clusterMs,
    migrationConcurrency: z.number().int('must be a whole number').min(1, 'must be ≥ 1').max(64, 'must be ≤ 64'),
    catchUpBaseMs: clusterMs,
    catchUpMsPerKey: clusterMs,
    handoffMs: clusterMs,
  })
  .partial();
