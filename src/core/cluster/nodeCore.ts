/**
 * One node as it runs on its own (a live node worker): its view of the
 * cluster (pushed by the control plane), its own data, and the same data-path
 * decisions as the simulation (`routeAt`, `evaluate`). Writes return a
 * replication plan that the shell carries out before acknowledging
 * (synchronous replication); no IO, no timers here.
 */
import type { NodeId } from '../domain/clusterMap';
import type { DataReply, DataRequest, MapReply } from '../domain/protocol';
import { KvStatus } from '../domain/status';
import type { ClusterConfig } from './clusterConfig';
import { ClusterState, type Entry, type NodeStatus, type SegmentPhase } from './clusterState';
import { evaluate, routeAt } from './dataPath';

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

export class NodeCore {
  readonly state: ClusterState;

  constructor(
    readonly self: NodeId,
    config: ClusterConfig,
  ) {
    this.state = new ClusterState(config);
    while (this.state.nodes.length <= self) this.state.addNode('up');
  }

  /** adopts a newer view from the control plane (older ones are ignored) */
  applyView(view: NodeView): void {
    const st = this.state;
    if (view.epoch < st.epoch) return;
    while (st.nodes.length < view.nodes.length) st.addNode('joining');
    view.nodes.forEach((n) => {
      const mine = st.node(n.id);
      mine.status = n.status;
      mine.declaredDead = n.declaredDead;
    });
    view.owners.forEach((owner, s) => {
      const seg = st.segment(s);
      // a view in which this node no longer owns a fenced segment settles the fence
      if (owner !== this.self) seg.fenced = false;
      seg.owner = owner;
      seg.replicas = [...(view.replicas[s] ?? [])];
      seg.phase = view.phases[s] ?? 'stable';
    });
    st.epoch = view.epoch;
    st.touch();
  }

  /** serves one data request from this node's point of view */
  serve(req: DataRequest): ServeResult {
    const route = routeAt(this.state, this.self, req);
    if (route !== 'serve') return { reply: { status: route }, replicate: null };
    const store = this.state.store(this.self, req.segment);
    const ev = evaluate(store, req);
    if (ev.commit === undefined) return { reply: ev.reply, replicate: null };
    store.set(req.key, ev.commit);
    const replicas = this.state.segment(req.segment).replicas.filter((r) => r !== this.self);
    return {
      reply: { status: KvStatus.Ok, version: ev.commit.version },
      replicate: { segment: req.segment, key: req.key, entry: ev.commit, replicas },
    };
  }

  /** a replicated write from the owner: applied unless this copy is already newer */
  applyReplica(segment: number, key: string, entry: Entry): void {
    const store = this.state.store(this.self, segment);
    const cur = store.get(key);
    if (cur === undefined || cur.version < entry.version) store.set(key, entry);
  }

  /** this node's copy of a segment, for a migration or catch-up */
  snapshot(segment: number): [string, Entry][] {
    return [...this.state.store(this.self, segment)];
  }

  /** merges a snapshot into this node's copy of a segment (per key, the higher version wins) */
  loadSnapshot(segment: number, entries: readonly (readonly [string, Entry])[]): void {
    for (const [key, entry] of entries) this.applyReplica(segment, key, entry);
  }

  /** adds a replica to a segment locally (right after sending it a snapshot, so no write is missed) */
  addReplica(segment: number, node: NodeId): void {
    const seg = this.state.segment(segment);
    if (!seg.replicas.includes(node)) seg.replicas.push(node);
  }

  /** live keys per segment (reported with heartbeats) */
  keyCounts(): number[] {
    return this.state.segments.map((_, s) => this.state.keyCount(this.self, s));
  }

  mapReply(): MapReply {
    return { status: 'Ok', map: this.state.map() };
  }
}
