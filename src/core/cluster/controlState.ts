import type { ClusterMap, NodeId } from '../domain/clusterMap';
import type { ClusterConfig } from './clusterConfig';

/** A member's health as the cluster's truth (not as the client sees it). */
export type NodeStatus = 'up' | 'down' | 'hung' | 'joining' | 'recovering';
export const NODE_STATUSES: readonly NodeStatus[] = ['up', 'down', 'hung', 'joining', 'recovering'];

/** stable; migrating (moving to a new owner, writes held back); transitioning (handoff in progress) */
export type SegmentPhase = 'stable' | 'migrating' | 'transitioning';

export interface NodeInfo {
  readonly id: NodeId;
  status: NodeStatus;
  /** the detector has declared this node dead (its segments were failed over) */
  declaredDead: boolean;
  /** restarts so far (in-flight requests of an earlier incarnation are reset) */
  incarnation: number;
  /** bumped whenever the node speaks again (resume, rejoin): timers of an older silence are void */
  silence: number;
}

export interface SegmentInfo {
  /** the node that should own this segment when healthy */
  preferred: NodeId;
  owner: NodeId;
  replicas: NodeId[];
  phase: SegmentPhase;
  /** the owner before the segment lost every owner (it holds the data) */
  lastOwner: NodeId;
  /**
   * the nodes that hold the segment by assignment (owner and replicas when
   * every member is healthy): a member that returns rejoins the replica set
   * of every segment it is assigned to. `replicas` is the in-sync subset (it
   * shrinks when a replica misses a write or dies).
   */
  placement: NodeId[];
}

/**
 * The control plane's record (one role of three; see README): members and
 * their health, segment ownership with its epoch. No data, no link state,
 * no fences — those belong to the nodes (`sim/simCluster.ts` in the
 * simulation, `NodeCore` live). Mutated by the control plane, and by the
 * replica-set shrink rule (`replicaSet.ts`). In the simulation the nodes
 * route against this record directly (a view that propagates instantly);
 * live nodes route against the view pushed from it (`NodeCore`).
 */
export class ControlState {
  readonly nodes: NodeInfo[] = [];
  readonly segments: SegmentInfo[] = [];
  epoch = 1;
  /** rises on every change of ownership, phase or membership (views are republished when it moves) */
  version = 0;
  private snapshot: ClusterMap | null = null;

  constructor(readonly config: ClusterConfig) {
    for (let n = 0; n < config.nodes; n++) this.addNode('up');
    for (let s = 0; s < config.segments; s++) {
      const owner = s % config.nodes;
      const replicas: NodeId[] = [];
      for (let r = 1; r <= config.replicas; r++) replicas.push((owner + r) % config.nodes);
      this.segments.push({ preferred: owner, owner, replicas, phase: 'stable', lastOwner: owner, placement: [owner, ...replicas] });
    }
  }

  addNode(status: NodeStatus): NodeInfo {
    const id = this.nodes.length;
    const node: NodeInfo = {
      id,
      status,
      declaredDead: false,
      incarnation: 0,
      silence: 0,
    };
    this.nodes.push(node);
    return node;
  }

  node(id: NodeId): NodeInfo {
    const n = this.nodes[id];
    if (n === undefined) throw new Error(`no node ${id}`);
    return n;
  }

  segment(s: number): SegmentInfo {
    return this.segments[s] as SegmentInfo;
  }

  /** true when the node runs and answers (possibly as non-owner) */
  isServing(id: NodeId): boolean {
    const s = this.node(id).status;
    return s === 'up' || s === 'joining' || s === 'recovering';
  }

  /** members the cluster lists (everyone not declared dead) */
  members(): NodeId[] {
    return this.nodes.filter((n) => !n.declaredDead).map((n) => n.id);
  }

  /** raises the epoch after an ownership change */
  bump(): number {
    this.snapshot = null;
    this.version++;
    return ++this.epoch;
  }

  /** invalidates the map snapshot without an epoch change */
  touch(): void {
    this.snapshot = null;
    this.version++;
  }

  /** The cluster map nodes serve: an immutable snapshot, rebuilt after each change. */
  map(): ClusterMap {
    if (this.snapshot === null) {
      this.snapshot = Object.freeze({
        epoch: this.epoch,
        owners: Object.freeze(this.segments.map((s) => s.owner)),
        replicas: Object.freeze(this.segments.map((s) => Object.freeze([...s.replicas]))),
        nodes: Object.freeze(this.members()),
      });
    }
    return this.snapshot;
  }

  /** segments whose active owner is `node` */
  ownedBy(node: NodeId): number[] {
    const out: number[] = [];
    this.segments.forEach((s, i) => s.owner === node && out.push(i));
    return out;
  }
}
