import { NO_OWNER, type ClusterMap, type NodeId } from '../domain/clusterMap';
import type { ClusterConfig } from './clusterConfig';
import { freshestCopy } from './freshestCopy';
import { createLinkFaults, type LinkFaults } from './linkFaults';

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
  /** the faults on this node's link to its clients (slow, lost ack, partition, garble) */
  readonly link: LinkFaults;
  /** virtual time the node's single server is busy until */
  busyUntil: number;
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
  /**
   * the active owner is fenced for a handoff: it acknowledges nothing for
   * this segment (answers OwnershipChanging) until ownership flips or the
   * handoff is abandoned. Simulation truth: set by the handoff; a live
   * node: its own flag (the view does not carry it).
   */
  fenced: boolean;
}

/** A stored value; `value === null` is a tombstone (the key was deleted). */
export interface Entry {
  readonly value: string | null;
  readonly version: number;
}

/**
 * The cluster's truth: members, segment ownership with its epoch, and every
 * node's data (per segment, so a segment can be copied on migration and
 * catch-up). Mutated only by the data path and the control plane.
 */
export class ClusterState {
  readonly nodes: NodeInfo[] = [];
  readonly segments: SegmentInfo[] = [];
  /** node → segment → key → entry */
  readonly data: Map<string, Entry>[][] = [];
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
      this.segments.push({ preferred: owner, owner, replicas, phase: 'stable', lastOwner: owner, placement: [owner, ...replicas], fenced: false });
    }
  }

  addNode(status: NodeStatus): NodeInfo {
    const id = this.nodes.length;
    const node: NodeInfo = {
      id,
      status,
      declaredDead: false,
      link: createLinkFaults(),
      busyUntil: 0,
      incarnation: 0,
      silence: 0,
    };
    this.nodes.push(node);
    this.data.push(Array.from({ length: this.config.segments }, () => new Map<string, Entry>()));
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

  store(node: NodeId, segment: number): Map<string, Entry> {
    return (this.data[node] as Map<string, Entry>[])[segment] as Map<string, Entry>;
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

  /** number of live keys (tombstones excluded) a node holds for a segment */
  keyCount(node: NodeId, segment: number): number {
    let n = 0;
    for (const e of this.store(node, segment).values()) if (e.value !== null) n++;
    return n;
  }

  /** the authoritative copy of a segment: its owner, else the freshest holder */
  authoritative(segment: number): Map<string, Entry> | null {
    const seg = this.segment(segment);
    if (seg.owner !== NO_OWNER) return this.store(seg.owner, segment);
    return freshestCopy(this.nodes.map((n) => this.store(n.id, segment)));
  }
}
