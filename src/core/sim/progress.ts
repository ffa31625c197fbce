/**
 * Will virtual time advance? A closed-loop user with no think time issues
 * its next operation the moment the last one ends; if every operation it
 * can draw takes 0 ms (no latency, no jitter, no service or replication
 * time), the whole run stays at one instant and never ends. Such a
 * scenario is valid field by field, so it is refused as a whole, naming
 * the fields that would let time advance. (The scheduler's same-instant
 * guard catches whatever this rule cannot foresee.)
 */
import type { ClusterConfig } from '../cluster/clusterConfig';
import type { WorkloadConfig } from './workloadConfig';

/** ms of virtual time one operation of each mix kind takes at least (no queueing) */
export function minOpMs(c: Pick<ClusterConfig, 'latencyMs' | 'jitterMs' | 'getServiceMs' | 'writeServiceMs' | 'replicationMs'>) {
  const net = c.latencyMs > 0 || c.jitterMs > 0 ? 2 * c.latencyMs + (c.jitterMs > 0 ? Number.MIN_VALUE : 0) : 0;
  const get = net + c.getServiceMs;
  const write = net + c.writeServiceMs + c.replicationMs;
  return { get, put: write, delete: write, createOnce: write, cas: get + write };
}

/** why the run would never advance virtual time, or null */
export function zeroTimeProblem(cluster: ClusterConfig, w: WorkloadConfig): string | null {
  if (w.concurrency === 0 || w.thinkMs > 0) return null;
  // an all-zero mix is refused by its own rule
  if (!(Object.keys(w.mix) as (keyof typeof w.mix)[]).some((k) => w.mix[k] > 0)) return null;
  const op = minOpMs(cluster);
  const timed = (Object.keys(op) as (keyof typeof op)[]).some((k) => w.mix[k] > 0 && op[k] > 0);
  if (timed) return null;
  return (
    `every operation would take 0 ms of virtual time, so the ${w.concurrency} closed-loop user(s) with thinkMs 0 keep virtual time from advancing and the run never ends: ` +
    'set one of cluster.latencyMs, cluster.jitterMs, cluster.getServiceMs, cluster.writeServiceMs, cluster.replicationMs, or workload.thinkMs above 0'
  );
}
