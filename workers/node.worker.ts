/**
 * One cluster node on real time: the same node core as the simulation
 * (routing decision, conditions, versions), its own data, synchronous
 * replication to its peers before answering, heartbeats to the control
 * plane. Terminating this worker is a crash: nothing is answered any more.
 */
import * as Comlink from 'comlink';
import type { ClusterConfig } from '../src/core/cluster/clusterConfig';
import { NodeCore, type ReplicationPlan } from '../src/core/cluster/nodeCore';
import type { DataReply } from '../src/core/domain/protocol';
import type { ControlToNode, NodeAnswer, NodeCall, NodeToControl, PeerMessage } from '../src/platform/workerProtocol';

/** ms a write waits for a replica's ack before the replica is reported lost */
const REPLICATION_TIMEOUT_MS = 250;

let core: NodeCore | null = null;
let control: MessagePort | null = null;
const peers = new Map<number, MessagePort>();
const clients: MessagePort[] = [];
let hung = false;
let slowFactor = 1;
let slowUntil = 0;
let lostAckProbability = 0;
let lostAckUntil = 0;
let heartbeat: ReturnType<typeof setInterval> | null = null;
let nextRep = 1;
const repWaits = new Map<number, () => void>();

function now(): number {
  return performance.now();
}

function replyDelayMs(): number {
  return now() < slowUntil ? (slowFactor - 1) * 2 : 0;
}

function answer(port: MessagePort, id: number, reply: DataReply | ReturnType<NodeCore['mapReply']>): void {
  const msg: NodeAnswer = { id, reply };
  const delay = replyDelayMs();
  if (delay > 0) setTimeout(() => port.postMessage(msg), delay);
  else port.postMessage(msg);
}

/** sends a write to every replica; calls back once all acked (or timed out → reported lost) */
function replicate(plan: ReplicationPlan, done: () => void): void {
  let waiting = plan.replicas.length;
  const one = (replica: number, acked: boolean) => {
    if (!acked) control?.postMessage({ kind: 'replicaLost', segment: plan.segment, replica } satisfies NodeToControl);
    if (--waiting === 0) done();
  };
  for (const r of plan.replicas) {
    const port = peers.get(r);
    if (port === undefined) {
      one(r, false);
      continue;
    }
    const id = nextRep++;
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      repWaits.delete(id);
      one(r, false);
    }, REPLICATION_TIMEOUT_MS);
    repWaits.set(id, () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      one(r, true);
    });
    port.postMessage({ kind: 'rep', id, segment: plan.segment, key: plan.key, entry: plan.entry } satisfies PeerMessage);
  }
}

function onCall(port: MessagePort, call: NodeCall): void {
  if (core === null || hung) return; // a hung node answers nothing
  if (call.req.type === 'map') {
    answer(port, call.id, core.mapReply());
    return;
  }
  const { reply, replicate: plan } = core.serve(call.req);
  const ack = () => {
    if (now() < lostAckUntil && Math.random() < lostAckProbability) return; // committed, ack lost
    answer(port, call.id, reply);
  };
  if (plan === null) ack();
  else replicate(plan, ack);
}

function onPeer(from: number, port: MessagePort, msg: PeerMessage): void {
  if (core === null) return;
  switch (msg.kind) {
    case 'rep':
      if (hung) return;
      core.applyReplica(msg.segment, msg.key, msg.entry);
      port.postMessage({ kind: 'repAck', id: msg.id } satisfies PeerMessage);
      return;
    case 'repAck':
      repWaits.get(msg.id)?.();
      repWaits.delete(msg.id);
      return;
    case 'snapshot':
      core.loadSnapshot(msg.segment, msg.entries);
      void from;
      return;
  }
}

function onControl(msg: ControlToNode): void {
  if (core === null) return;
  switch (msg.kind) {
    case 'view':
      core.applyView(msg.view);
      return;
    case 'copy': {
      // snapshot first, then mark the receiver a replica: the port is FIFO, so it misses no write
      const port = peers.get(msg.to);
      if (port === undefined) return;
      port.postMessage({ kind: 'snapshot', segment: msg.segment, entries: core.snapshot(msg.segment) } satisfies PeerMessage);
      core.addReplica(msg.segment, msg.to);
      return;
    }
    case 'hang':
      hung = msg.on;
      return;
    case 'slow':
      slowFactor = msg.factor;
      slowUntil = now() + msg.untilMs;
      return;
    case 'lostAck':
      lostAckProbability = msg.probability;
      lostAckUntil = now() + msg.untilMs;
      return;
  }
}

const api = {
  /** starts the node: its id, the cluster shape, and its port to the control plane */
  init(self: number, config: ClusterConfig, controlPort: MessagePort): void {
    core = new NodeCore(self, config);
    control = controlPort;
    control.onmessage = (ev: MessageEvent<ControlToNode>) => onControl(ev.data);
    const beat = () => {
      if (!hung && core !== null) control?.postMessage({ kind: 'heartbeat', keyCounts: core.keyCounts() } satisfies NodeToControl);
    };
    beat();
    heartbeat = setInterval(beat, config.heartbeatMs);
  },
  /** a replication link to another node */
  addPeer(id: number, port: MessagePort): void {
    peers.set(id, port);
    port.onmessage = (ev: MessageEvent<PeerMessage>) => onPeer(id, port, ev.data);
  },
  /** a client connection */
  addClient(port: MessagePort): void {
    clients.push(port);
    port.onmessage = (ev: MessageEvent<NodeCall>) => onCall(port, ev.data);
  },
  stop(): void {
    if (heartbeat !== null) clearInterval(heartbeat);
  },
};

export type NodeWorkerApi = typeof api;
Comlink.expose(api);
