/**
 * The replay view's engine room, framework-free: one source at a time (a
 * scenario in the replay worker, or an imported event log on the main
 * thread) feeding a second dashboard store and the timeline feed, with one
 * time cursor. Load errors are shown and never replace the current run.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { loadScenario, parseScenarioText, type Scenario } from '../../core/sim/scenario';
import { assertNdjsonSize, NDJSON_MAX_BYTES, parseNdjson } from '../../core/telemetry/eventSchema';
import type { ReplayListener, ReplaySession, ReplayStatus } from '../bridge/replaySession';
import type { RunIdentity } from '../export/caption';
import type { DashboardStore } from '../store/dashboardStore';
import { TimelineFeed } from '../timeline/timelineFeed';
import { EventLogPlayer, type ReplaySource } from './eventLogPlayer';
import { latestOnly } from './latest';

/** what is loaded */
export interface ReplayRun {
  readonly identity: RunIdentity;
  /** null for an imported events file */
  readonly scenario: Scenario | null;
  readonly presetId: string | null;
  readonly kind: 'scenario' | 'events';
}

export interface ReplayUiState {
  readonly run: ReplayRun | null;
  readonly status: ReplayStatus;
  /** the chosen speed (0 = max) */
  readonly speed: number;
  /** what is being loaded, null when idle */
  readonly loading: string | null;
  /** the last load / import error (the current run is kept) */
  readonly error: string | null;
}

export type ReplaySessionLike = Pick<ReplaySession, 'load' | 'play' | 'pause' | 'step' | 'seek' | 'exportNdjson' | 'exportTrace' | 'dispose'>;
export type SessionFactory = (listener: ReplayListener) => ReplaySessionLike;

/** what a file turned out to be */
export type FileContent = { readonly kind: 'scenario'; readonly scenario: Scenario; readonly name: string } | { readonly kind: 'events'; readonly name: string };

const IDLE: ReplayStatus = { cursorMs: 0, durationMs: 0, playing: false, speed: 1, generation: 0 };
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const nextFrame = (): Promise<void> => new Promise((r) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(r, 0)) : setTimeout(r, 0)));

/** an events file's lines look like events (`{"t":…,"type":…}`) */
export function looksLikeEvents(name: string, head: string): boolean {
  if (/\.(ndjson|jsonl)$/i.test(name)) return true;
  if (/\.json$/i.test(name)) return false;
  const first = head.split('\n').find((l) => l.trim() !== '') ?? '';
  return /^\s*\{\s*"t"\s*:/.test(first) || /"type"\s*:\s*"(op|attempt|refresh|fault|topology)/.test(first);
}

export function scenarioIdentity(s: Scenario, source: string): RunIdentity {
  return { scenario: s.name, seed: s.seed, nodes: s.cluster.nodes, segments: s.cluster.segments, client: s.client, source };
}

export class ReplayController {
  readonly ui: StoreApi<ReplayUiState> = createStore<ReplayUiState>()(() => ({ run: null, status: IDLE, speed: 1, loading: null, error: null }));
  readonly feed = new TimelineFeed();
  private session: ReplaySessionLike | null = null;
  private source: ReplaySource | null = null;
  /** which source the listeners currently serve (stale ones are ignored) */
  private active = 0;
  private nextTag = 1;
  private token = 0;
  /** the scenario the dashboard store's session is labelled with */
  private storeScenario: Scenario | null = null;
  readonly seek: (t: number) => Promise<void>;

  constructor(
    readonly dashboard: DashboardStore,
    private readonly makeSession: SessionFactory,
  ) {
    this.seek = latestOnly((t: number) => this.source?.seek(t) ?? Promise.resolve());
  }

  private listenerFor(tag: number, durationMs: () => number): ReplayListener {
    const live = () => this.active === tag;
    const d = () => this.dashboard.getState();
    return {
      onReset: () => {
        if (!live() || this.storeScenario === null) return;
        d().beginSession(this.storeScenario, this.ui.getState().run?.presetId ?? '');
        this.feed.reset(durationMs());
      },
      onBatch: (b) => {
        if (!live()) return;
        d().ingestBatch(b);
        this.feed.ingestBatch(b);
      },
      onClusterView: (v) => live() && d().setClusterView(v),
      onWriteAudit: (a) => live() && d().setWriteAudit(a),
      onClientView: (v) => live() && d().setClientView(v),
      onStatus: (status) => {
        if (!live()) return;
        this.ui.setState({ status });
        if (!status.playing) d().publish();
      },
      onError: (m) => live() && this.ui.setState({ error: m }),
    };
  }

  /** stops the current source: the worker session is paused (and reused), a player is dropped */
  private releaseSource(): void {
    if (this.source === null) return;
    if (this.source === this.session) void this.session.pause().catch(() => undefined);
    else this.source.dispose();
    this.source = null;
  }

  /** the worker session (one per view, reused across loads) */
  private workerSession(): ReplaySessionLike {
    if (this.session === null) this.session = this.makeSession(this.listenerFor(-1, () => this.storeScenario?.durationMs ?? 0));
    return this.session;
  }

  /** runs `scenario` in the worker and puts the cursor at `cursorMs` (default: the end) */
  async loadScenario(scenario: Scenario, source: string, presetId: string | null, cursorMs?: number): Promise<void> {
    const token = ++this.token;
    this.releaseSource();
    this.ui.setState({ loading: `Running ${scenario.name} (seed ${scenario.seed})…`, error: null, run: { identity: scenarioIdentity(scenario, source), scenario, presetId, kind: 'scenario' } });
    this.storeScenario = scenario;
    this.active = -1;
    const session = this.workerSession();
    this.source = session;
    try {
      await session.load(scenario);
      if (token !== this.token) return;
      await this.seek(Math.min(scenario.durationMs, Math.max(0, cursorMs ?? scenario.durationMs)));
    } catch (e) {
      if (token === this.token) this.ui.setState({ error: `replay of ${scenario.name} failed: ${message(e)}` });
    } finally {
      if (token === this.token) this.ui.setState({ loading: null });
    }
  }

  /** reads a dropped / picked file: a scenario comes back to the caller; an events log is loaded here */
  async readFile(file: File): Promise<FileContent | null> {
    this.ui.setState({ error: null });
    try {
      assertNdjsonSize(file.size, NDJSON_MAX_BYTES, file.name);
    } catch (e) {
      this.ui.setState({ error: message(e) });
      return null;
    }
    this.ui.setState({ loading: `Reading ${file.name}…` });
    await nextFrame();
    try {
      const text = await file.text();
      if (looksLikeEvents(file.name, text.slice(0, 4096))) {
        this.loadEventsText(text, file.name);
        return { kind: 'events', name: file.name };
      }
      return { kind: 'scenario', scenario: parseScenarioText(text, file.name), name: file.name };
    } catch (e) {
      this.ui.setState({ error: message(e) });
      return null;
    } finally {
      this.ui.setState({ loading: null });
    }
  }

  /** parses an event log (throws an InputError naming line and field; nothing changes then) and replays it */
  loadEventsText(text: string, name: string): void {
    const events = parseNdjson(text, { source: name });
    if (events.length === 0) throw new Error(`${name}: no events in the file`);
    this.token++;
    this.releaseSource();
    const tag = this.nextTag++;
    this.active = tag;
    const last = events[events.length - 1];
    const durationMs = Math.max(1, Math.ceil(last?.t ?? 1));
    this.storeScenario = loadScenario({ name: name.slice(0, 200), seed: 0, durationMs, description: 'imported events file: seed and configuration unknown' }, name);
    this.ui.setState({
      run: { identity: { scenario: name, seed: null, nodes: null, segments: null, client: null, source: 'events file' }, scenario: null, presetId: null, kind: 'events' },
    });
    const player = new EventLogPlayer(events, this.listenerFor(tag, () => durationMs), { scenario: name });
    this.source = player;
    player.load();
    void this.seek(durationMs);
  }

  async play(): Promise<void> {
    const { status, speed } = this.ui.getState();
    if (this.source === null) return;
    if (status.cursorMs >= status.durationMs - 1) await this.seek(0);
    await this.source.play(speed);
  }

  async pause(): Promise<void> {
    await this.source?.pause();
  }

  async togglePlay(): Promise<void> {
    return this.ui.getState().status.playing ? this.pause() : this.play();
  }

  async step(ms: number): Promise<void> {
    if (this.ui.getState().status.playing) await this.pause();
    await this.source?.step(ms);
  }

  async setSpeed(speed: number): Promise<void> {
    this.ui.setState({ speed });
    if (this.ui.getState().status.playing) await this.source?.play(speed);
  }

  exportNdjson(): Promise<string> {
    return this.source?.exportNdjson() ?? Promise.resolve('');
  }

  exportTrace(): Promise<string> {
    return this.source?.exportTrace() ?? Promise.resolve('');
  }

  clearError(): void {
    this.ui.setState({ error: null });
  }

  dispose(): void {
    this.token++;
    if (this.source !== this.session) this.source?.dispose();
    this.session?.dispose();
    this.session = null;
    this.source = null;
  }
}
