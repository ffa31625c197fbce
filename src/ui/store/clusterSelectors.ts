/** Named pure selectors over the cluster and client views. */
import type { NodeStatus, SegmentPhase } from '../../core/cluster/controlState';
import type { ClientView, ClusterView } from '../bridge/types';

/** one segment in the grid */
export interface SegmentCell {
  readonly segment: number;
  /** the cluster's active owner (-1 = none) */
  readonly owner: number;
  /** the owner in the client's cached map (-1 = none or no map yet) */
  readonly clientOwner: number;
  readonly phase: SegmentPhase;
  /** the client's map disagrees with the cluster for this segment */
  readonly stale: boolean;
  /** its owner is not up (crashed, hung, or not yet rejoined): it answers nothing until a replica is promoted */
  readonly ownerDown: boolean;
  readonly replicas: readonly number[];
}

/** the client holds a fetched map (epoch 0 = none yet: nothing is routable, nothing is "stale") */
export function hasClientMap(client: ClientView | null): client is ClientView {
  return client !== null && client.epoch > 0;
}

/** segments with ownership, phase and staleness (client owner ≠ cluster owner) */
export function selectSegmentCells(cluster: ClusterView | null, client: ClientView | null): SegmentCell[] {
  if (cluster === null) return [];
  const map = hasClientMap(client) ? client : null;
  const status = new Map(cluster.nodes.map((n) => [n.id, n.status]));
  return cluster.owners.map((owner, segment) => {
    const clientOwner = map?.owners[segment] ?? -1;
    return {
      segment,
      owner,
      clientOwner,
      phase: cluster.phases[segment] ?? 'stable',
      stale: map !== null && clientOwner !== owner,
      ownerDown: owner >= 0 && (status.get(owner) ?? 'up') !== 'up',
      replicas: cluster.replicas[segment] ?? [],
    };
  });
}

/** number of segments where the client's map disagrees with the cluster */
export function selectStaleCount(cluster: ClusterView | null, client: ClientView | null): number {
  if (cluster === null || !hasClientMap(client)) return 0;
  let n = 0;
  cluster.owners.forEach((o, s) => {
    if ((client.owners[s] ?? -1) !== o) n++;
  });
  return n;
}

/** one node card */
export interface NodeCard {
  readonly id: number;
  readonly status: NodeStatus;
  readonly declaredDead: boolean;
  /** segments it is active owner of */
  readonly owned: number;
  /** segments it holds a replica of */
  readonly replicaOf: number;
  /** segments the client's map routes to it */
  readonly clientRouted: number;
}

export function selectNodeCards(cluster: ClusterView | null, client: ClientView | null): NodeCard[] {
  if (cluster === null) return [];
  return cluster.nodes.map((n) => ({
    id: n.id,
    status: n.status,
    declaredDead: n.declaredDead,
    owned: cluster.owners.filter((o) => o === n.id).length,
    replicaOf: cluster.replicas.filter((r) => r.includes(n.id)).length,
    clientRouted: client === null ? 0 : client.owners.filter((o) => o === n.id).length,
  }));
}

/** epochs of the cluster's truth and of the client's cached map */
export function selectEpochs(cluster: ClusterView | null, client: ClientView | null): { cluster: number | null; client: number | null; behind: number } {
  const c = cluster?.epoch ?? null;
  const m = hasClientMap(client) ? client.epoch : null;
  return { cluster: c, client: m, behind: c !== null && m !== null ? Math.max(0, c - m) : 0 };
}

/** node ids a fault may target, by action (live nodes for crash/hang, down ones for failback) */
export function selectFaultTargets(cluster: ClusterView | null): { up: number[]; down: number[]; hung: number[]; all: number[] } {
  const nodes = cluster?.nodes ?? [];
  return {
    up: nodes.filter((n) => n.status === 'up' || n.status === 'joining' || n.status === 'recovering').map((n) => n.id),
    down: nodes.filter((n) => n.status === 'down').map((n) => n.id),
    hung: nodes.filter((n) => n.status === 'hung').map((n) => n.id),
    all: nodes.map((n) => n.id),
  };
}

/** what ownership is counted in: a real Redis Cluster's hash slots (its view carries `slots`), else the scenario's segments */
export function keyspaceUnit(cluster: ClusterView | null): 'hash slot' | 'segment' {
  return cluster?.slots !== undefined ? 'hash slot' : 'segment';
}

/** the keyspace as the header names it: "16,384 hash slots" on the real engine, else "64 segments" */
export function keyspaceText(cluster: ClusterView | null, segments: number): string {
  return cluster?.slots !== undefined ? `${cluster.slots.toLocaleString('en-US')} hash slots` : `${segments} segments`;
}

/** the statuses a node that is not up can have, in the order a caption names them */
const NOT_UP: readonly Exclude<NodeStatus, 'up'>[] = ['down', 'hung', 'joining', 'recovering'];

/** the view's nodes that are not up, by status ("1 down", "1 down, 1 joining"); '' when all are up */
export function nodesNotUpText(cluster: ClusterView): string {
  return NOT_UP.map((status) => [status, cluster.nodes.filter((n) => n.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
}
