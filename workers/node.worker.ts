/**
 * One cluster node on real time: a thin shell around the pure LiveNode (through LiveNodeShell)
 * (data-path decisions, synchronous replication, durable writes, fencing)
 * that moves its messages over MessagePorts, sends heartbeats and carries
 * out what the shared link-fault rules (`core/cluster/linkFaults.ts`, with
 * a seeded RNG) decide for each request and answer: slow, lost, garbled.
 * Terminating this worker is a crash: nothing is answered any more; what it
 * made durable lives on in the control worker's disk.
 */
import * as Comlink from 'comlink';
import type { ClusterConfig } from '../src/core/cluster/clusterConfig';
import { linkLatencyMs, replyFate, requestLost } from '../src/core/cluster/linkFaults';
import { LiveNodeShell } from '../src/core/cluster/live/liveNode';
import type { NodeReply } from '../src/core/domain/protocol';
import { Rng } from '../src/core/rng';
import { PortBatcher } from '../src/platform/portBatcher';
import { RealScheduler } from '../src/platform/realScheduler';
import type { ControlToNode, NodeAnswer, NodeCall, NodeNotice, NodeToControl, PeerMessage } from '../src/platform/workerProtocol';

let node: LiveNodeShell | null = null;
let control: MessagePort | null = null;
let latencyMs = 0;
/** draws of the link faults (lost ack, garble): seeded from the session seed and the node id */
let rng = Rng.seeded(0);
const peers = new Map<number, MessagePort>();
let heartbeat: ReturnType<typeof setInterval> | null = null;
/** the answers of one task go to a client as one message */
const answers = new PortBatcher<NodeAnswer | NodeNotice>();
/** the client's connection (the playground has one client worker): apply notices go there */
let clientPort: MessagePort | null = null;

function now(): number {
  return performance.now();
}

function answer(port: MessagePort, call: NodeCall, reply: NodeReply): void {
  const n = node;
  if (n === null) return;
  const t = now();
  const id = call.id;
  const committed = call.req.type === 'data' && call.req.kind !== 'get' && reply.status === 'Ok';
  const fate = replyFate(n.link, t, committed, rng);
  if (fate === 'lost') return; // served (a write is committed), the reply never arrives
  const msg: NodeAnswer = fate === 'garbled' ? { id, garbled: true } : { id, reply };
  // a slow link: the round trip takes the modelled latency × factor (both ways, added to the answer)
  const delay = 2 * (linkLatencyMs(n.link, t, latencyMs) - latencyMs);
  if (delay > 0) setTimeout(() => answers.post(port, msg), delay);
  else answers.post(port, msg);
}

const api = {
  /** starts the node: its id, the cluster shape, the session seed, and its port to the control plane (and its disk) */
  init(self: number, config: ClusterConfig, seed: number, controlPort: MessagePort): void {
    control = controlPort;
    latencyMs = config.latencyMs;
    rng = Rng.seeded(seed).stream(1_000 + self);
    node = new LiveNodeShell(self, config, new RealScheduler(), {
      toPeer: (peer, msg) => {
        const port = peers.get(peer);
        port?.postMessage(msg);
        return port !== undefined;
      },
      toControl: (msg: NodeToControl) => control?.postMessage(msg),
      // the audit's ground truth: sent at the apply, ahead of the answer, and never dropped by a link fault
      applied: (op) => {
        if (clientPort !== null) answers.post(clientPort, { applied: op });
      },
    });
    control.onmessage = (ev: MessageEvent<ControlToNode>) => node?.fromControl(ev.data);
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
  /** a peer's worker was terminated (a crash): its connection is reset, so writes stop waiting for its acks */
  peerGone(id: number): void {
    peers.get(id)?.close();
    peers.delete(id);
    node?.peerGone(id);
  },
  /** a client connection */
  addClient(port: MessagePort): void {
    clientPort = port;
    port.onmessage = (ev: MessageEvent<readonly NodeCall[]>) => {
      const n = node;
      if (n === null || requestLost(n.link, now())) return; // partition 'in': the requests never arrive
      for (const call of ev.data) n.request(call.req, (reply) => answer(port, call, reply));
    };
  },
  stop(): void {
    if (heartbeat !== null) clearInterval(heartbeat);
  },
};

export type NodeWorkerApi = typeof api;
Comlink.expose(api);
