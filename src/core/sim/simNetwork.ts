/**
 * The simulated network and node servers, seen by the client as a Transport.
 * Each link is FIFO (like one TCP connection); each node serves one request
 * at a time with a per-kind service time, so herds and storms load real
 * nodes. A crashed node refuses (NodeUnavailable) and resets in-flight
 * requests (Socket); a hung node never answers (Timeout).
 */
import { TransportFailure, type Transport, type TransportOutcome } from '../client/transport';
import type { ClusterState, NodeInfo } from '../cluster/clusterState';
import { serveData, type ApplyListener } from '../cluster/dataPath';
import type { NodeId } from '../domain/clusterMap';
import type { NodeReply, NodeRequest } from '../domain/protocol';
import { KvStatus, TransportErrorCode } from '../domain/status';
import type { Rng } from '../rng';
import type { VirtualScheduler } from '../time/virtualScheduler';

const TIMEOUT: TransportOutcome = { ok: false, error: new TransportFailure(TransportErrorCode.Timeout, 'no answer in time') };
const REFUSED: TransportOutcome = { ok: false, error: new TransportFailure(TransportErrorCode.NodeUnavailable, 'connection refused') };
const RESET: TransportOutcome = { ok: false, error: new TransportFailure(TransportErrorCode.Socket, 'connection reset') };

export class SimNetwork implements Transport {
  /** per node: arrival time of the last request on the client→node link (FIFO) */
  private readonly linkIn: number[] = [];
  /** requests sent, for benchmarks */
  sent = 0;

  constructor(
    private readonly state: ClusterState,
    private readonly scheduler: VirtualScheduler,
    private readonly rng: Rng,
    private readonly onApply?: ApplyListener,
  ) {}

  private oneWay(node: NodeInfo): number {
    const { latencyMs, jitterMs } = this.state.config;
    const base = jitterMs > 0 ? latencyMs + this.rng.exp(jitterMs) : latencyMs;
    return node.slowFactor === 1 ? base : base * node.slowFactor;
  }

  private serviceMs(req: NodeRequest): number {
    const c = this.state.config;
    if (req.type === 'map') return c.mapServiceMs + c.mapServicePerSegmentMs * c.segments;
    return req.kind === 'get' ? c.getServiceMs : c.writeServiceMs;
  }

  send(nodeId: NodeId, req: NodeRequest, timeoutMs: number, done: (outcome: TransportOutcome) => void): void {
    this.sent++;
    const sched = this.scheduler;
    const now = sched.now();
    const deadline = now + timeoutMs;
    const node = this.state.nodes[nodeId];
    if (node === undefined) {
      sched.at(now, () => done(REFUSED));
      return;
    }
    if (node.status === 'hung') {
      sched.at(deadline, () => done(TIMEOUT));
      return;
    }
    const lat = this.oneWay(node);
    if (node.status === 'down') {
      this.deliver(now + 2 * lat, deadline, done, REFUSED);
      return;
    }
    let arrival = now + lat;
    const last = this.linkIn[nodeId] ?? 0;
    if (arrival < last) arrival = last;
    this.linkIn[nodeId] = arrival;
    const finish = (arrival > node.busyUntil ? arrival : node.busyUntil) + this.serviceMs(req);
    node.busyUntil = finish;
    const incarnation = node.incarnation;
    const timedOut = finish > deadline;
    if (timedOut) sched.at(deadline, () => done(TIMEOUT));
    sched.at(finish, () => this.serve(node, req, incarnation, deadline, timedOut, done));
  }

  /** the node serves the request now (decision and side effects), then answers */
  private serve(
    node: NodeInfo,
    req: NodeRequest,
    incarnation: number,
    deadline: number,
    timedOut: boolean,
    done: (outcome: TransportOutcome) => void,
  ): void {
    const now = this.scheduler.now();
    if (node.incarnation !== incarnation || node.status === 'down') {
      if (!timedOut) this.deliver(now + this.oneWay(node), deadline, done, RESET);
      return;
    }
    if (node.status === 'hung') {
      if (!timedOut) this.scheduler.at(deadline, () => done(TIMEOUT));
      return;
    }
    let reply: NodeReply;
    let extra = 0;
    if (req.type === 'map') {
      reply = { status: 'Ok', map: this.state.map() };
    } else {
      reply = serveData(this.state, node.id, req, this.onApply);
      if (req.kind !== 'get' && reply.status === KvStatus.Ok) {
        extra = this.state.config.replicationMs;
        if (now < node.lostAckUntil && this.rng.next() < node.lostAckProbability) {
          // committed, but the acknowledgement is lost on the way back
          if (!timedOut) this.scheduler.at(deadline, () => done(TIMEOUT));
          return;
        }
      }
    }
    if (timedOut) return;
    this.deliver(now + extra + this.oneWay(node), deadline, done, { ok: true, reply });
  }

  private deliver(at: number, deadline: number, done: (o: TransportOutcome) => void, outcome: TransportOutcome): void {
    if (at > deadline) this.scheduler.at(deadline, () => done(TIMEOUT));
    else this.scheduler.at(at, () => done(outcome));
  }
}
