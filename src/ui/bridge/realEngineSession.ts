/**
 * The second implementation of the live session (types.ts): the dashboard on
 * a real Redis Cluster of this machine, run by the server's real-engine
 * bridge (src/server/realEngine/) over one WebSocket. Batches arrive as
 * binary frames in the same columnar form the browser's workers send, and go
 * to the same listener, so every panel, the recording and "Save as scenario"
 * work unchanged. The page says only which preset to run, Start/Pause and
 * which fault on which node; the bridge validates each message.
 */
import type { ClientConfig } from '../../core/client/config';
import type { FaultCommand } from '../../core/cluster/faults';
import { PRESETS } from '../../core/sim/presets';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import type { FaultAction } from '../../core/telemetry/events';
import type { WorkloadConfig } from '../../core/sim/workloadConfig';
import { decodeBatch, REAL_ENGINE_PATH, type BridgeMessage, type EnginePhase, type PageMessage, type RealEngineStatus } from '../../platform/realEngineProtocol';
import type { PlaygroundControls, SessionListener } from './types';

/** the preset a scenario is (the real engine runs presets only: the page never sends a scenario) */
export function presetIdOf(scenario: Scenario): string | null {
  for (const p of PRESETS) {
    try {
      if (loadScenario(p.input, `preset ${p.id}`).name === scenario.name) return p.id;
    } catch {
      /* a preset that does not load is no match */
    }
  }
  return null;
}

/** faults the engine cannot do → why, from the bridge's status */
export function unsupportedFaultsOf(status: RealEngineStatus): Partial<Record<FaultAction, string>> {
  return Object.fromEntries(status.unsupported.map((u) => [u.action, `Not on the real engine: ${u.reason}`]));
}

type Pending = { readonly resolve: () => void; readonly reject: (e: Error) => void };
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface RealEngineOptions {
  readonly token: string;
  readonly status: RealEngineStatus;
  /** the engine's progress ("cluster up …", "running"), for the engine choice */
  readonly onPhase?: (phase: EnginePhase, detail: string) => void;
}

export class RealEngineSession implements PlaygroundControls {
  readonly unsupportedFaults: Partial<Record<FaultAction, string>>;
  private ws: WebSocket | null = null;
  private opened: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private started = false;
  private preset: string | null;
  private disposed = false;

  constructor(
    private readonly listener: SessionListener,
    scenario: Scenario,
    private readonly options: RealEngineOptions,
  ) {
    this.unsupportedFaults = unsupportedFaultsOf(options.status);
    this.preset = presetIdOf(scenario);
    this.connect();
  }

  private connect(): void {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}${REAL_ENGINE_PATH}?token=${encodeURIComponent(this.options.token)}`);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    this.started = false;
    this.opened = new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error('could not connect to the real-engine bridge (one session at a time: close the other tab)'));
    });
    this.opened.catch(() => undefined);
    ws.onmessage = (ev: MessageEvent<ArrayBuffer | string>) => {
      if (typeof ev.data !== 'string') {
        this.listener.onBatch(decodeBatch(new Uint8Array(ev.data)));
        return;
      }
      this.onMessage(JSON.parse(ev.data) as BridgeMessage);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pending.values()) p.reject(new Error(`the real-engine bridge closed (${ev.reason || ev.code})`));
      this.pending.clear();
      if (!this.disposed && this.started) this.listener.onError(`the real engine's session ended (${ev.reason || `code ${ev.code}`}); every redis-server it started was stopped`);
    };
  }

  private onMessage(m: BridgeMessage): void {
    switch (m.kind) {
      case 'done': {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.error === undefined) p?.resolve();
        else p?.reject(new Error(m.error));
        return;
      }
      case 'phase':
        this.options.onPhase?.(m.phase, m.detail ?? '');
        return;
      case 'clusterView':
        this.listener.onClusterView(m.view);
        return;
      case 'clientView':
        this.listener.onClientView(m.view);
        return;
      case 'error':
        this.listener.onError(m.message);
        return;
    }
  }

  private async call(message: WithoutId<PageMessage>): Promise<void> {
    await this.opened;
    const ws = this.ws;
    if (ws === null || ws.readyState !== WebSocket.OPEN) throw new Error('the real-engine bridge is not connected');
    const id = this.nextId++;
    const done = new Promise<void>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    ws.send(JSON.stringify({ ...message, id }));
    return done;
  }

  async start(): Promise<void> {
    if (this.started) return this.call({ type: 'resume' });
    if (this.preset === null) throw new Error('the real engine runs the presets only: pick one');
    await this.call({ type: 'start', preset: this.preset });
    this.started = true;
  }

  async pause(): Promise<void> {
    if (!this.started) return;
    await this.call({ type: 'pause' });
  }

  async configureClient(_config: ClientConfig): Promise<void> {
    throw new Error("the real engine keeps the preset's client settings (change them in the simulated engine)");
  }

  async setWorkload(_workload: WorkloadConfig): Promise<void> {
    throw new Error("the real engine keeps the preset's workload (change it in the simulated engine)");
  }

  async fault(cmd: FaultCommand): Promise<void> {
    const why = this.unsupportedFaults[cmd.action];
    if (why !== undefined) throw new Error(why);
    await this.call(cmd.node === undefined ? { type: 'fault', action: cmd.action } : { type: 'fault', action: cmd.action, node: cmd.node });
  }

  /** ends this cluster (the bridge stops its servers) and connects anew for `scenario` */
  async loadScenario(scenario: Scenario): Promise<void> {
    this.preset = presetIdOf(scenario);
    await this.closeSocket();
    if (this.disposed) return;
    this.connect();
    await this.opened;
  }

  private closeSocket(): Promise<void> {
    const ws = this.ws;
    if (ws === null || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    this.ws = null;
    for (const p of this.pending.values()) p.reject(new Error('the session was replaced'));
    this.pending.clear();
    return new Promise<void>((resolve) => {
      ws.addEventListener('close', () => resolve());
      ws.close(1000, 'new session');
    });
  }

  dispose(): void {
    this.disposed = true;
    void this.closeSocket();
  }
}
