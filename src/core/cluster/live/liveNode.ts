/**
 * One live cluster node's logic as a pure state machine (raft's shape, like
 * the control plane): the node core's data-path decisions, synchronous
 * replication to peers, the node's durable "disk" (held outside the worker,
 * by the control plane: a write is posted to it before it is acknowledged,
 * so a terminated worker's acknowledged writes are already in the disk's
 * queue), fencing during an ownership handoff, and replay of the disk after
 * a restart. Inputs (a client request, a peer or control message, a timer
 * it set, an undeliverable message) carry the time; what it decides —
 * messages, answers, timers — comes out as values ({@link NodeOutput}),
 * taken with {@link LiveNode.ready}. {@link LiveNodeShell} carries them out
 * on a scheduler and links (the node worker, the test kit).
 */
import type { NodeId } from '../../domain/clusterMap';
import type { NodeReply, NodeRequest } from '../../domain/protocol';
import type { Scheduler } from '../../time/scheduler';
import type { ClusterConfig } from '../clusterConfig';
import { createLinkFaults, applyLinkFault, type LinkFaults } from '../linkFaults';
import { ownershipFailureStatus } from '../dataPath';
import { NodeCore, type ReplicationPlan } from '../nodeCore';
import { REPLICATION_TIMEOUT_MS } from '../replicaSet';
import type { ControlToNode, DiskWrite, NodeToControl, PeerMessage } from './protocol';

/** a timer the node set; handed back through {@link LiveNode.fire} */
export type NodeTimer = { readonly kind: 'flushDisk' } | { readonly kind: 'replicationTimeout'; readonly id: number };

export type NodeOutput =
  | { readonly kind: 'peer'; readonly peer: NodeId; readonly msg: PeerMessage }
  | { readonly kind: 'control'; readonly msg: NodeToControl }
  /** the answer to the request the shell tagged `replyTo` */
  | { readonly kind: 'reply'; readonly replyTo: number; readonly reply: NodeReply }
  | { readonly kind: 'timer'; readonly afterMs: number; readonly timer: NodeTimer }
  /**
   * this node (the owner) applied operation `op`'s write — a notice for the
   * ambiguous-write audit's ground truth, as the simulation's data path
   * reports each apply; the client library never sees it (it is not an
   * answer, and a lost or garbled answer does not lose it)
   */
  | { readonly kind: 'applied'; readonly op: number };

/** a committed write waiting for its replicas' acks and its disk batch before it is acknowledged */
interface PendingAck {
  waiting: number;
  seq: number;
  readonly replyTo: number;
  readonly reply: NodeReply;
  /** the written segment: acknowledged only while this node still owns it */
  readonly segment: number;
}

/** a replica's ack the write waits for */
interface RepWait {
  readonly ack: PendingAck;
  readonly segment: number;
  readonly replica: NodeId;
}

export class LiveNode {
  readonly core: NodeCore;
  /** answers nothing, replicates nothing, sends no heartbeat */
  hung = false;
  /** the faults on this node's client link; the shell asks `linkFaults.ts` what they do to each request and reply */
  readonly link: LinkFaults = createLinkFaults();
  private replayed = false;
  private viewed = false;
  /** requests that arrived before the disk replay and the first view */
  private waiting: [NodeRequest, number][] = [];
  private nextId = 1;
  /** replication id → the write waiting for that replica's ack */
  private readonly repWaits = new Map<number, RepWait>();
  /** replication timeouts that came due while hung: a stalled node reports them when it runs again */
  private lateTimeouts: number[] = [];
  /** writes applied and not yet posted to the disk (posted as one batch per tick, or before an acknowledgement) */
  private diskBatch: DiskWrite[] = [];
  /** this worker's incarnation, from its replay (-1 before: nothing is posted to the disk until then) */
  private incarnation = -1;
  /** seq of the last disk batch posted / acknowledged durable */
  private diskSeq = 0;
  private durableSeq = 0;
  /** acknowledgements waiting for their disk batch, in seq order */
  private durableWaits: PendingAck[] = [];
  /** replicated writes applied here whose ack waits for this node's disk (seq order) */
  private repAckWaits: { readonly seq: number; readonly peer: NodeId; readonly id: number }[] = [];
  private outbox: NodeOutput[] = [];
  private now = 0;

  constructor(
    readonly self: NodeId,
    config: ClusterConfig,
  ) {
    this.core = new NodeCore(self, config);
  }

  /** the outputs decided since the last call, in order */
  ready(): NodeOutput[] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }

  /** true once the disk is replayed and the first view adopted: until then requests wait */
  get serving(): boolean {
    return this.replayed && this.viewed;
  }

  /** the heartbeat to send now (none while hung) */
  heartbeat(): NodeToControl | null {
    return this.hung ? null : { kind: 'heartbeat', keyCounts: this.core.keyCounts() };
  }

  private toPeer(peer: NodeId, msg: PeerMessage): void {
    this.outbox.push({ kind: 'peer', peer, msg });
  }

  private toControl(msg: NodeToControl): void {
    this.outbox.push({ kind: 'control', msg });
  }

  private timer(afterMs: number, timer: NodeTimer): void {
    this.outbox.push({ kind: 'timer', afterMs, timer });
  }

  /** a client request, answered once by a `reply` output tagged `replyTo` (never while hung) */
  request(req: NodeRequest, replyTo: number, now: number): void {
    this.now = now;
    if (this.hung) return;
    if (!this.serving) {
      this.waiting.push([req, replyTo]);
      return;
    }
    if (req.type === 'map') return this.reply(replyTo, this.core.mapReply());
    const { reply, replicate } = this.core.serve(req);
    if (replicate === null) return this.reply(replyTo, reply);
    this.outbox.push({ kind: 'applied', op: req.op });
    this.commit(replicate, { waiting: replicate.replicas.length + 1, seq: 0, replyTo, reply, segment: req.segment });
  }

  /**
   * A committed write's answer, once its replicas and the disk are done: Ok
   * only if this node still owns the segment. A node that lost it meanwhile
   * (declared dead while it waited — hung, say — and the segment promoted
   * elsewhere without this write) must not acknowledge it: the new owner may
   * not have it. It answers as a node that does not own the segment (Moved or
   * OwnershipChanging): the client refreshes and retries, and the write is
   * one the audit lists as applied but reported failed.
   */
  private acknowledge(ack: PendingAck): void {
    const seg = this.core.view.segment(ack.segment);
    if (seg.owner === this.core.self) return this.reply(ack.replyTo, ack.reply);
    this.reply(ack.replyTo, { status: ownershipFailureStatus(this.core.view, ack.segment) });
  }

  private reply(replyTo: number, reply: NodeReply): void {
    // a hung node answers nothing: not even a write it committed before the hang whose acks came in during it
    // (the client times out although the write was applied; the headless shell's rule, `sim/simNetwork.ts`)
    if (this.hung) return;
    this.outbox.push({ kind: 'reply', replyTo, reply });
  }

  /**
   * A committed write: applied on every replica and durable on this node's
   * disk, then acknowledged. Waiting for the disk's `persisted` (not only
   * for the post) is what makes a restart safe: a worker restarted at once
   * replays a disk that already holds every write it acknowledged.
   */
  private commit(plan: ReplicationPlan, ack: PendingAck): void {
    ack.seq = this.persist(plan.segment, plan.key, plan.entry);
    for (const r of plan.replicas) this.replicateTo(r, plan, ack);
    this.oneDone(ack);
  }

  /** one of the write's replicas acked (or was given up), or the owner's own apply */
  private oneDone(ack: PendingAck): void {
    if (--ack.waiting > 0) return;
    this.flushDisk();
    if (ack.seq <= this.durableSeq) this.acknowledge(ack);
    else this.durableWaits.push(ack);
  }

  /** the acks of replicated writes now durable here (none while hung: a hung node sends nothing; they go on its resume) */
  private sendDurableRepAcks(): void {
    if (this.hung) return;
    let i = 0;
    while (i < this.repAckWaits.length && (this.repAckWaits[i] as { seq: number }).seq <= this.durableSeq) i++;
    if (i === 0) return;
    const done = this.repAckWaits.slice(0, i);
    this.repAckWaits = this.repAckWaits.slice(i);
    for (const w of done) this.toPeer(w.peer, { kind: 'repAck', id: w.id });
  }

  /** queues an applied write for the disk (posted within the tick); returns the seq of its batch */
  private persist(segment: number, key: string, entry: ReplicationPlan['entry']): number {
    if (this.diskBatch.length === 0) this.timer(0, { kind: 'flushDisk' });
    this.diskBatch.push({ segment, key, entry });
    return this.diskSeq + 1;
  }

  private flushDisk(): void {
    if (this.diskBatch.length === 0 || this.incarnation < 0) return;
    this.toControl({ kind: 'persist', incarnation: this.incarnation, seq: ++this.diskSeq, writes: this.diskBatch });
    this.diskBatch = [];
  }

  private durable(seq: number): void {
    this.durableSeq = Math.max(this.durableSeq, seq);
    this.sendDurableRepAcks();
    let i = 0;
    while (i < this.durableWaits.length && (this.durableWaits[i] as PendingAck).seq <= this.durableSeq) i++;
    if (i === 0) return;
    const done = this.durableWaits.slice(0, i);
    this.durableWaits = this.durableWaits.slice(i);
    for (const w of done) this.acknowledge(w);
  }

  /** one replica: acked, or after REPLICATION_TIMEOUT_MS (or at once, with no link to it) reported lost; the write is acknowledged without it */
  private replicateTo(r: NodeId, plan: ReplicationPlan, ack: PendingAck): void {
    const id = this.nextId++;
    this.repWaits.set(id, { ack, segment: plan.segment, replica: r });
    this.toPeer(r, { kind: 'rep', id, segment: plan.segment, key: plan.key, entry: plan.entry });
    this.timer(REPLICATION_TIMEOUT_MS, { kind: 'replicationTimeout', id });
  }

  private replicaLost(id: number): void {
    const w = this.repWaits.get(id);
    if (w === undefined) return;
    this.repWaits.delete(id);
    this.toControl({ kind: 'replicaLost', segment: w.segment, replica: w.replica });
    this.oneDone(w.ack);
  }

  /** a timer this node set fires */
  fire(t: NodeTimer, now: number): void {
    this.now = now;
    if (t.kind === 'flushDisk') return this.flushDisk();
    if (this.hung) this.lateTimeouts.push(t.id);
    else this.replicaLost(t.id); // no ack in time (a no-op once it came)
  }

  /** the shell could not deliver a message (no link to the peer): a replica is lost at once; a catch-up copy does not add the replica */
  undeliverable(peer: NodeId, msg: PeerMessage, now: number): void {
    this.now = now;
    if (msg.kind === 'rep') this.replicaLost(msg.id);
    else if (msg.kind === 'snapshot' && msg.handoff === undefined) this.core.removeReplica(msg.segment, peer);
  }

  /**
   * A peer's worker is gone (a crash resets its connections, so the other
   * nodes hear of it at once, as the client does): every write still
   * waiting for that replica's ack is acknowledged without it and the
   * replica reported lost — not held for {@link REPLICATION_TIMEOUT_MS}.
   * (A hung or partitioned peer sends no such reset: its writes wait for the timeout.)
   */
  peerGone(peer: NodeId, now: number): void {
    this.now = now;
    for (const [id, w] of [...this.repWaits]) if (w.replica === peer) this.replicaLost(id);
  }

  fromPeer(from: NodeId, msg: PeerMessage, now: number): void {
    this.now = now;
    switch (msg.kind) {
      case 'rep': {
        if (this.hung) return;
        this.core.applyReplica(msg.segment, msg.key, msg.entry);
        // acknowledged once durable here, as the owner acknowledges its client: a replica restarted at
        // once replays a disk that holds every write it acknowledged (it may be promoted from that copy)
        this.repAckWaits.push({ seq: this.persist(msg.segment, msg.key, msg.entry), peer: from, id: msg.id });
        this.flushDisk();
        this.sendDurableRepAcks();
        return;
      }
      case 'repAck': {
        const w = this.repWaits.get(msg.id);
        this.repWaits.delete(msg.id);
        if (w !== undefined) this.oneDone(w.ack);
        return;
      }
      case 'snapshot':
        this.core.loadSnapshot(msg.segment, msg.entries);
        this.flushDisk(); // earlier writes first
        // the disk port is FIFO: the snapshot is durable before the control plane reads `caughtUp`
        this.toControl({ kind: 'persistSegment', incarnation: this.incarnation, segment: msg.segment, entries: msg.entries });
        if (msg.handoff !== undefined) this.toControl({ kind: 'caughtUp', handoff: msg.handoff, segment: msg.segment });
        return;
    }
  }

  fromControl(msg: ControlToNode, now: number): void {
    this.now = now;
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
        // (undelivered — no link to the receiver — it is not a replica after all: `undeliverable`)
        this.toPeer(msg.to, { kind: 'snapshot', segment: msg.segment, entries: this.core.snapshot(msg.segment) });
        this.core.addReplica(msg.segment, msg.to);
        return;
      case 'fence':
        // from now on no write to the segment is acknowledged here; the final
        // state follows every replicated write on the FIFO peer port
        this.core.fence(msg.segment, true); // routeAt answers OwnershipChanging (dataPath.ts)
        this.toPeer(msg.to, { kind: 'snapshot', segment: msg.segment, entries: this.core.snapshot(msg.segment), handoff: msg.handoff });
        return;
      case 'unfence':
        this.core.fence(msg.segment, false);
        return;
      case 'dump':
        this.toControl({ kind: 'dumped', id: msg.id, segments: this.core.snapshots() });
        return;
      case 'hang': {
        this.hung = msg.on;
        const late = msg.on ? [] : this.lateTimeouts;
        if (!msg.on) this.lateTimeouts = [];
        for (const id of late) this.replicaLost(id);
        this.sendDurableRepAcks();
        return;
      }
      case 'link':
        applyLinkFault(this.link, msg.cmd, this.now);
        return;
    }
  }

  /** is `segment` fenced here (a handoff away from this node is in progress)? */
  isFenced(segment: number): boolean {
    return this.core.isFenced(segment);
  }

  private drain(): void {
    if (!this.serving || this.waiting.length === 0) return;
    const w = this.waiting;
    this.waiting = [];
    for (const [req, replyTo] of w) this.request(req, replyTo, this.now);
  }
}

/** Where a live node's messages go (the worker: MessagePorts; the test kit: simulated ports). */
export interface LiveNodeLinks {
  /** posts to a peer node; false when there is no link to it */
  toPeer(peer: NodeId, msg: PeerMessage): boolean;
  toControl(msg: NodeToControl): void;
  /** this node applied operation `op`'s write (the audit's notice; see {@link NodeOutput}) */
  applied?(op: number): void;
}

type Respond = (reply: NodeReply) => void;

/**
 * The thin shell around {@link LiveNode}: hands inputs in with the
 * scheduler's time and carries the outputs out — messages on the links,
 * answers to the callbacks, timers on the scheduler (firing back into the
 * node). No decision is taken here.
 */
export class LiveNodeShell {
  readonly node: LiveNode;
  private readonly responders = new Map<number, Respond>();
  private nextReply = 1;

  constructor(
    readonly self: NodeId,
    config: ClusterConfig,
    private readonly scheduler: Scheduler,
    private readonly links: LiveNodeLinks,
  ) {
    this.node = new LiveNode(self, config);
  }

  get link(): LinkFaults {
    return this.node.link;
  }

  heartbeat(): NodeToControl | null {
    return this.node.heartbeat();
  }

  isFenced(segment: number): boolean {
    return this.node.core.isFenced(segment);
  }

  /** a client request; `respond` is called once with the answer (never while hung) */
  request(req: NodeRequest, respond: Respond): void {
    const id = this.nextReply++;
    this.responders.set(id, respond);
    this.node.request(req, id, this.scheduler.now());
    this.flush();
  }

  fromPeer(from: NodeId, msg: PeerMessage): void {
    this.node.fromPeer(from, msg, this.scheduler.now());
    this.flush();
  }

  fromControl(msg: ControlToNode): void {
    this.node.fromControl(msg, this.scheduler.now());
    this.flush();
  }

  /** a peer's worker is gone: its connection was reset (see {@link LiveNode.peerGone}) */
  peerGone(peer: NodeId): void {
    this.node.peerGone(peer, this.scheduler.now());
    this.flush();
  }

  private flush(): void {
    for (let out = this.node.ready(); out.length > 0; out = this.node.ready()) {
      for (const o of out) this.carry(o);
    }
  }

  private carry(o: NodeOutput): void {
    switch (o.kind) {
      case 'peer':
        if (!this.links.toPeer(o.peer, o.msg)) this.node.undeliverable(o.peer, o.msg, this.scheduler.now());
        return;
      case 'control':
        return this.links.toControl(o.msg);
      case 'reply': {
        const respond = this.responders.get(o.replyTo);
        this.responders.delete(o.replyTo);
        return respond?.(o.reply);
      }
      case 'applied':
        return this.links.applied?.(o.op);
      case 'timer':
        this.scheduler.setTimer(o.afterMs, () => {
          this.node.fire(o.timer, this.scheduler.now());
          this.flush();
        });
        return;
    }
  }
}
