/**
 * The bridge to the live playground: owns the workers' lifecycle (one per
 * node, one for the client, one for the control plane), wires their direct
 * MessagePorts, turns fault buttons into real effects (Failover terminates a
 * node's worker; Scale out and Failback start one), and forwards telemetry
 * to the UI's SessionListener. The worker APIs are the workers' own exported
 * types, imported as types only.
 */
import { MAX_CLUSTER_NODES } from '../../core/cluster/clusterConfig';
import * as Comlink from 'comlink';
import type { ClientConfig } from '../../core/client/config';
import type { FaultCommand } from '../../core/cluster/faults';
import type { Scenario } from '../../core/sim/scenario';
import type { WorkloadConfig } from '../../core/sim/workloadConfig';
import type { TelemetryMessage } from '../../platform/workerProtocol';
import type { ClientWorkerApi } from '../../../workers/client.worker';
import type { ControlWorkerApi } from '../../../workers/control.worker';
import type { NodeWorkerApi } from '../../../workers/node.worker';
import type { PlaygroundControls, SessionListener } from './types';

interface NodeHandle {
  readonly worker: Worker;
  readonly api: Comlink.Remote<NodeWorkerApi>;
}

/** ms subtracted from the final-state check's cut-off: the workers' clocks agree to well within this */
const FINAL_CHECK_MARGIN_MS = 20;

const t = <T>(port: T & Transferable): T => Comlink.transfer(port, [port]);

export class LiveSession implements PlaygroundControls {
  private readonly nodes = new Map<number, NodeHandle>();
  private controlWorker!: Worker;
  private clientWorker!: Worker;
  private control!: Comlink.Remote<ControlWorkerApi>;
  private client!: Comlink.Remote<ClientWorkerApi>;
  private readonly telemetryPorts: MessagePort[] = [];
  private faultTimers: ReturnType<typeof setTimeout>[] = [];
  /**
   * The scenario's faults not fired yet, each with the workload time still to run before it
   * (ms). A preset's schedule is the run's script: it starts with the first Start (as a headless
   * run's faults count from its start, when its workload starts) and stands still while paused —
   * a fault fired before Start or during a pause hit nothing and read as harmless.
   */
  private pendingFaults: { readonly f: FaultCommand & { readonly atMs: number }; dueInMs: number }[] = [];
  /** session time the pending faults' timers were set at (null while they are not running) */
  private faultClockFrom: number | null = null;
  private originMs = 0;
  private booted: Promise<void>;
  private running = false;

  constructor(
    private readonly listener: SessionListener,
    private scenario: Scenario,
  ) {
    this.booted = this.boot();
    this.resetFaultSchedule();
  }

  private resetFaultSchedule(): void {
    this.stopFaultClock();
    this.pendingFaults = this.scenario.faults.map((f) => ({ f, dueInMs: f.atMs }));
  }

  /** runs the pending faults' clock from now (Start) */
  private startFaultClock(): void {
    if (this.faultClockFrom !== null) return;
    this.faultClockFrom = this.sessionNow();
    for (const p of this.pendingFaults) {
      this.faultTimers.push(
        setTimeout(() => {
          this.pendingFaults = this.pendingFaults.filter((q) => q !== p);
          void this.fault(p.f);
        }, Math.max(0, p.dueInMs)),
      );
    }
  }

  /** stops the pending faults' clock (Pause), keeping the time each still has to run */
  private stopFaultClock(): void {
    for (const timer of this.faultTimers) clearTimeout(timer);
    this.faultTimers = [];
    if (this.faultClockFrom === null) return;
    const ran = this.sessionNow() - this.faultClockFrom;
    for (const p of this.pendingFaults) p.dueInMs = Math.max(0, p.dueInMs - ran);
    this.faultClockFrom = null;
  }

  private telemetryChannel(): MessagePort {
    const ch = new MessageChannel();
    ch.port1.onmessage = (ev: MessageEvent<TelemetryMessage>) => {
      const m = ev.data;
      if (m.kind === 'batch') this.listener.onBatch(m.batch);
      else if (m.kind === 'clusterView') this.listener.onClusterView(m.view);
      else if (m.kind === 'clientView') this.listener.onClientView(m.view);
      else if (m.kind === 'writeAudit') this.listener.onWriteAudit(m.audit);
      else this.listener.onError(m.message);
    };
    this.telemetryPorts.push(ch.port1);
    return ch.port2;
  }

  private async boot(): Promise<void> {
    const sc = this.scenario;
    this.originMs = performance.timeOrigin + performance.now();
    this.controlWorker = new Worker(new URL('../../../workers/control.worker.ts', import.meta.url), { type: 'module', name: 'control' });
    this.clientWorker = new Worker(new URL('../../../workers/client.worker.ts', import.meta.url), { type: 'module', name: 'client' });
    for (const w of [this.controlWorker, this.clientWorker]) w.onerror = (e) => this.listener.onError(`worker error: ${e.message}`);
    this.control = Comlink.wrap<ControlWorkerApi>(this.controlWorker);
    this.client = Comlink.wrap<ClientWorkerApi>(this.clientWorker);
    await this.control.init(sc.cluster, sc.seed, this.originMs, t(this.telemetryChannel()));
    const ids = Array.from({ length: sc.cluster.nodes }, (_, i) => i);
    await this.client.init(
      { config: sc.client, workload: sc.workload, segments: sc.cluster.segments, nodes: ids, seed: sc.seed, originMs: this.originMs },
      t(this.telemetryChannel()),
    );
    for (const id of ids) await this.spawnNode(id);
  }

  /** starts a node worker with id `id` and wires it to the control plane, its peers and the client */
  private async spawnNode(id: number): Promise<void> {
    const worker = new Worker(new URL('../../../workers/node.worker.ts', import.meta.url), { type: 'module', name: `node-${id}` });
    worker.onerror = (e) => this.listener.onError(`node ${id} worker error: ${e.message}`);
    const api = Comlink.wrap<NodeWorkerApi>(worker);
    const toControl = new MessageChannel();
    await api.init(id, this.scenario.cluster, this.scenario.seed, t(toControl.port1));
    await this.control.addNode(id, t(toControl.port2));
    for (const [other, handle] of this.nodes) {
      if (other === id) continue;
      const ch = new MessageChannel();
      await api.addPeer(other, t(ch.port1));
      await handle.api.addPeer(id, t(ch.port2));
    }
    const toClient = new MessageChannel();
    await api.addClient(t(toClient.port1));
    await this.client.connectNode(id, t(toClient.port2));
    this.nodes.set(id, { worker, api });
  }

  private kill(id: number): boolean {
    const h = this.nodes.get(id);
    if (h === undefined) return false;
    h.worker.terminate(); // a real crash: the worker stops
    this.nodes.delete(id);
    // a crash resets the dead process's connections: the client and every peer hear of it at once
    void this.client.nodeGone(id);
    for (const other of this.nodes.values()) void other.api.peerGone(id);
    return true;
  }

  /** ms since the session started, on the clock the workers share (they were given `originMs`) */
  private sessionNow(): number {
    return performance.timeOrigin + performance.now() - this.originMs;
  }

  async start(): Promise<number> {
    await this.booted;
    this.running = true;
    const ok = await this.client.start();
    if (!ok) this.listener.onError('the client could not fetch a cluster map from any node');
    this.startFaultClock();
    return this.sessionNow();
  }

  async pause(): Promise<number> {
    await this.booted;
    this.running = false;
    this.stopFaultClock();
    await this.client.pause();
    const stoppedAt = this.sessionNow();
    await this.checkFinalState();
    return stoppedAt;
  }

  /**
   * The final-state check of acknowledged writes: the cluster's data now
   * (each segment's owner, or a down owner's disk), for the writes the
   * client saw acknowledged before the data was asked for (a margin covers
   * the workers' clocks; later acks may commit after the read).
   */
  private async checkFinalState(): Promise<void> {
    const asOfMs = this.sessionNow() - FINAL_CHECK_MARGIN_MS;
    const versions = await this.control.clusterVersions();
    this.listener.onClusterVersions?.(asOfMs, versions);
  }

  async configureClient(config: ClientConfig): Promise<void> {
    await this.booted;
    await this.client.configure(config);
  }

  async setWorkload(workload: WorkloadConfig): Promise<void> {
    await this.booted;
    await this.client.setWorkload(workload);
  }

  async fault(cmd: FaultCommand): Promise<void> {
    await this.booted;
    switch (cmd.action) {
      case 'failover':
        if (cmd.node !== undefined) this.kill(cmd.node);
        break;
      case 'scaleOut': {
        // at the node cap no worker starts; the control plane reports the scale-out as ignored
        const count = await this.control.nodeCount();
        if (count < MAX_CLUSTER_NODES) await this.spawnNode(count);
        break;
      }
      case 'failback': {
        const id = cmd.node ?? (await this.firstDeadNode());
        if (id === undefined) break;
        if (!this.nodes.has(id)) await this.spawnNode(id);
        await this.applyFault({ ...cmd, node: id });
        return;
      }
      default:
        break;
    }
    await this.applyFault(cmd);
  }

  /** the control plane applies `cmd`; the client's write audit then notes the ambiguous writes known before it (a fault card's span) */
  private async applyFault(cmd: FaultCommand): Promise<void> {
    const t = await this.control.fault(cmd);
    if (t !== null) await this.client.markFault(t);
  }

  private async firstDeadNode(): Promise<number | undefined> {
    const count = await this.control.nodeCount();
    for (let i = 0; i < count; i++) if (!this.nodes.has(i)) return i;
    return undefined;
  }

  async loadScenario(scenario: Scenario): Promise<void> {
    const wasRunning = this.running;
    this.dispose();
    this.scenario = scenario;
    this.booted = this.boot();
    this.resetFaultSchedule();
    await this.booted;
    if (wasRunning) await this.start();
  }

  dispose(): void {
    this.stopFaultClock();
    for (const id of [...this.nodes.keys()]) this.nodes.get(id)?.worker.terminate();
    this.nodes.clear();
    this.controlWorker?.terminate();
    this.clientWorker?.terminate();
    for (const p of this.telemetryPorts) p.close();
    this.telemetryPorts.length = 0;
    this.running = false;
  }
}
