/**
 * The control plane on real time: a thin shell around the pure LiveControl
 * (the simulation's ControlPlane with heartbeat detection, fenced handoffs
 * and the nodes' disks) that moves its messages over MessagePorts and sends
 * the cluster view to the UI.
 */
import * as Comlink from 'comlink';
import type { ClusterConfig } from '../src/core/cluster/clusterConfig';
import { LiveControl } from '../src/core/cluster/live/liveControl';
import type { FaultCommand } from '../src/core/cluster/faults';
import { AvailabilitySink } from '../src/core/sim/availabilityRule';
import { teeSink } from '../src/core/telemetry/events';
import { RealScheduler } from '../src/platform/realScheduler';
import { TelemetryBatcher } from '../src/platform/telemetryBatcher';
import type { ControlToNode, NodeToControl, TelemetryMessage } from '../src/platform/workerProtocol';

interface Session {
  readonly live: LiveControl;
  readonly batcher: TelemetryBatcher;
  readonly nodes: Map<number, MessagePort>;
}

let session: Session | null = null;

const api = {
  /** starts the control plane; `originMs` is the session start on the shared wall clock (performance.timeOrigin + now) */
  init(config: ClusterConfig, seed: number, originMs: number, telemetry: MessagePort): void {
    api.stop();
    const scheduler = new RealScheduler(originMs - performance.timeOrigin);
    const batcher = new TelemetryBatcher(telemetry, 50);
    const nodes = new Map<number, MessagePort>();
    // only this worker holds the cluster's truth: it watches the availability invariant and sends its report with each view
    const availability = new AvailabilitySink();
    const live = new LiveControl(config, seed, scheduler, teeSink([batcher, availability]), {
      toNode: (node, msg: ControlToNode) => nodes.get(node)?.postMessage(msg),
      clusterView: (view) => {
        const report = availability.reportAt(view.t);
        telemetry.postMessage({ kind: 'clusterView', view: report === null ? view : { ...view, availability: report } } satisfies TelemetryMessage);
      },
    });
    availability.watchCluster(live.state);
    session = { live, batcher, nodes };
    batcher.start();
    live.start();
  },
  /** registers a node worker's control port (initial nodes, scale-out, restart) */
  addNode(id: number, port: MessagePort): void {
    const s = session;
    if (s === null) return;
    s.nodes.get(id)?.close();
    s.nodes.set(id, port);
    port.onmessage = (ev: MessageEvent<NodeToControl>) => s.live.fromNode(id, ev.data);
    s.live.nodeLinked(id);
  },
  /** carries out a fault (the bridge has already killed / started workers where needed) */
  /** applies `cmd`; the time it took effect (null: no session) */
  fault(cmd: FaultCommand): number | null {
    return session?.live.fault(cmd) ?? null;
  },
  /** key → version the cluster holds now (for the final-state check of acknowledged writes) */
  clusterVersions(): Promise<Map<string, number>> {
    const s = session;
    if (s === null) return Promise.resolve(new Map());
    return new Promise((resolve) => s.live.clusterVersions(resolve));
  },
  /** number of members the control plane knows (scale-out assigns the next id) */
  nodeCount(): number {
    return session?.live.nodeCount() ?? 0;
  },
  stop(): void {
    if (session === null) return;
    session.live.stop();
    session.batcher.stop();
    for (const p of session.nodes.values()) p.close();
    session = null;
  },
};

export type ControlWorkerApi = typeof api;
Comlink.expose(api);
