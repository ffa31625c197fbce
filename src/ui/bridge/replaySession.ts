/**
 * The bridge to the replay worker: a scenario runs once in the simulation
 * engine inside a worker and is indexed; play / pause / step / speed / seek
 * move one time cursor over the recording. The timeline's batches arrive
 * once per load (as from a live session); each move of the cursor brings a
 * frame (the store's snapshot and the views at that time). Compare records
 * runs by id and moves several with one cursor (`framesAt`).
 */
import * as Comlink from 'comlink';
import type { Scenario } from '../../core/sim/scenario';
import type { RunSummary } from '../../core/sim/runScenario';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import type { ReplayMessage, ReplayStatus, ReplayWorkerApi, RunInfo, SeekFrame } from '../../../workers/replay.worker';
import type { SessionListener } from './types';

export type { ReplayStatus, RunInfo, SeekFrame };

export interface ReplayListener extends SessionListener {
  /** a new run is being loaded: forget what the panels show */
  onReset(): void;
  onStatus(status: ReplayStatus): void;
  /** the recording's progress (0…1) while the engine runs */
  onProgress?(fraction: number): void;
  /** the run is recorded and indexed */
  onLoaded?(info: RunInfo): void;
  /** the state at the cursor (`computeMs`: wall ms the worker took to compute it) */
  onFrame?(frame: SeekFrame, status: ReplayStatus, computeMs: number): void;
}

/** one message from the replay worker, to the listener */
export function dispatchReplayMessage(listener: ReplayListener, m: ReplayMessage): void {
  switch (m.kind) {
    case 'batch':
      return listener.onBatch(m.batch);
    case 'clusterView':
      return listener.onClusterView(m.view);
    case 'clientView':
      return listener.onClientView(m.view);
    case 'replayStatus':
      return listener.onStatus(m.status);
    case 'replayReset':
      return listener.onReset();
    case 'replayProgress':
      return listener.onProgress?.(m.fraction);
    case 'replayLoaded':
      return listener.onLoaded?.(m.info);
    case 'replayFrame':
      return listener.onFrame?.(m.frame, m.status, m.computeMs);
    case 'error':
      return listener.onError(m.message);
  }
}

export class ReplaySession {
  private readonly worker: Worker;
  private readonly api: Comlink.Remote<ReplayWorkerApi>;
  private port: MessagePort | null = null;

  constructor(private readonly listener: ReplayListener) {
    this.worker = new Worker(new URL('../../../workers/replay.worker.ts', import.meta.url), { type: 'module', name: 'replay' });
    this.worker.onerror = (e) => listener.onError(`replay worker error: ${e.message}`);
    this.api = Comlink.wrap<ReplayWorkerApi>(this.worker);
  }

  private freshPort(): MessagePort {
    this.port?.close();
    const ch = new MessageChannel();
    ch.port1.onmessage = (ev: MessageEvent<ReplayMessage>) => dispatchReplayMessage(this.listener, ev.data);
    this.port = ch.port1;
    this.listener.onReset();
    return ch.port2;
  }

  /** records a scenario once and puts the cursor at 0, paused (each load gets a fresh port, so nothing of the previous run arrives late) */
  async load(scenario: Scenario): Promise<void> {
    const port = this.freshPort();
    await this.api.load(scenario, Comlink.transfer(port, [port]));
  }

  /** an imported event log (`scenario` names it and configures the checker), in time order */
  async loadBatches(scenario: Scenario, batches: readonly EventBatch[]): Promise<void> {
    const port = this.freshPort();
    await this.api.loadBatches(scenario, batches, Comlink.transfer(port, [port]));
  }

  /** Compare: records a run kept in the worker by id */
  record(scenario: Scenario): Promise<RunInfo> {
    return this.api.record(scenario);
  }
  /** recorded runs at one time (one cursor for several runs) */
  framesAt(ids: readonly number[], t: number): Promise<SeekFrame[]> {
    return this.api.framesAt(ids, t);
  }
  release(id: number): Promise<void> {
    return this.api.release(id);
  }

  play(speed: number): Promise<void> {
    return this.api.play(speed);
  }
  pause(): Promise<void> {
    return this.api.pause();
  }
  step(ms = 100): Promise<void> {
    return this.api.step(ms);
  }
  seek(t: number): Promise<void> {
    return this.api.seek(t);
  }
  exportNdjson(): Promise<string> {
    return this.api.exportNdjson();
  }
  exportTrace(): Promise<string> {
    return this.api.exportTrace();
  }
  summarize(scenario: Scenario): Promise<RunSummary> {
    return this.api.summarize(scenario);
  }
  dispose(): void {
    this.worker.terminate();
    this.port?.close();
  }
}
