/**
 * The cluster view of an imported events file, rebuilt from what the file
 * says: its `topology` events (the initial layout's segment count, every
 * epoch, node down / joined / recovering, promotions, migrations,
 * handoffs) and `fault` events, plus the nodes its attempts were routed to.
 * What the file does not carry is inferred the way the engine lays a
 * cluster out and said so in `inferred`: the initial owner of segment s is
 * node s mod n, and a promotion hands a segment to the next live node after
 * its old owner (where the engine puts the first replica). Replica sets are
 * not in the events, so the view has none. A file without the `initial`
 * topology event gets no view, only `lacks` naming what is missing.
 */
import type { ClusterView } from '../cluster/views';
import type { NodeStatus, SegmentPhase } from '../cluster/controlState';
import type { ClusterEvent } from '../telemetry/events';

export interface TopologyFacts {
  /** topology and fault events, in time order */
  readonly cluster: readonly ClusterEvent[];
  /** highest node id any attempt was routed to (-1: none) */
  readonly maxRoutedNode: number;
}

export interface RebuiltClusterView {
  /** null: the file cannot give one (see `lacks`) */
  readonly view: ClusterView | null;
  /** what the file is missing for a view (null: nothing) */
  readonly lacks: string | null;
  /** what the view takes from the engine's layout rules rather than from the file */
  readonly inferred: string | null;
}

export const INFERRED_NOTE = "rebuilt from the file's topology events; owners s mod n and promotions to the next live node are inferred, replica sets are not in the file";

interface Node {
  id: number;
  status: NodeStatus;
  declaredDead: boolean;
}

/** the cluster as the file describes it at time `t` (ms since run start) */
export function clusterViewFromEvents(facts: TopologyFacts, t: number): RebuiltClusterView {
  const initial = facts.cluster.find((e) => e.type === 'topology' && e.change === 'initial');
  if (initial === undefined || initial.type !== 'topology') {
    const kinds = new Set(facts.cluster.map((e) => e.type));
    const has = kinds.size === 0 ? 'it has no topology or fault events at all' : `it has ${[...kinds].join(' and ')} events but not the initial layout`;
    return { view: null, lacks: `No cluster view: the file lacks the "topology" event with change "initial" (segment count and layout) that the CLI and the exports write first; ${has}.`, inferred: null };
  }
  const segments = initial.segments.length;
  let n = facts.maxRoutedNode + 1;
  for (const e of facts.cluster) n = Math.max(n, e.node + 1);
  n = Math.max(1, n);
  const joinedLater = new Set(facts.cluster.filter((e) => e.type === 'topology' && e.change === 'nodeJoined').map((e) => e.node));
  const initialNodes = Math.max(1, n - joinedLater.size);
  const nodes: Node[] = Array.from({ length: n }, (_, id) => ({ id, status: id < initialNodes ? 'up' : 'joining', declaredDead: false }));
  const owners = Array.from({ length: segments }, (_, s) => s % initialNodes);
  const phases: SegmentPhase[] = Array.from({ length: segments }, () => 'stable');
  let epoch = initial.epoch;
  const node = (id: number): Node => nodes[id] as Node;
  const live = (id: number): boolean => nodes[id]?.status === 'up' || nodes[id]?.status === 'recovering';
  const nextLive = (from: number): number => {
    for (let k = 1; k < n; k++) {
      const c = (from + k) % n;
      if (live(c)) return c;
    }
    return -1;
  };
  for (const e of facts.cluster) {
    if (e.t > t) break;
    if (e.type === 'fault') {
      if (e.action === 'failover') node(e.node).status = 'down';
      else if (e.action === 'hang') node(e.node).status = 'hung';
      else if (e.action === 'resume' && node(e.node).status === 'hung') node(e.node).status = 'up';
      continue;
    }
    epoch = Math.max(epoch, e.epoch);
    const segs = e.segments.filter((s) => s >= 0 && s < segments);
    switch (e.change) {
      case 'nodeDown':
        node(e.node).declaredDead = true;
        if (node(e.node).status === 'up') node(e.node).status = 'down';
        break;
      case 'promoted':
        for (const s of segs) owners[s] = nextLive(e.node);
        break;
      case 'unavailable':
        for (const s of segs) owners[s] = -1;
        break;
      case 'reclaimed':
        node(e.node).declaredDead = false;
        for (const s of segs) owners[s] = e.node;
        break;
      case 'catchUpStart':
        node(e.node).status = 'recovering';
        node(e.node).declaredDead = false;
        break;
      case 'catchUpEnd':
        node(e.node).status = 'up';
        break;
      case 'handoffStart':
        for (const s of segs) phases[s] = 'transitioning';
        break;
      case 'nodeJoined':
        node(e.node).status = 'up';
        break;
      case 'migrationStart':
        for (const s of segs) phases[s] = 'migrating';
        break;
      case 'handoffEnd':
      case 'migrationEnd':
        for (const s of segs) {
          phases[s] = 'stable';
          owners[s] = e.node;
        }
        break;
      case 'initial':
        break;
    }
  }
  const view: ClusterView = { t, epoch, nodes: nodes.map((x) => ({ ...x })), owners, phases, replicas: owners.map(() => []), replicasUnknown: true };
  return { view, lacks: null, inferred: INFERRED_NOTE };
}
