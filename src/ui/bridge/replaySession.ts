/**
 * The bridge to the replay worker: a scenario runs deterministically in the
 * simulation engine inside a worker; play / pause / step / speed / seek move
 * one time cursor. Batches and views arrive exactly as from a live session,
 * plus a reset (before a re-run from the start) and the cursor status.
 */
import * as Comlink from 'comlink';
import type { Scenario } from '../../core/sim/scenario';
import type { RunSummary } from '../../core/sim/runScenario';
import type { ReplayMessage, ReplayStatus, ReplayWorkerApi } from '../../../workers/replay.worker';
import type { SessionListener } from './types';

export type { ReplayStatus };

export interface ReplayListener extends SessionListener {
  /** a re-run from the start begins: forget what the panels show */
  onReset(): void;
  onStatus(status: ReplayStatus): void;
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

  private dispatch(m: ReplayMessage): void {
    switch (m.kind) {
      case 'batch':
        return this.listener.onBatch(m.batch);
      case 'clusterView':
        return this.listener.onClusterView(m.view);
      case 'clientView':
        return this.listener.onClientView(m.view);
      case 'replayStatus':
        return this.listener.onStatus(m.status);
      case 'replayReset':
        return this.listener.onReset();
      case 'writeAudit':
        return this.listener.onWriteAudit?.(m.audit);
      case 'error':
        return this.listener.onError(m.message);
    }
  }

  /** loads a scenario at cursor 0, paused (each load gets a fresh port, so nothing of the previous run arrives late) */
  async load(scenario: Scenario): Promise<void> {
    this.port?.close();
    const ch = new MessageChannel();
    ch.port1.onmessage = (ev: MessageEvent<ReplayMessage>) => this.dispatch(ev.data);
    this.port = ch.port1;
    this.listener.onReset();
    await this.api.load(scenario, Comlink.transfer(ch.port2, [ch.port2]));
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
