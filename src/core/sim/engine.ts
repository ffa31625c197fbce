/**
 * The deterministic simulation engine: the real ZarisClient against the
 * simulated cluster on virtual time, driven by the workload and the fault
 * schedule, streaming SPEC §9 events to sinks. Same scenario + seed ⇒ the
 * same event stream, bit for bit.
 */
import { ZarisClient } from '../client/ZarisClient';
import type { ControlState } from '../cluster/controlState';
import type { FaultCommand } from '../cluster/faults';
import { Rng } from '../rng';
import { teeSink, type TelemetrySink } from '../telemetry/events';
import type { SimClock } from '../time/simClock';
import { VirtualScheduler } from '../time/virtualScheduler';
import { mergeClientConfig } from '../client/config';
import type { ConfigChange, Scenario } from './scenario';
import { mergeWorkload } from './workloadConfig';
import { SimCluster } from './simCluster';
import { SimControl } from './simControl';
import { SimNetwork } from './simNetwork';
import { Workload } from './workload';
import { ApplyTracker } from './applyTracker';

export interface EngineOptions {
  /** overrides the scenario's seed */
  readonly seed?: number;
  readonly sinks?: readonly TelemetrySink[];
  /** track duplicate applies (default: on when there are sinks) */
  readonly trackApplies?: boolean;
  /** the clock to run on (default: a fresh {@link VirtualScheduler}, exact float times) */
  readonly clock?: SimClock;
}

export class SimEngine {
  readonly scheduler: SimClock;
  /** the simulated nodes: the control plane's record, and each node's data, queue, link and fences */
  readonly cluster: SimCluster;
  /** the control plane's record (owners, replicas, phases, members, epoch) */
  readonly state: ControlState;
  readonly control: SimControl;
  readonly network: SimNetwork;
  readonly client: ZarisClient;
  readonly workload: Workload;
  readonly seed: number;
  /** the ambiguous-write audit: applies vs answers (null when not tracked) */
  readonly applies: ApplyTracker | null;
  private started = false;

  constructor(
    readonly scenario: Scenario,
    options: EngineOptions = {},
  ) {
    this.seed = options.seed ?? scenario.seed;
    this.scheduler = options.clock ?? new VirtualScheduler();
    const root = Rng.seeded(this.seed);
    this.applies = options.trackApplies ?? (options.sinks ?? []).length > 0 ? new ApplyTracker() : null;
    const sinks = [...(options.sinks ?? []), ...(this.applies ? [this.applies] : [])];
    const sink = sinks.length === 0 ? undefined : sinks.length === 1 ? sinks[0] : teeSink(sinks);
    this.cluster = new SimCluster(scenario.cluster);
    this.state = this.cluster.control;
    this.control = new SimControl(this.cluster, this.scheduler, root.stream(2), sink);
    const applies = this.applies;
    this.network = new SimNetwork(
      this.cluster,
      this.scheduler,
      root.stream(1),
      (segment, replica) => this.control.replicaLost(segment, replica),
      applies ? (op) => applies.onApply(op) : undefined,
    );
    this.client = new ZarisClient({
      scheduler: this.scheduler,
      transport: this.network,
      seedNodes: this.state.members(),
      segmentCount: scenario.cluster.segments,
      config: scenario.client,
      ...(sink ? { sink } : {}),
    });
    this.workload = new Workload(scenario.workload, this.client, this.scheduler, root.stream(3));
    if (applies) this.workload.onCasConflict = (op, own) => applies.onCasConflict(op, own);
  }

  /** schedules the faults, connects the client and starts the workload at t = 0 */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.control.announce();
    for (const f of this.scenario.faults) {
      this.scheduler.at(f.atMs, () => this.control.apply(f));
    }
    for (const c of this.scenario.changes) {
      this.scheduler.at(c.atMs, () => this.change(c));
    }
    this.scheduler.at(this.scenario.durationMs, () => this.workload.stop());
    this.client.connect(() => this.workload.start());
  }

  /** applies a scheduled configuration change now */
  change(c: ConfigChange): void {
    if (c.client !== undefined) this.client.configure(mergeClientConfig(this.client.config, c.client));
    if (c.workload !== undefined) this.workload.reconfigure(mergeWorkload(this.workload.config, c.workload));
    if (c.paused === true) this.workload.pause();
    if (c.paused === false) this.workload.resume();
  }

  /** applies a fault now (live replays of recorded button presses) */
  inject(fault: FaultCommand): void {
    this.control.apply(fault);
  }

  /** virtual ms since the start */
  get now(): number {
    return this.scheduler.now();
  }

  get finished(): boolean {
    return this.scheduler.now() >= this.scenario.durationMs;
  }

  /** runs up to virtual time `t` (never past the end of the scenario) */
  runTo(t: number): void {
    this.start();
    this.scheduler.advanceTo(Math.min(t, this.scenario.durationMs));
  }

  /** runs the whole scenario, calling `onProgress` with the fraction done */
  run(onProgress?: (fraction: number) => void, slices = 100): void {
    this.start();
    const end = this.scenario.durationMs;
    if (onProgress === undefined) {
      this.scheduler.advanceTo(end);
      return;
    }
    for (let i = 1; i <= slices; i++) {
      this.scheduler.advanceTo((end * i) / slices);
      onProgress(i / slices);
    }
  }
}
