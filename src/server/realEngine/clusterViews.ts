/**
 * The real cluster as the dashboard's cluster panel reads it (ClusterView,
 * ClientView), from `CLUSTER NODES` and the Zaris client's cached map. Redis
 * has 16,384 hash slots; the panel draws one cell per segment of the
 * scenario, so each cell stands for a contiguous range of slots (16,384 /
 * cells of them) and shows the master serving most of that range. The
 * telemetry events keep the real slot numbers.
 */
import type { NodeStatus, SegmentPhase } from '../../core/cluster/controlState';
import { cellSlots, type ClientView, type ClusterView } from '../../core/cluster/views';
import { NO_OWNER } from '../../core/domain/clusterMap';
import { REDIS_SLOTS } from '../../core/domain/redisKeyspace';
import { isFailed, isMaster, isMember, type NodeLine } from '../../engine/redis/clusterNodes';

/** what the projection needs to know of the engine's nodes */
export interface NodeFacts {
  /** every node id the run has started, ascending */
  readonly ids: readonly number[];
  /** the node id listening on a port (-1 = none of ours) */
  idOf(port: number): number;
  /** down (killed), hung (SIGSTOP) or up, from the processes themselves */
  processStatus(id: number): NodeStatus;
}

/** the Redis slots of cell `i` of `cells`: [first, end) */
export function redisCellSlots(i: number, cells: number): readonly [number, number] {
  return cellSlots(i, cells, REDIS_SLOTS);
}

/** per cell, the value most of its slots have (ties: the lowest); `owners` is per slot */
export function projectOwners(owners: ArrayLike<number>, cells: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < cells; i++) {
    const [a, b] = redisCellSlots(i, cells);
    const count = new Map<number, number>();
    for (let s = a; s < b; s++) {
      const o = owners[s] ?? NO_OWNER;
      count.set(o, (count.get(o) ?? 0) + 1);
    }
    let best = NO_OWNER;
    let bestN = -1;
    for (const [o, n] of [...count].sort((x, y) => x[0] - y[0])) {
      if (n > bestN) {
        best = o;
        bestN = n;
      }
    }
    out.push(best);
  }
  return out;
}

export function clusterViewOfNodes(lines: readonly NodeLine[], facts: NodeFacts, cells: number, t: number): ClusterView {
  const owners = new Int32Array(REDIS_SLOTS).fill(NO_OWNER);
  const migrating = new Uint8Array(REDIS_SLOTS);
  const byRedisId = new Map<string, number>();
  const failed = new Set<number>();
  let epoch = 0;
  for (const n of lines) {
    const id = facts.idOf(n.port);
    if (id < 0) continue;
    byRedisId.set(n.redisId, id);
    if (isFailed(n)) failed.add(id);
    if (!isMember(n) || !isMaster(n) || n.slots.length === 0) continue;
    epoch = Math.max(epoch, n.configEpoch);
    for (const [a, b] of n.slots) for (let s = a; s <= b; s++) owners[s] = id;
    for (const s of n.migrating.keys()) migrating[s] = 1;
    for (const s of n.importing.keys()) migrating[s] = 1;
  }
  const cellOwners = projectOwners(owners, cells);
  const phases: SegmentPhase[] = [];
  const replicas: number[][] = [];
  for (let i = 0; i < cells; i++) {
    const [a, b] = redisCellSlots(i, cells);
    let moving = false;
    for (let s = a; s < b && !moving; s++) moving = migrating[s] === 1;
    phases.push(moving ? 'migrating' : 'stable');
    const owner = cellOwners[i] as number;
    const ownerLine = lines.find((n) => facts.idOf(n.port) === owner);
    replicas.push(
      ownerLine === undefined
        ? []
        : lines
            .filter((n) => n.masterId === ownerLine.redisId && isMember(n) && !isFailed(n))
            .map((n) => facts.idOf(n.port))
            .filter((x) => x >= 0)
            .sort((x, y) => x - y),
    );
  }
  return {
    t,
    epoch,
    nodes: facts.ids.map((id) => ({ id, status: facts.processStatus(id), declaredDead: failed.has(id) })),
    owners: cellOwners,
    phases,
    replicas,
    slots: REDIS_SLOTS,
  };
}

/** the client's cached map (owners per slot), projected onto the same cells */
export function clientViewOfMap(map: { readonly epoch: number; readonly owners: readonly number[] }, cells: number, t: number): ClientView {
  return { t, epoch: map.epoch, owners: projectOwners(map.owners, cells) };
}
