/**
 * One node as it runs on its own (a live node worker) — the third role of
 * the cluster's state (see README): its view of the cluster (pushed by the
 * control plane), its own copies of the segments, its own handoff fences,
 * and the same data-path decisions as the simulation (`routeAt`,
 * `evaluate`). Writes return a replication plan that the shell carries out
 * before acknowledging (synchronous replication); no IO, no timers here.
 */
import type { ClusterMap, NodeId } from '../domain/clusterMap';
import type { DataReply, DataRequest, MapReply } from '../domain/protocol';
import { KvStatus } from '../domain/status';
import type { ClusterConfig } from './clusterConfig';
import type { NodeStatus, SegmentPhase } from './controlState';
import { evaluate, isCommit, routeAt, type RoutingView } from './dataPath';
import { applyNewer, liveKeys, type Entry, type SegmentStore } from './segmentStore';

/** The control plane's view as pushed to nodes. */
export interface NodeView {
  readonly epoch: number;
  readonly owners: readonly NodeId[];
  readonly replicas: readonly (readonly NodeId[])[];
  readonly phases: readonly SegmentPhase[];
  readonly nodes: readonly { readonly id: NodeId; readonly status: NodeStatus; readonly declaredDead: boolean }[];
}

/** A write this node committed: to make durable and send to replicas before answering. */
export interface ReplicationPlan {
  readonly segment: number;
  readonly key: string;
  readonly entry: Entry;
  readonly replicas: readonly NodeId[];
}

export interface ServeResult {
  readonly reply: DataReply;
  /** the committed write (null for reads, refusals and failed conditions) */
  readonly replicate: ReplicationPlan | null;
}

/** a node's view of the cluster: the latest view the control plane pushed (routing only) */
class LocalView implements RoutingView {
  epoch = 0;
  private owners: NodeId[];
  private replicas: NodeId[][];
  private phases: SegmentPhase[];
  private status: NodeStatus[] = [];
  private members: NodeId[] = [];
  private snapshot: ClusterMap | null = null;

  constructor(segments: number) {
    this.owners = Array.from({ length: segments }, () => -1);
    this.replicas = Array.from({ length: segments }, () => []);
    this.phases = Array.from({ length: segments }, () => 'stable');
  }

  adopt(view: NodeView): void {
    this.epoch = view.epoch;
    this.owners = [...view.owners];
    this.replicas = view.replicas.map((r) => [...r]);
    this.phases = [...view.phases];
    this.status = view.nodes.map((n) => n.status);
    this.members = view.nodes.filter((n) => !n.declaredDead).map((n) => n.id);
    this.snapshot = null;
  }

  segment(s: number): { readonly owner: NodeId; readonly replicas: readonly NodeId[]; readonly phase: SegmentPhase } {
    return { owner: this.owners[s] ?? -1, replicas: this.replicas[s] ?? [], phase: this.phases[s] ?? 'stable' };
  }

  isServing(id: NodeId): boolean {
    const s = this.status[id];
    return s === 'up' || s === 'joining' || s === 'recovering';
  }

  /** adds a replica locally (right after sending it a snapshot) */
  addReplica(segment: number, node: NodeId): void {
    const r = this.replicas[segment];
    if (r !== undefined && !r.includes(node)) r.push(node);
    this.snapshot = null;
  }

  removeReplica(segment: number, node: NodeId): void {
    const r = this.replicas[segment];
    if (r !== undefined) this.replicas[segment] = r.filter((x) => x !== node);
    this.snapshot = null;
  }

  map(): ClusterMap {
    this.snapshot ??= Object.freeze({
      epoch: this.epoch,
      owners: Object.freeze([...this.owners]),
      replicas: Object.freeze(this.replicas.map((r) => Object.freeze([...r]))),
      nodes: Object.freeze([...this.members]),
    });
    return this.snapshot;
  }
}

export class NodeCore {
  /** the cluster as this node last heard of it */
  readonly view: LocalView;
  /** per segment: this node's copy */
  private readonly stores: SegmentStore[];
  /** per segment: fenced as the old owner of a handoff (acknowledges nothing) */
  private readonly fences: Uint8Array;

  constructor(
    readonly self: NodeId,
    config: ClusterConfig,
  ) {
    this.view = new LocalView(config.segments);
    this.stores = Array.from({ length: config.segments }, () => new Map<string, Entry>());
    this.fences = new Uint8Array(config.segments);
  }

  get epoch(): number {
    return this.view.epoch;
  }

  /** adopts a newer view from the control plane (older ones are ignored) */
  applyView(view: NodeView): void {
    if (view.epoch < this.view.epoch) return;
    // a view in which this node no longer owns a fenced segment settles the fence
    view.owners.forEach((owner, s) => owner !== this.self && (this.fences[s] = 0));
    this.view.adopt(view);
  }

  /** fences `segment` for a handoff away from this node, or lifts the fence (an abandoned handoff) */
  fence(segment: number, on: boolean): void {
    this.fences[segment] = on ? 1 : 0;
  }

  isFenced(segment: number): boolean {
    return this.fences[segment] === 1;
  }

  /** serves one data request from this node's point of view */
  serve(req: DataRequest): ServeResult {
    const route = routeAt(this.view, this.self, this.isFenced(req.segment), req);
    if (route !== 'serve') return { reply: { status: route }, replicate: null };
    const store = this.stores[req.segment] as SegmentStore;
    const entry = evaluate(store, req);
    if (!isCommit(entry)) return { reply: entry, replicate: null };
    store.set(req.key, entry);
    const replicas = this.view.segment(req.segment).replicas.filter((r) => r !== this.self);
    return {
      reply: { status: KvStatus.Ok, version: entry.version },
      replicate: { segment: req.segment, key: req.key, entry, replicas },
    };
  }

  /** a replicated write from the owner: applied unless this copy is already newer */
  applyReplica(segment: number, key: string, entry: Entry): void {
    applyNewer(this.stores[segment] as SegmentStore, key, entry);
  }

  /** this node's copy of a segment, for a migration or catch-up */
  snapshot(segment: number): [string, Entry][] {
    return [...(this.stores[segment] as SegmentStore)];
  }

  /** every segment's copy (the final-state check) */
  snapshots(): [string, Entry][][] {
    return this.stores.map((s) => [...s]);
  }

  /** merges a snapshot into this node's copy of a segment (per key, the higher version wins) */
  loadSnapshot(segment: number, entries: readonly (readonly [string, Entry])[]): void {
    for (const [key, entry] of entries) this.applyReplica(segment, key, entry);
  }

  /** adds a replica to a segment locally (right after sending it a snapshot, so no write is missed) */
  addReplica(segment: number, node: NodeId): void {
    this.view.addReplica(segment, node);
  }

  /** the snapshot did not reach `node` (no link): it is not a replica after all */
  removeReplica(segment: number, node: NodeId): void {
    this.view.removeReplica(segment, node);
  }

  /** live keys per segment (reported with heartbeats) */
  keyCounts(): number[] {
    return this.stores.map(liveKeys);
  }

  mapReply(): MapReply {
    return { status: 'Ok', map: this.view.map() };
  }
}
