/**
 * The live playground's control protocol without a browser: LiveControl and
 * LiveNodes wired by simulated MessagePorts (FIFO per link, a latency per
 * link) on virtual time. Killing a node drops its instance (its memory) and
 * every message to it, as `Worker.terminate()` does; its disk stays with the
 * control plane. Used only by tests.
 */
import type { NodeId } from '../../../domain/clusterMap';
import type { DataReply, DataRequest, NodeReply, OpKind } from '../../../domain/protocol';
import { segmentOf } from '../../../domain/segment';
import { DEFAULT_CLIENT_CONFIG } from '../../../client/config';
import { KvStatus, TransportErrorCode } from '../../../domain/status';
import { ApplyTracker } from '../../../sim/applyTracker';
import { AvailabilitySink } from '../../../sim/availabilityRule';
import { InvariantChecker, type InvariantReport } from '../../../sim/invariants';
import { Recorder } from '../../../sim/testkit/recorder';
import { teeSink, type OpEndEvent } from '../../../telemetry/events';
import { VirtualScheduler } from '../../../time/virtualScheduler';
import { DEFAULT_CLUSTER_CONFIG, type ClusterConfig } from '../../clusterConfig';
import { replyFate, requestLost } from '../../linkFaults';
import { Rng } from '../../../rng';
import type { FaultCommand } from '../../faults';
import { LiveControl } from '../liveControl';
import { LiveNodeShell } from '../liveNode';

/** a link's end points: 'c' is the control plane, 'k' the client, 'm' the page's main thread (which kills workers), a number a node */
type End = NodeId | 'c' | 'k' | 'm';

export interface AckedWrite {
  readonly op: number;
  readonly key: string;
  readonly value: string | undefined;
  readonly version: number;
  readonly node: NodeId;
  readonly t: number;
}

export class LiveCluster {
  readonly sched = new VirtualScheduler();
  readonly rec = new Recorder();
  readonly config: ClusterConfig;
  readonly control: LiveControl;
  /** the invariant checker the headless runs use, fed this cluster's events, its operations and its truth */
  readonly checker = new InvariantChecker(() => DEFAULT_CLIENT_CONFIG);
  /** the availability rule as the control worker watches it: teed into the control plane's telemetry */
  readonly availability = new AvailabilitySink();
  /** the ambiguous-write audit as the client worker runs it: these operations against the nodes' apply notices */
  readonly audit = new ApplyTracker();
  readonly nodes = new Map<NodeId, LiveNodeShell>();
  /** per node, the peers whose crash it has heard of (their link is closed until they are spawned again) */
  private readonly closedLinks = new Map<NodeId, Set<NodeId>>();
  /** one-way latency per link, ms (default 1) */
  latency: (from: End, to: End) => number = () => 1;
  /** every write a node acknowledged */
  readonly acked: AckedWrite[] = [];
  private readonly lastDelivery = new Map<string, number>();
  /** the seeded draws of the link faults (as the node workers' Rng streams) */
  private readonly linkRng: Rng;
  /** replies that arrived garbled (Transport errors) */
  garbled = 0;
  private nextOp = 1;

  constructor(config: Partial<ClusterConfig> = {}, seed = 1) {
    this.config = { ...DEFAULT_CLUSTER_CONFIG, nodes: 3, segments: 8, replicas: 1, ...config };
    this.linkRng = Rng.seeded(seed).stream(1_000);
    this.control = new LiveControl(this.config, seed, this.sched, teeSink([this.rec, this.checker, this.availability]), {
      toNode: (node, msg) => this.deliver('c', node, () => this.nodes.get(node)?.fromControl(msg)),
      clusterView: () => undefined,
    });
    this.availability.watchCluster(this.control.state);
    this.checker.watchCluster(this.control.state);
    this.control.start();
    for (let id = 0; id < this.config.nodes; id++) this.spawn(id);
    this.run(10);
  }

  /** delivers after the link's latency, never before an earlier message on the same link */
  private deliver(from: End, to: End, fn: () => void): void {
    const link = `${from}>${to}`;
    const at = Math.max(this.sched.now() + this.latency(from, to), this.lastDelivery.get(link) ?? 0);
    this.lastDelivery.set(link, at);
    this.sched.at(at, fn);
  }

  /** starts a node (a fresh instance: empty memory) and links it */
  spawn(id: NodeId): LiveNodeShell {
    // a terminated worker posts nothing more (its timers stop with it); what it posted before still arrives
    const alive = (): boolean => this.nodes.get(id) === node;
    const closed = new Set<NodeId>();
    this.closedLinks.set(id, closed);
    // a fresh worker: every node is linked to it again (the page's addPeer), after any peerGone of the old one
    // still on its way (one main-thread hop, FIFO), as in the page, where peerGone is posted first
    for (const [other, links] of this.closedLinks) if (other !== id) this.deliver('m', other, () => links.delete(id));
    const node: LiveNodeShell = new LiveNodeShell(id, this.config, this.sched, {
      // as the node worker's peer ports: a link to a dead peer takes the message and drops it, until the kill is heard of
      toPeer: (peer, msg) => {
        if (!alive() || !this.closedLinks.has(peer) || closed.has(peer)) return false;
        this.deliver(id, peer, () => this.nodes.get(peer)?.fromPeer(id, msg));
        return true;
      },
      // a message already posted reaches the control plane even if the sender dies after
      toControl: (msg) => {
        if (alive()) this.deliver(id, 'c', () => this.control.fromNode(id, msg));
      },
      // on the client link, ahead of the answer (as the node worker posts it); no link fault drops it
      applied: (op) => {
        if (alive()) this.deliver(id, 'k', () => this.audit.onApply(op));
      },
    });
    this.nodes.set(id, node);
    const beat = (): void => {
      if (this.nodes.get(id) !== node) return;
      const hb = node.heartbeat();
      if (hb !== null) this.deliver(id, 'c', () => this.control.fromNode(id, hb));
      this.sched.setTimer(this.config.heartbeatMs, beat);
    };
    beat();
    this.control.nodeLinked(id);
    return node;
  }

  /**
   * Worker.terminate(): the node's memory is gone, messages to it are
   * dropped; the page tells the other nodes (`peerGone`, a reset connection)
   * one main-thread hop later, as the live session does
   */
  kill(id: NodeId): void {
    this.nodes.delete(id);
    for (const [other, n] of this.nodes) {
      this.deliver('m', other, () => {
        if (this.nodes.get(other) !== n) return;
        this.closedLinks.get(other)?.add(id);
        n.peerGone(id);
      });
    }
    this.control.fault({ action: 'failover', node: id });
  }

  /** failback: a fresh worker for `id`, then the control plane's failback */
  restart(id: NodeId): LiveNodeShell {
    const n = this.spawn(id);
    this.control.fault({ action: 'failback', node: id });
    return n;
  }

  /** a fault the control plane carries out without a worker change (hang, resume, link faults) */
  fault(cmd: FaultCommand): void {
    this.control.fault(cmd);
  }

  scaleOut(): LiveNodeShell {
    const n = this.spawn(this.control.nodeCount());
    this.control.fault({ action: 'scaleOut' });
    return n;
  }

  run(ms: number): void {
    this.sched.advanceTo(this.sched.now() + ms);
  }

  segment(key: string): number {
    return segmentOf(key, this.config.segments);
  }

  /**
   * sends one data request to `node`; `onReply` gets the answer (never, if
   * the node is dead or hung). With no answer within `timeoutMs` the
   * operation ends in Timeout, as the client's would (its checker and audit see that end).
   */
  send(node: NodeId, kind: OpKind, key: string, value?: string, onReply?: (r: DataReply) => void, timeoutMs = 1_000): number {
    const op = this.nextOp++;
    const req: DataRequest = { type: 'data', kind, key, segment: this.segment(key), value, epoch: 0, op };
    const t0 = this.sched.now();
    const start = { t: t0, type: 'op.start', op, kind, key, segment: req.segment, deadline: null, budget: 1 } as const;
    this.checker.emit(start);
    this.audit.emit(start);
    let ended = false;
    const end = (e: OpEndEvent): void => {
      if (ended) return;
      ended = true;
      this.checker.emit(e);
      this.audit.emit(e);
    };
    this.sched.setTimer(timeoutMs, () => end({ t: this.sched.now(), type: 'op.end', op, error: TransportErrorCode.Timeout, attempts: 1, latencyMs: this.sched.now() - t0, reason: 'attemptsExhausted' }));
    this.deliver('k', node, () => {
      const n = this.nodes.get(node);
      // the node worker's shell: link faults on the client link (linkFaults.ts), seeded
      if (n === undefined || requestLost(n.link, this.sched.now())) return;
      n.request(req, (reply: NodeReply) => {
        if (this.nodes.get(node) !== n) return; // answered by a terminated worker's timer: never sent
        const committed = kind !== 'get' && reply.status === 'Ok';
        const fate = replyFate(n.link, this.sched.now(), committed, this.linkRng);
        if (fate === 'lost') return;
        if (fate === 'garbled') {
          this.garbled++;
          return; // a Transport error at the client: the outcome is unknown, like a lost reply
        }
        this.deliver(node, 'k', () => {
          const r = reply as DataReply;
          const t = this.sched.now();
          if (ended) return; // timed out already: the client no longer listens
          if (kind !== 'get' && r.status === 'Ok' && r.version !== undefined) {
            this.acked.push({ op, key, value, version: r.version, node, t });
          }
          const real = r.status === KvStatus.Ok || r.status === KvStatus.NotFound || r.status === KvStatus.Conflict;
          end({
            t,
            type: 'op.end',
            op,
            status: r.status,
            attempts: 1,
            latencyMs: t - t0,
            ...(r.version !== undefined ? { version: r.version } : {}),
            reason: r.status === KvStatus.Ok ? 'success' : real ? 'realAnswer' : 'attemptsExhausted',
          });
          onReply?.(r);
        });
      });
    });
    return op;
  }

  /** sends a request and runs until its answer (undefined if none came within `ms`) */
  ask(node: NodeId, kind: OpKind, key: string, value?: string, ms = 50): DataReply | undefined {
    let out: DataReply | undefined;
    this.send(node, kind, key, value, (r) => (out = r));
    this.run(ms);
    return out;
  }

  /**
   * The invariant report of everything so far: the checker's event rules,
   * the availability rule, and every acknowledged write against the data the
   * cluster holds now (read as the dashboard's Pause does).
   */
  verify(): InvariantReport {
    const asOf = this.sched.now();
    let versions: Map<string, number> | undefined;
    this.control.clusterVersions((v) => (versions = v));
    this.run(1_100);
    const held = versions ?? new Map<string, number>();
    this.checker.checkFinalData((key) => held.get(key) ?? 0, asOf);
    this.checker.finishAvailability(this.sched.now());
    return this.checker.report();
  }

  /** a key that hashes into `segment` */
  keyIn(segment: number, salt = 0): string {
    for (let i = 0; ; i++) {
      const k = `k${salt}.${i}`;
      if (this.segment(k) === segment) return k;
    }
  }
}
