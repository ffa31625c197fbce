/**
 * The simulated network and node servers, seen by the client as a Transport.
 * Each link is FIFO (like one TCP connection); each node serves one request
 * at a time with a per-kind service time, so herds and storms load real
 * nodes. A crashed node refuses (NodeUnavailable) and resets in-flight
 * requests (Socket); a hung node never answers (Timeout), not even a write it
 * committed before the hang whose reply waited for its replicas. The link faults
 * (slow, lost ack, one-way partition, garbled reply) are the shared rules
 * of `cluster/linkFaults.ts`.
 */
import { TransportFailure, type Transport, type TransportOutcome } from '../client/transport';
import type { NodeInfo } from '../cluster/controlState';
import { linkLatencyMs, replyFate, requestLost } from '../cluster/linkFaults';
import { REPLICATION_TIMEOUT_MS } from '../cluster/replicaSet';
import { ownershipFailureStatus } from '../cluster/dataPath';
import type { NodeId } from '../domain/clusterMap';
import type { NodeReply, NodeRequest } from '../domain/protocol';
import { KvStatus, TransportErrorCode } from '../domain/status';
import type { Rng } from '../rng';
import type { SimClock } from '../time/simClock';
import { heldAt, type ApplyListener, type SimCluster, type SimNode } from './simCluster';

const TIMEOUT: TransportOutcome = { ok: false, error: new TransportFailure(TransportErrorCode.Timeout, 'no answer in time') };
const REFUSED: TransportOutcome = { ok: false, error: new TransportFailure(TransportErrorCode.NodeUnavailable, 'connection refused') };
const RESET: TransportOutcome = { ok: false, error: new TransportFailure(TransportErrorCode.Socket, 'connection reset') };
const GARBLED: TransportOutcome = { ok: false, error: new TransportFailure(TransportErrorCode.Transport, 'garbled reply') };

/** a flight's reply before the node has served it (never handed to the client) */
const UNSERVED: NodeReply = { status: KvStatus.Unavailable };

/**
 * One request on its way: what the node needs to serve it, then the answer
 * on its way back. One object per request instead of a closure per timer;
 * a served request's flight is itself the client's `{ ok: true, reply }`
 * outcome (no outcome object per answer: measured ≈ 3 % faster, README).
 * Flights are recycled ({@link SimNetwork.release}) once the client has its
 * answer or the node has served a request the client stopped waiting for:
 * the Transport contract lets an outcome be read during the `done` call only.
 */
class Flight {
  /** the answer, set when it is sent back: a failure constant, or this flight */
  outcome: TransportOutcome = TIMEOUT;
  readonly ok = true as const;
  /** the node's reply, set when it served the request */
  reply: NodeReply = UNSERVED;
  /** when the node sends its reply: when it served the request, or for a committed write when its replicas have acknowledged it */
  sentAt = Infinity;
  /** false once released: a timer that still fires for it is a bug, and throws */
  live = true;
  /** a committed write whose acknowledgement waited for a hung replica's ack (REPLICATION_TIMEOUT_MS) */
  awaitedLostAck = false;
  constructor(
    readonly net: SimNetwork,
    /** the control plane's record of the node (status, incarnation) */
    public node: NodeInfo,
    /** the node's own part (queue, link) */
    public sim: SimNode,
    public req: NodeRequest,
    public incarnation: number,
    public deadline: number,
    /** the client's timeout fires before the node finishes serving */
    public timedOut: boolean,
    public done: (outcome: TransportOutcome) => void,
  ) {}
}

const NO_REQUEST: NodeRequest = { type: 'map' };
const NO_CALLBACK = (): void => {};

function assertLive(f: Flight): void {
  if (!f.live) throw new Error('SimNetwork: a timer fired for a flight already recycled');
}

function serveFlight(f: Flight): void {
  assertLive(f);
  f.net.serve(f);
}
/**
 * The answer reaches the client. A node that crashed before it sent its reply
 * (a committed write waiting for its replicas' acks) never sent it: the
 * client sees the connection reset, although the write was applied — the
 * classic write whose outcome the client cannot know. A reply already on the
 * wire at the crash still arrives.
 */
function answerFlight(f: Flight): void {
  assertLive(f);
  if (f.outcome === f) {
    if (f.node.incarnation !== f.incarnation) {
      if (f.sim.crashedAt < f.sentAt) f.outcome = RESET;
    } else if (heldAt(f.sim, f.sentAt)) {
      // hung when its reply was due (a committed write waiting for its replicas): a hung node answers nothing, and
      // a held reply is not sent after the resume either, so the client times out although the write was applied
      f.net.timeOutAtDeadline(f);
      return;
    } else if (f.awaitedLostAck) f.net.unlessStillOwner(f);
  }
  f.done(f.outcome);
  f.net.release(f);
}

export class SimNetwork implements Transport {
  /** per node: arrival time of the last request on the client→node link (FIFO) */
  private readonly linkIn: number[] = [];
  /** `segment:replica` pairs whose lost ack is being waited out (one removal timer each) */
  private readonly ackTimeouts = new Set<string>();
  /** requests sent, for benchmarks */
  sent = 0;
  /** flights done with, for reuse (an allocation less per request) */
  private readonly spare: Flight[] = [];

  constructor(
    private readonly cluster: SimCluster,
    private readonly scheduler: SimClock,
    private readonly rng: Rng,
    /** a replica's ack did not come in time (`SimControl.replicaLost`) */
    private readonly replicaLost: (segment: number, replica: NodeId) => void,
    private readonly onApply?: ApplyListener,
  ) {}

  private oneWay(node: SimNode): number {
    const { latencyMs, jitterMs } = this.cluster.config;
    const base = jitterMs > 0 ? latencyMs + this.rng.exp(jitterMs) : latencyMs;
    return linkLatencyMs(node.link, this.scheduler.now(), base);
  }

  private flight(node: NodeInfo, sim: SimNode, req: NodeRequest, deadline: number, timedOut: boolean, done: (outcome: TransportOutcome) => void): Flight {
    const f = this.spare.pop();
    if (f === undefined) return new Flight(this, node, sim, req, node.incarnation, deadline, timedOut, done);
    f.node = node;
    f.sim = sim;
    f.req = req;
    f.incarnation = node.incarnation;
    f.deadline = deadline;
    f.timedOut = timedOut;
    f.done = done;
    f.live = true;
    return f;
  }

  /**
   * @internal A write that waited for a hung replica's ack is acknowledged
   * only if its node still owns the segment, as a live owner does
   * (`LiveNode.acknowledge`): one deposed meanwhile — declared dead during
   * its own hang, the segment promoted elsewhere without the write — answers
   * as a node that does not own it (Moved / OwnershipChanging).
   */
  unlessStillOwner(f: Flight): void {
    const req = f.req;
    if (req.type !== 'data') return;
    const view = this.cluster.control;
    if (view.segment(req.segment).owner === f.node.id) return;
    f.reply = { status: ownershipFailureStatus(view, req.segment), value: undefined, version: undefined };
  }

  /** @internal `f` is finished with: no timer holds it, the client has read its answer */
  release(f: Flight): void {
    f.live = false;
    f.awaitedLostAck = false;
    f.req = NO_REQUEST;
    f.done = NO_CALLBACK;
    f.reply = UNSERVED;
    f.outcome = TIMEOUT;
    f.sentAt = Infinity;
    this.spare.push(f);
  }

  private serviceMs(req: NodeRequest): number {
    const c = this.cluster.config;
    if (req.type === 'map') return c.mapServiceMs + c.mapServicePerSegmentMs * c.segments;
    return req.kind === 'get' ? c.getServiceMs : c.writeServiceMs;
  }

  send(nodeId: NodeId, req: NodeRequest, timeoutMs: number, done: (outcome: TransportOutcome) => void): void {
    this.sent++;
    const sched = this.scheduler;
    const now = sched.now();
    const deadline = now + timeoutMs;
    const node = this.cluster.control.nodes[nodeId];
    if (node === undefined) {
      sched.at(now, () => done(REFUSED));
      return;
    }
    const sim = this.cluster.node(nodeId);
    if (node.status === 'hung' || requestLost(sim.link, now)) {
      sched.at(deadline, () => done(TIMEOUT));
      return;
    }
    const lat = this.oneWay(sim);
    if (node.status === 'down') {
      this.deliver(now + 2 * lat, this.flight(node, sim, req, deadline, false, done), REFUSED);
      return;
    }
    let arrival = now + lat;
    const last = this.linkIn[nodeId] ?? 0;
    if (arrival < last) arrival = last;
    this.linkIn[nodeId] = arrival;
    const finish = (arrival > sim.busyUntil ? arrival : sim.busyUntil) + this.serviceMs(req);
    sim.busyUntil = finish;
    const timedOut = finish > deadline;
    if (timedOut) sched.at(deadline, () => done(TIMEOUT));
    sched.atCall(finish, serveFlight, this.flight(node, sim, req, deadline, timedOut, done));
  }

  /** @internal the node serves the request now (decision and side effects), then answers */
  serve(f: Flight): void {
    const { node, sim, req, deadline, timedOut } = f;
    const now = this.scheduler.now();
    if (node.incarnation !== f.incarnation || node.status === 'down') {
      if (!timedOut) this.deliver(now + this.oneWay(sim), f, RESET);
      else this.release(f);
      return;
    }
    if (node.status === 'hung') {
      if (!timedOut) this.deliver(deadline, f, TIMEOUT);
      else this.release(f);
      return;
    }
    let reply: NodeReply;
    let extra = 0;
    let committed = false;
    if (req.type === 'map') {
      reply = { status: 'Ok', map: this.cluster.control.map() };
    } else {
      reply = this.cluster.serve(node.id, req, this.onApply);
      committed = req.kind !== 'get' && reply.status === KvStatus.Ok;
      if (committed) extra = this.cluster.unacked.length === 0 ? this.cluster.config.replicationMs : this.awaitLostAcks(node, req.segment, now);
    }
    const fate = replyFate(sim.link, now, committed, this.rng);
    if (fate === 'lost') {
      // served (a write is committed), but the reply is lost on the way back
      if (!timedOut) this.deliver(deadline, f, TIMEOUT);
      else this.release(f);
      return;
    }
    if (timedOut) {
      this.release(f);
      return;
    }
    f.reply = reply;
    f.sentAt = now + extra;
    f.awaitedLostAck = committed && extra === REPLICATION_TIMEOUT_MS;
    this.deliver(f.sentAt + this.oneWay(sim), f, fate === 'garbled' ? GARBLED : f);
  }

  /**
   * The write just committed waits for acks that will not come (hung
   * replicas, `SimCluster.unacked`): it is acknowledged after
   * REPLICATION_TIMEOUT_MS, when the first such timeout per replica also
   * reports the replica lost to the control plane — the live owner's report,
   * and the same rule: it leaves the segment's set, and one that is up again
   * by then (its node was declared dead and rejoined meanwhile) catches up
   * and rejoins. The owner reports it when it runs, as a live node does: a
   * hung owner once it answers again (checked every heartbeat), a crashed
   * one never (the write's wait died with it). Returns the wait, ms.
   */
  private awaitLostAcks(owner: NodeInfo, segment: number, now: number): number {
    const incarnation = owner.incarnation;
    for (const r of this.cluster.unacked) {
      const key = `${segment}:${r}`;
      if (this.ackTimeouts.has(key)) continue;
      this.ackTimeouts.add(key);
      const report = (): void => {
        if (owner.status === 'hung' && owner.incarnation === incarnation) {
          this.scheduler.setTimer(this.cluster.config.heartbeatMs, report);
          return;
        }
        this.ackTimeouts.delete(key);
        if (owner.status !== 'down' && owner.incarnation === incarnation) this.replicaLost(segment, r);
      };
      this.scheduler.at(now + REPLICATION_TIMEOUT_MS, report);
    }
    return REPLICATION_TIMEOUT_MS;
  }

  /** @internal the reply is not coming: the client's timeout ends the attempt at its deadline */
  timeOutAtDeadline(f: Flight): void {
    f.outcome = TIMEOUT;
    this.scheduler.atCall(f.deadline, answerFlight, f);
  }

  /** the answer reaches the client at `at`, or the client times out first */
  private deliver(at: number, f: Flight, outcome: TransportOutcome): void {
    if (at > f.deadline) {
      f.outcome = TIMEOUT;
      this.scheduler.atCall(f.deadline, answerFlight, f);
    } else {
      f.outcome = outcome;
      this.scheduler.atCall(at, answerFlight, f);
    }
  }
}
