/**
 * The simulation's truth about its nodes (one role of three; see
 * `cluster/README.md`): the control plane's record (`ControlState`, which
 * simulated nodes route by directly) plus what only nodes hold — each
 * node's copies of every segment, its server queue, its client-link faults
 * and its handoff fences. Crashed nodes keep their stores (a disk).
 */
import { NO_OWNER, type NodeId } from '../domain/clusterMap';
import type { DataReply, DataRequest } from '../domain/protocol';
import { KvStatus } from '../domain/status';
import type { ClusterConfig } from '../cluster/clusterConfig';
import { ControlState } from '../cluster/controlState';
import { answer, evaluate, isCommit, routeAt } from '../cluster/dataPath';
import { freshestCopy } from '../cluster/freshestCopy';
import { createLinkFaults, type LinkFaults } from '../cluster/linkFaults';
import { leaveReplicaSet } from '../cluster/replicaSet';
import { liveKeys, type Entry, type SegmentStore } from '../cluster/segmentStore';

/** Called for every write applied, so checkers can see duplicate applies. */
export type ApplyListener = (op: number, key: string, version: number) => void;

/** what a simulated node holds beside the control plane's record of it */
export interface SimNode {
  readonly id: NodeId;
  /** virtual time the node's single server is busy until */
  busyUntil: number;
  /**
   * virtual time of the node's last crash (-Infinity before any): a reply the
   * node had not sent yet by then — a committed write still waiting for its
   * replicas' acks — is lost with it (`simNetwork.ts`)
   */
  crashedAt: number;
  /**
   * the node's hangs, as [began, ended) pairs in time order (`ended` Infinity while it is hung):
   * a reply due to be sent during a hang is never sent — a hung node answers nothing, and a held
   * reply is not sent after the resume either — so the client times out (`simNetwork.ts`, {@link heldAt})
   */
  readonly hangs: number[];
  /** the faults on this node's client link (slow, lost ack, partition, garble) */
  readonly link: LinkFaults;
  /** per segment: 1 while this node is fenced as the old owner of a handoff */
  readonly fenced: Uint8Array;
  /** per segment: this node's copy */
  readonly stores: SegmentStore[];
}

/**
 * Whether `node` was hung at virtual time `t` (a hang that began before `t` and had not ended by
 * then; one that ends exactly at `t` has ended): its reply due at `t` was never sent. Scans the
 * hangs from the newest and stops at the first that ended by `t`; a node that never hung costs one
 * length check.
 */
export function heldAt(node: SimNode, t: number): boolean {
  const h = node.hangs;
  for (let i = h.length - 2; i >= 0; i -= 2) {
    if ((h[i + 1] as number) <= t) return false;
    if ((h[i] as number) < t) return true;
  }
  return false;
}

export class SimCluster {
  readonly control: ControlState;
  private readonly simNodes: SimNode[] = [];

  constructor(readonly config: ClusterConfig) {
    this.control = new ControlState(config);
  }

  /** a node's own part (created on first use: scale-out adds members to the record) */
  node(id: NodeId): SimNode {
    return this.simNodes[id] ?? this.grow(id);
  }

  /** the cold path of {@link node}: parts for every member up to `id` */
  private grow(id: NodeId): SimNode {
    if (id < 0 || id >= this.control.nodes.length) throw new Error(`no node ${id}`);
    const segments = this.config.segments;
    while (this.simNodes.length <= id) {
      this.simNodes.push({
        id: this.simNodes.length,
        busyUntil: 0,
        crashedAt: -Infinity,
        hangs: [],
        link: createLinkFaults(),
        fenced: new Uint8Array(segments),
        stores: Array.from({ length: segments }, () => new Map<string, Entry>()),
      });
    }
    return this.simNodes[id] as SimNode;
  }

  store(node: NodeId, segment: number): SegmentStore {
    return this.node(node).stores[segment] as SegmentStore;
  }

  /** live keys `node` holds for `segment` */
  keyCount(node: NodeId, segment: number): number {
    return liveKeys(this.store(node, segment));
  }

  /** `to`'s copy of `segment` becomes a copy of `from`'s */
  copySegment(from: NodeId, to: NodeId, segment: number): void {
    this.node(to).stores[segment] = new Map(this.store(from, segment));
  }

  /** the authoritative copy of a segment: its owner's, else the freshest holder's (`freshestCopy.ts`) */
  authoritative(segment: number): SegmentStore | null {
    const seg = this.control.segment(segment);
    if (seg.owner !== NO_OWNER) return this.store(seg.owner, segment);
    return freshestCopy(this.control.nodes.map((n) => this.store(n.id, segment)));
  }

  /**
   * The hung replicas the last committed write could not reach: their acks
   * will not come, so the shell holds the write's acknowledgement for
   * `REPLICATION_TIMEOUT_MS` and then reports the replica lost to the control
   * plane (`ControlPlane.replicaLost`), as a live owner does (`replicaSet.ts`).
   * Empty after a write every replica got.
   */
  readonly unacked: NodeId[] = [];

  /**
   * Node `node` (serving) answers one data request: the routing decision and
   * the owner's evaluation (`dataPath.ts`); a write is applied to the owner
   * and, synchronously, to every serving replica (simulation). A crashed
   * replica leaves the replica set at once (its connection is reset); a hung
   * one stays in it until its ack times out ({@link unacked}).
   */
  serve(node: NodeId, req: DataRequest, onApply?: ApplyListener): DataReply {
    const st = this.control;
    const own = this.node(node);
    const route = routeAt(st, node, own.fenced[req.segment] === 1, req);
    if (route !== 'serve') return answer(route, undefined);
    const entry = evaluate(own.stores[req.segment] as SegmentStore, req);
    if (!isCommit(entry)) return entry;
    (own.stores[req.segment] as SegmentStore).set(req.key, entry);
    const seg = st.segment(req.segment);
    let shrunk = false;
    // (emptied only when needed: setting an array's length is a runtime call, and most writes leave it empty)
    if (this.unacked.length !== 0) this.unacked.length = 0;
    for (const r of seg.replicas) {
      if (st.isServing(r)) this.store(r, req.segment).set(req.key, entry);
      else if (st.node(r).status === 'hung') this.unacked.push(r);
      else shrunk = true;
    }
    // a crashed replica that missed the write leaves the replica set now (replicaSet.ts); a hung one is waited for
    if (shrunk) leaveReplicaSet(st, req.segment, (r) => !st.isServing(r) && !this.unacked.includes(r));
    onApply?.(req.op, req.key, entry.version);
    return answer(KvStatus.Ok, entry.version);
  }

}
