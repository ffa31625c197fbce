/**
 * The contract between the playground's workers (behind the bridge) and the
 * UI (store, panels, controls). Panels never talk to workers: the bridge
 * pushes batches and views into the store, controls call these methods.
 */
import type { ClientConfig } from '../../core/client/config';
import type { ClientView, ClusterView } from '../../core/cluster/views';
import type { FaultCommand } from '../../core/cluster/faults';
import type { Scenario } from '../../core/sim/scenario';
import type { WriteAuditReport } from '../../core/sim/applyTracker';
import type { WorkloadConfig } from '../../core/sim/workloadConfig';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import type { FaultAction } from '../../core/telemetry/events';

export type { ClusterView, ClientView };

/** Everything the UI hears from a running session. */
export interface SessionListener {
  onBatch(batch: EventBatch): void;
  onClusterView(view: ClusterView): void;
  onClientView(view: ClientView): void;
  onError(message: string): void;
  /** the cluster's data (key → version held) for the final-state check of writes acknowledged up to `asOfMs` (live, on Pause) */
  onClusterVersions?(asOfMs: number, versions: ReadonlyMap<string, number>): void;
  /** the ambiguous-write audit: the engine's (replay), or the live client worker's against the nodes' apply notices */
  onWriteAudit(audit: WriteAuditReport): void;
}

/** What the UI can ask of a running playground session. */
export interface PlaygroundControls {
  /** faults this session's engine cannot do, with why (the buttons are disabled with that tooltip); absent: it can do all */
  readonly unsupportedFaults?: Readonly<Partial<Record<FaultAction, string>>>;
  /** starts (or resumes) the workload; resolves with the session time (ms) it started at, where the session keeps one */
  start(): Promise<number | void>;
  /** pauses the workload (the cluster keeps running); resolves with the session time (ms) it stopped at, where the session keeps one */
  pause(): Promise<number | void>;
  /** applies a validated client configuration to operations started from now on */
  configureClient(config: ClientConfig): Promise<void>;
  /** replaces the workload (concurrency, rate, keys, mix) */
  setWorkload(workload: WorkloadConfig): Promise<void>;
  /** a fault button: failover, scaleOut, failback, hang, resume, slow, lostAck */
  fault(command: FaultCommand): Promise<void>;
  /** tears the session down and starts a new one for this scenario (its faults fire in real time) */
  loadScenario(scenario: Scenario): Promise<void>;
  /** stops every worker */
  dispose(): void;
}
