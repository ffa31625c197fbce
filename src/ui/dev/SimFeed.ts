/**
 * A development / test session: implements {@link PlaygroundControls} by
 * running the headless SimEngine on the main thread in paced slices —
 * every `tickMs` the engine advances virtual time by the real time elapsed
 * (capped, so a busy or backgrounded tab slows the simulation instead of
 * freezing it) — and pushes event batches and map views into a
 * {@link SessionListener}, exactly as the live worker bridge does.
 */
import type { ClientConfig } from '../../core/client/config';
import type { FaultCommand } from '../../core/cluster/faults';
import { Rng } from '../../core/rng';
import { SimEngine } from '../../core/sim/engine';
import type { Scenario } from '../../core/sim/scenario';
import { Workload } from '../../core/sim/workload';
import type { WorkloadConfig } from '../../core/sim/workloadConfig';
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import type { ClientView, ClusterView, PlaygroundControls, SessionListener } from '../bridge/types';

export interface SimFeedOptions {
  /** real ms between slices */
  readonly tickMs?: number;
  /** most virtual ms one slice may advance */
  readonly maxSliceMs?: number;
  /** virtual ms between map views (also sent on every epoch change) */
  readonly viewEveryMs?: number;
  /** real clock, ms (tests inject one) */
  readonly now?: () => number;
}

/** a live session runs until it is replaced (scenarios' own durations are for headless runs) */
const LIVE_DURATION_MS = 3_600_000;

export function clusterViewOf(engine: SimEngine): ClusterView {
  const st = engine.state;
  return {
    t: engine.now,
    epoch: st.epoch,
    nodes: st.nodes.map((n) => ({ id: n.id, status: n.status, declaredDead: n.declaredDead })),
    owners: st.segments.map((s) => s.owner),
    phases: st.segments.map((s) => s.phase),
    replicas: st.segments.map((s) => [...s.replicas]),
  };
}

export function clientViewOf(engine: SimEngine): ClientView {
  const m = engine.client.map;
  return { t: engine.now, epoch: m.epoch, owners: [...m.owners] };
}

export class SimFeed implements PlaygroundControls {
  private engine: SimEngine | null = null;
  private scenario: Scenario | null = null;
  private workload: Workload | null = null;
  private readonly builder = new EventBatchBuilder(8192);
  private timer: ReturnType<typeof setInterval> | null = null;
  private started = false;
  private running = false;
  private lastReal = 0;
  private lastViewAt = -Infinity;
  private lastEpochs = '';
  private workloads = 0;
  private readonly tickMs: number;
  private readonly maxSliceMs: number;
  private readonly viewEveryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly listener: SessionListener,
    options: SimFeedOptions = {},
  ) {
    this.tickMs = options.tickMs ?? 50;
    this.maxSliceMs = options.maxSliceMs ?? 200;
    this.viewEveryMs = options.viewEveryMs ?? 250;
    this.now = options.now ?? (() => performance.now());
  }

  /** virtual ms since the session started */
  get virtualNow(): number {
    return this.engine?.now ?? 0;
  }

  async loadScenario(scenario: Scenario): Promise<void> {
    this.stopTimer();
    this.builder.take(); // events of the previous session stay with it
    this.scenario = { ...scenario, durationMs: LIVE_DURATION_MS };
    this.engine = this.newEngine(this.scenario);
    this.workload = null;
    this.started = false;
    this.lastViewAt = -Infinity;
    this.lastEpochs = '';
    this.sendViews();
    if (this.running) await this.start();
  }

  async start(): Promise<void> {
    const engine = this.need();
    if (!this.started) {
      this.begin(engine);
    } else if (!this.running) {
      this.workload = this.newWorkload(engine, this.need('scenario').workload);
      this.workload.start();
    }
    this.running = true;
  }

  async pause(): Promise<void> {
    this.workload?.stop();
    this.running = false;
  }

  async configureClient(config: ClientConfig): Promise<void> {
    this.need().client.configure(config);
    this.scenario = { ...this.need('scenario'), client: config };
  }

  async setWorkload(workload: WorkloadConfig): Promise<void> {
    const scenario = { ...this.need('scenario'), workload };
    this.scenario = scenario;
    if (!this.started) {
      this.engine = this.newEngine(scenario);
      return;
    }
    this.workload?.stop();
    this.workload = this.newWorkload(this.need(), workload);
    if (this.running) this.workload.start();
  }

  async fault(command: FaultCommand): Promise<void> {
    const engine = this.need();
    if (!this.started) {
      // faults before Start: the cluster's clock starts, the workload stays idle
      this.begin(engine);
      this.workload?.stop();
    }
    engine.inject(command);
    this.flush();
  }

  dispose(): void {
    this.stopTimer();
    this.engine = null;
    this.running = false;
  }

  /** advances one slice: virtual time by the real time elapsed since the last slice (capped) */
  tick(): void {
    const engine = this.engine;
    if (engine === null) return;
    const real = this.now();
    const dt = Math.min(Math.max(0, real - this.lastReal), this.maxSliceMs);
    this.lastReal = real;
    engine.runTo(engine.now + dt);
    this.flush();
  }

  private flush(): void {
    const engine = this.engine;
    if (engine === null) return;
    if (this.builder.length > 0) this.listener.onBatch(this.builder.take());
    const epochs = `${engine.state.epoch}/${engine.client.map.epoch}/${engine.state.nodes.map((n) => n.status).join()}`;
    if (epochs !== this.lastEpochs || engine.now - this.lastViewAt >= this.viewEveryMs) this.sendViews();
  }

  private sendViews(): void {
    const engine = this.engine;
    if (engine === null) return;
    this.lastViewAt = engine.now;
    this.lastEpochs = `${engine.state.epoch}/${engine.client.map.epoch}/${engine.state.nodes.map((n) => n.status).join()}`;
    this.listener.onClusterView(clusterViewOf(engine));
    this.listener.onClientView(clientViewOf(engine));
  }

  private begin(engine: SimEngine): void {
    engine.start();
    this.started = true;
    this.workload = engine.workload;
    this.lastReal = this.now();
    if (this.timer === null && typeof setInterval === 'function') {
      this.timer = setInterval(() => this.safeTick(), this.tickMs);
    }
  }

  private safeTick(): void {
    try {
      this.tick();
    } catch (e) {
      this.stopTimer();
      this.listener.onError(`simulation stopped: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private newEngine(scenario: Scenario): SimEngine {
    return new SimEngine(scenario, { sinks: [{ emit: (e) => this.builder.push(e) }], trackApplies: false });
  }

  private newWorkload(engine: SimEngine, config: WorkloadConfig): Workload {
    return new Workload(config, engine.client, engine.scheduler, Rng.seeded(engine.seed).stream(10_000 + ++this.workloads));
  }

  private stopTimer(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private need(): SimEngine;
  private need(what: 'scenario'): Scenario;
  private need(what?: 'scenario'): SimEngine | Scenario {
    const v = what === 'scenario' ? this.scenario : this.engine;
    if (v === null) throw new Error('no session: load a scenario first');
    return v;
  }
}
