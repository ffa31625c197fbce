/**
 * One cluster node on real time: a thin shell around the pure LiveNode
 * (data-path decisions, synchronous replication, durable writes, fencing)
 * that moves its messages over MessagePorts, sends heartbeats and applies
 * the link faults (slow answers, lost acknowledgements) to its answers.
 * Terminating this worker is a crash: nothing is answered any more; what it
 * made durable lives on in the control worker's disk.
 */
import * as Comlink from 'comlink';
import type { ClusterConfig } from '../src/core/cluster/clusterConfig';
import { LiveNode } from '../src/core/cluster/live/liveNode';
import type { NodeReply } from '../src/core/domain/protocol';
import { PortBatcher } from '../src/platform/portBatcher';
import { RealScheduler } from '../src/platform/realScheduler';
import type { ControlToNode, NodeAnswer, NodeCall, NodeToControl, PeerMessage } from '../src/platform/workerProtocol';

let node: LiveNode | null = null;
let control: MessagePort | null = null;
const peers = new Map<number, MessagePort>();
let slowFactor = 1;
let slowUntil = 0;
let lostAckProbability = 0;
let lostAckUntil = 0;
let heartbeat: ReturnType<typeof setInterval> | null = null;
/** the answers of one task go to a client as one message */
const answers = new PortBatcher<NodeAnswer>();

function now(): number {
  return performance.now();
}

function answer(port: MessagePort, id: number, reply: NodeReply): void {
  if (!('map' in reply) && now() < lostAckUntil && Math.random() < lostAckProbability) return; // committed, ack lost
  const msg: NodeAnswer = { id, reply };
  const delay = now() < slowUntil ? (slowFactor - 1) * 2 : 0;
  if (delay > 0) setTimeout(() => answers.post(port, msg), delay);
  else answers.post(port, msg);
}

function onControl(msg: ControlToNode): void {
  if (msg.kind === 'slow') {
    slowFactor = msg.factor;
    slowUntil = now() + msg.untilMs;
  } else if (msg.kind === 'lostAck') {
    lostAckProbability = msg.probability;
    lostAckUntil = now() + msg.untilMs;
  }
  node?.fromControl(msg);
}

const api = {
  /** starts the node: its id, the cluster shape, and its port to the control plane (and its disk) */
  init(self: number, config: ClusterConfig, controlPort: MessagePort): void {
    control = controlPort;
    node = new LiveNode(self, config, new RealScheduler(), {
      toPeer: (peer, msg) => {
        const port = peers.get(peer);
        port?.postMessage(msg);
        return port !== undefined;
      },
      toControl: (msg: NodeToControl) => control?.postMessage(msg),
    });
    control.onmessage = (ev: MessageEvent<ControlToNode>) => onControl(ev.data);
    const beat = (): void => {
      const hb = node?.heartbeat();
      if (hb) control?.postMessage(hb);
    };
    beat();
    heartbeat = setInterval(beat, config.heartbeatMs);
  },
  /** a replication link to another node */
  addPeer(id: number, port: MessagePort): void {
    peers.set(id, port);
    port.onmessage = (ev: MessageEvent<PeerMessage>) => node?.fromPeer(id, ev.data);
  },
  /** a client connection */
  addClient(port: MessagePort): void {
    port.onmessage = (ev: MessageEvent<readonly NodeCall[]>) => {
      for (const call of ev.data) node?.request(call.req, (reply) => answer(port, call.id, reply));
    };
  },
  stop(): void {
    if (heartbeat !== null) clearInterval(heartbeat);
  },
};

export type NodeWorkerApi = typeof api;
Comlink.expose(api);
