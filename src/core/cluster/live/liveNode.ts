/**
 * One live cluster node's logic, pure (the node worker only moves messages
 * and owns real timers): the node core's data-path decisions, synchronous
 * replication to peers, the node's durable "disk" (held outside the worker,
 * by the control plane: a write is posted to it before it is acknowledged,
 * so a terminated worker's acknowledged writes are already in the disk's
 * queue), fencing during an ownership handoff, and replay of the
 * disk after a restart.
 */
import type { NodeId } from '../../domain/clusterMap';
import type { NodeReply, NodeRequest } from '../../domain/protocol';
import type { Scheduler } from '../../time/scheduler';
import type { ClusterConfig } from '../clusterConfig';
import { createLinkFaults, applyLinkFault, type LinkFaults } from '../linkFaults';
import { NodeCore, type ReplicationPlan } from '../nodeCore';
import type { ControlToNode, DiskWrite, NodeToControl, PeerMessage } from './protocol';

/**
 * ms a write waits for a replica's ack before the replica is reported lost
 * (it then leaves the replica set until a failback). Generous: on a loaded
 * 2-core machine a busy worker can stall for hundreds of ms, and a replica
 * dropped by mistake turns the next failover of its owner into Unavailable.
 */
export const REPLICATION_TIMEOUT_MS = 1_000;

/** Where a live node's messages go (the worker: MessagePorts). */
export interface LiveNodeLinks {
  /** posts to a peer node; false when there is no link to it */
  toPeer(peer: NodeId, msg: PeerMessage): boolean;
  toControl(msg: NodeToControl): void;
}

type Respond = (reply: NodeReply) => void;

export class LiveNode {
  readonly core: NodeCore;
  /** answers nothing, replicates nothing, sends no heartbeat */
  hung = false;
  /** the faults on this node's client link; the worker shell asks `linkFaults.ts` what they do to each request and reply */
  readonly link: LinkFaults = createLinkFaults();
  private replayed = false;
  private viewed = false;
  /** requests that arrived before the disk replay and the first view */
  private waiting: [NodeRequest, Respond][] = [];
  private nextId = 1;
  private readonly repWaits = new Map<number, () => void>();
  /** writes applied and not yet posted to the disk (posted as one batch per tick, or before an acknowledgement) */
  private diskBatch: DiskWrite[] = [];
  /** this worker's incarnation, from its replay (-1 before: nothing is posted to the disk until then) */
  private incarnation = -1;
  /** seq of the last disk batch posted / acknowledged durable */
  private diskSeq = 0;
  private durableSeq = 0;
  /** acknowledgements waiting for their disk batch, in seq order */
  private durableWaits: { readonly seq: number; readonly fn: () => void }[] = [];

  constructor(
    readonly self: NodeId,
    config: ClusterConfig,
    private readonly scheduler: Scheduler,
    private readonly links: LiveNodeLinks,
  ) {
    this.core = new NodeCore(self, config);
  }

  /** true once the disk is replayed and the first view adopted: until then requests wait */
  get ready(): boolean {
    return this.replayed && this.viewed;
  }

  /** the heartbeat to send now (none while hung) */
  heartbeat(): NodeToControl | null {
    return this.hung ? null : { kind: 'heartbeat', keyCounts: this.core.keyCounts() };
  }

  /** a client request; `respond` is called once with the answer (never while hung) */
  request(req: NodeRequest, respond: Respond): void {
    if (this.hung) return;
    if (!this.ready) {
      this.waiting.push([req, respond]);
      return;
    }
    if (req.type === 'map') return respond(this.core.mapReply());
    const { reply, replicate } = this.core.serve(req);
    if (replicate === null) return respond(reply);
    this.commit(replicate, () => respond(reply));
  }

  /**
   * A committed write: applied on every replica and durable on this node's
   * disk, then `done` (the acknowledgement). Waiting for the disk's
   * `persisted` (not only for the post) is what makes a restart safe: a
   * worker restarted at once replays a disk that already holds every write
   * it acknowledged.
   */
  private commit(plan: ReplicationPlan, done: () => void): void {
    const seq = this.persist(plan.segment, plan.key, plan.entry);
    let waiting = plan.replicas.length + 1;
    const one = (): void => {
      if (--waiting > 0) return;
      this.flushDisk();
      this.whenDurable(seq, done);
    };
    for (const r of plan.replicas) this.replicateTo(r, plan, one);
    one();
  }

  /** queues an applied write for the disk (posted within the tick); returns the seq of its batch */
  private persist(segment: number, key: string, entry: ReplicationPlan['entry']): number {
    if (this.diskBatch.length === 0) this.scheduler.setTimer(0, () => this.flushDisk());
    this.diskBatch.push({ segment, key, entry });
    return this.diskSeq + 1;
  }

  private flushDisk(): void {
    if (this.diskBatch.length === 0 || this.incarnation < 0) return;
    this.links.toControl({ kind: 'persist', incarnation: this.incarnation, seq: ++this.diskSeq, writes: this.diskBatch });
    this.diskBatch = [];
  }

  private whenDurable(seq: number, fn: () => void): void {
    if (seq <= this.durableSeq) fn();
    else this.durableWaits.push({ seq, fn });
  }

  private durable(seq: number): void {
    this.durableSeq = Math.max(this.durableSeq, seq);
    let i = 0;
    while (i < this.durableWaits.length && (this.durableWaits[i] as { seq: number }).seq <= this.durableSeq) i++;
    if (i === 0) return;
    const ready = this.durableWaits.slice(0, i);
    this.durableWaits = this.durableWaits.slice(i);
    for (const w of ready) w.fn();
  }

  /** one replica: acked, or after REPLICATION_TIMEOUT_MS reported lost (the write is acknowledged without it) */
  private replicateTo(r: NodeId, plan: ReplicationPlan, done: () => void): void {
    const lost = (): void => {
      this.links.toControl({ kind: 'replicaLost', segment: plan.segment, replica: r });
      done();
    };
    const id = this.nextId++;
    if (!this.links.toPeer(r, { kind: 'rep', id, segment: plan.segment, key: plan.key, entry: plan.entry })) return lost();
    const timer = this.scheduler.setTimer(REPLICATION_TIMEOUT_MS, () => {
      if (this.repWaits.delete(id)) lost();
    });
    this.repWaits.set(id, () => {
      this.scheduler.clearTimer(timer);
      done();
    });
  }

  fromPeer(from: NodeId, msg: PeerMessage): void {
    switch (msg.kind) {
      case 'rep': {
        if (this.hung) return;
        this.core.applyReplica(msg.segment, msg.key, msg.entry);
        this.persist(msg.segment, msg.key, msg.entry);
        this.links.toPeer(from, { kind: 'repAck', id: msg.id });
        return;
      }
      case 'repAck': {
        const w = this.repWaits.get(msg.id);
        this.repWaits.delete(msg.id);
        w?.();
        return;
      }
      case 'snapshot':
        this.core.loadSnapshot(msg.segment, msg.entries);
        this.flushDisk(); // earlier writes first
        // the disk port is FIFO: the snapshot is durable before the control plane reads `caughtUp`
        this.links.toControl({ kind: 'persistSegment', incarnation: this.incarnation, segment: msg.segment, entries: msg.entries });
        if (msg.handoff !== undefined) this.links.toControl({ kind: 'caughtUp', handoff: msg.handoff, segment: msg.segment });
        return;
    }
  }

  fromControl(msg: ControlToNode): void {
    switch (msg.kind) {
      case 'replay':
        for (const [segment, entries] of msg.segments) this.core.loadSnapshot(segment, entries);
        this.incarnation = msg.incarnation;
        this.replayed = true;
        this.flushDisk(); // replica writes that arrived before the replay
        return this.drain();
      case 'persisted':
        return this.durable(msg.seq);
      case 'view':
        this.core.applyView(msg.view); // settles fences of segments it no longer owns
        this.viewed = true;
        return this.drain();
      case 'copy':
        // snapshot first, then replicate to the receiver: the peer port is FIFO, so it misses no write
        if (this.links.toPeer(msg.to, { kind: 'snapshot', segment: msg.segment, entries: this.core.snapshot(msg.segment) })) {
          this.core.addReplica(msg.segment, msg.to);
        }
        return;
      case 'fence':
        // from now on no write to the segment is acknowledged here; the final
        // state follows every replicated write on the FIFO peer port
        this.core.fence(msg.segment, true); // routeAt answers OwnershipChanging (dataPath.ts)
        this.links.toPeer(msg.to, { kind: 'snapshot', segment: msg.segment, entries: this.core.snapshot(msg.segment), handoff: msg.handoff });
        return;
      case 'unfence':
        this.core.fence(msg.segment, false);
        return;
      case 'dump':
        this.links.toControl({ kind: 'dumped', id: msg.id, segments: this.core.snapshots() });
        return;
      case 'hang':
        this.hung = msg.on;
        return;
      case 'link':
        applyLinkFault(this.link, msg.cmd, this.scheduler.now());
        return;
    }
  }

  /** is `segment` fenced here (a handoff away from this node is in progress)? */
  isFenced(segment: number): boolean {
    return this.core.isFenced(segment);
  }

  private drain(): void {
    if (!this.ready || this.waiting.length === 0) return;
    const w = this.waiting;
    this.waiting = [];
    for (const [req, respond] of w) this.request(req, respond);
  }
}
