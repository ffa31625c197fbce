/**
 * The control plane on real time: the same ControlPlane as the simulation,
 * with failure detection from real heartbeats (a node whose heartbeats stop
 * for failureTimeoutMs is declared dead), segment copies carried out by the
 * node workers, and the cluster view pushed to nodes and to the UI.
 */
import * as Comlink from 'comlink';
import type { ClusterConfig } from '../src/core/cluster/clusterConfig';
import { ClusterState } from '../src/core/cluster/clusterState';
import { ControlPlane, type DataMover } from '../src/core/cluster/controlPlane';
import type { FaultCommand } from '../src/core/cluster/faults';
import { clusterViewOf, nodeViewOf } from '../src/core/cluster/views';
import { Rng } from '../src/core/rng';
import { RealScheduler } from '../src/platform/realScheduler';
import { TelemetryBatcher } from '../src/platform/telemetryBatcher';
import type { ControlToNode, NodeToControl, TelemetryMessage } from '../src/platform/workerProtocol';

interface Session {
  readonly state: ClusterState;
  readonly control: ControlPlane;
  readonly scheduler: RealScheduler;
  readonly telemetry: MessagePort;
  readonly batcher: TelemetryBatcher;
  readonly nodes: Map<number, MessagePort>;
  readonly lastBeat: Map<number, number>;
  readonly keyCounts: Map<number, readonly number[]>;
  readonly timers: ReturnType<typeof setInterval>[];
  publishedVersion: number;
}

let session: Session | null = null;

function send(node: number, msg: ControlToNode): void {
  session?.nodes.get(node)?.postMessage(msg);
}

function publish(force: boolean): void {
  const s = session;
  if (s === null) return;
  if (!force && s.state.version === s.publishedVersion) return;
  s.publishedVersion = s.state.version;
  const view = clusterViewOf(s.state, s.scheduler.now());
  const nodeView = nodeViewOf(view);
  for (const port of s.nodes.values()) port.postMessage({ kind: 'view', view: nodeView } satisfies ControlToNode);
  s.telemetry.postMessage({ kind: 'clusterView', view } satisfies TelemetryMessage);
}

function detect(): void {
  const s = session;
  if (s === null) return;
  const now = s.scheduler.now();
  for (const n of s.state.nodes) {
    if (n.declaredDead) continue;
    const last = s.lastBeat.get(n.id) ?? now;
    if (now - last > s.state.config.failureTimeoutMs) s.control.declareDead(n.id);
  }
  publish(false);
}

const api = {
  /** starts the control plane; `originMs` is the session start on the shared wall clock (performance.timeOrigin + now) */
  init(config: ClusterConfig, seed: number, originMs: number, telemetry: MessagePort): void {
    api.stop();
    const scheduler = new RealScheduler(originMs - performance.timeOrigin);
    const batcher = new TelemetryBatcher(telemetry, 50);
    const state = new ClusterState(config);
    const keyCounts = new Map<number, readonly number[]>();
    const nodes = new Map<number, MessagePort>();
    const data: DataMover = {
      keyCount: (node, segment) => keyCounts.get(node)?.[segment] ?? 0,
      copySegment: (from, to, segment) => nodes.get(from)?.postMessage({ kind: 'copy', segment, to } satisfies ControlToNode),
    };
    const control = new ControlPlane(state, scheduler, Rng.seeded(seed), batcher, { data, detection: 'external' });
    session = { state, control, scheduler, telemetry, batcher, nodes, lastBeat: new Map(), keyCounts, timers: [], publishedVersion: -1 };
    batcher.start();
    session.timers.push(setInterval(detect, Math.min(config.heartbeatMs, 250)));
    session.timers.push(setInterval(() => publish(false), 50));
    session.timers.push(setInterval(() => publish(true), 1000));
    control.announce();
    publish(true);
  },
  /** registers a node worker's control port (initial nodes, scale-out, restart) */
  addNode(id: number, port: MessagePort): void {
    const s = session;
    if (s === null) return;
    s.nodes.get(id)?.close();
    s.nodes.set(id, port);
    s.lastBeat.set(id, s.scheduler.now());
    port.onmessage = (ev: MessageEvent<NodeToControl>) => {
      const msg = ev.data;
      if (msg.kind === 'heartbeat') {
        s.lastBeat.set(id, s.scheduler.now());
        s.keyCounts.set(id, msg.keyCounts);
      } else {
        const seg = s.state.segment(msg.segment);
        if (seg.replicas.includes(msg.replica)) {
          seg.replicas = seg.replicas.filter((r) => r !== msg.replica);
          s.state.bump();
        }
      }
    };
    publish(true);
  },
  /** carries out a fault (the bridge has already killed / started workers where needed) */
  fault(cmd: FaultCommand): void {
    const s = session;
    if (s === null) return;
    s.control.apply(cmd);
    const node = cmd.node;
    if (node !== undefined) {
      const n = s.state.nodes[node];
      if (cmd.action === 'hang' && n?.status === 'hung') send(node, { kind: 'hang', on: true });
      if (cmd.action === 'resume') send(node, { kind: 'hang', on: false });
      if (cmd.action === 'slow') send(node, { kind: 'slow', factor: cmd.factor ?? 10, untilMs: cmd.durationMs ?? 5000 });
      if (cmd.action === 'lostAck') send(node, { kind: 'lostAck', probability: cmd.probability ?? 1, untilMs: cmd.durationMs ?? 2000 });
      if (cmd.action === 'hang' && cmd.durationMs !== undefined) setTimeout(() => send(node, { kind: 'hang', on: false }), cmd.durationMs);
      if (cmd.action === 'failback' || cmd.action === 'resume') s.lastBeat.set(node, s.scheduler.now());
    }
    publish(true);
  },
  /** number of members the control plane knows (scale-out assigns the next id) */
  nodeCount(): number {
    return session?.state.nodes.length ?? 0;
  },
  stop(): void {
    if (session === null) return;
    for (const t of session.timers) clearInterval(t);
    session.batcher.stop();
    for (const p of session.nodes.values()) p.close();
    session = null;
  },
};

export type ControlWorkerApi = typeof api;
Comlink.expose(api);
