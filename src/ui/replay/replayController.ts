/**
 * The replay view's engine room, framework-free: one recorded run at a time
 * in the replay worker (a scenario computed once, or an imported event log)
 * feeding a second dashboard store (a frame per cursor move) and the
 * timeline feed (the whole run once, shown as at the cursor). Load errors
 * are shown and never replace the current run.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { loadScenario, parseScenarioText, scheduleAt, type Scenario } from '../../core/sim/scenario';
import { assertNdjsonSize, NDJSON_MAX_BYTES, parseNdjson } from '../../core/telemetry/eventSchema';
import type { ZarisEvent } from '../../core/telemetry/events';
import type { ReplayListener, ReplaySession, ReplayStatus, RunInfo, SeekFrame } from '../bridge/replaySession';
import type { RunIdentity } from '../export/caption';
import type { DashboardStore } from '../store/dashboardStore';
import { TimelineFeed } from '../timeline/timelineFeed';
import { ColumnarLog } from './columnarLog';
import { importEvents } from './eventsImport';
import { latestOnly } from './latest';
import type { BudgetAtCursor } from './seekIndex';

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
  /** the recorded run (events, memory, whole-run verdict); null while recording */
  readonly info: RunInfo | null;
  /** over-budget operations at the cursor (the checker counts them only when they end) */
  readonly budget: BudgetAtCursor | null;
  /** wall ms from the last seek's call to its frame reaching the store (null before the first) */
  readonly lastSeekMs: number | null;
  /** wall ms the worker took to compute the last frame */
  readonly frameComputeMs: number | null;
  /** the cursor of the frame the store shows (the panels' time; lags the cursor while dragging) */
  readonly frameCursorMs: number | null;
}

export type ReplaySessionLike = Pick<ReplaySession, 'load' | 'loadBatches' | 'play' | 'pause' | 'step' | 'seek' | 'exportNdjson' | 'exportTrace' | 'dispose'>;
export type SessionFactory = (listener: ReplayListener) => ReplaySessionLike;

/** what a file turned out to be */
export type FileContent = { readonly kind: 'scenario'; readonly scenario: Scenario; readonly name: string } | { readonly kind: 'events'; readonly name: string };

const IDLE: ReplayStatus = { cursorMs: 0, durationMs: 0, playing: false, speed: 1, generation: 0 };
/** frames closer together than this (a drag) reach the panels once they rest; the timeline and the clock follow every one */
export const SETTLE_MS = 120;
/** ms a load waits for its first frame before it clears "loading" anyway */
const FIRST_FRAME_WAIT_MS = 10_000;
/** rows per batch handed to the worker for an imported log */
const IMPORT_CHUNK = 1 << 16;
const wallNow = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());
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
  readonly ui: StoreApi<ReplayUiState> = createStore<ReplayUiState>()(() => ({ run: null, status: IDLE, speed: 1, loading: null, error: null, info: null, budget: null, lastSeekMs: null, frameComputeMs: null, frameCursorMs: null }));
  readonly feed = new TimelineFeed();
  private session: ReplaySessionLike | null = null;
  /** a run is loaded in the worker */
  private loaded = false;
  private token = 0;
  /** the scenario the dashboard store's session is labelled with */
  private storeScenario: Scenario | null = null;
  /** the newest frame not yet in the store, and its timer */
  private pending: SeekFrame | null = null;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  private lastFrameAt = -Infinity;
  private pendingStatus: ReplayStatus | null = null;
  private statusFrame = false;
  private seekStartedAt: number | null = null;
  /** a load waits for its first frame to reach the store before it clears "loading" */
  private firstFrame: { readonly cursorMs: number; readonly shown: () => void } | null = null;
  readonly seek: (t: number) => Promise<void>;

  constructor(
    readonly dashboard: DashboardStore,
    private readonly makeSession: SessionFactory,
    private readonly now: () => number = wallNow,
  ) {
    this.seek = latestOnly((t: number) => {
      if (!this.loaded || this.session === null) return Promise.resolve();
      this.seekStartedAt = this.now();
      return this.session.seek(t);
    });
  }

  private listener(): ReplayListener {
    const d = () => this.dashboard.getState();
    return {
      onReset: () => {
        this.cancelPending();
        if (this.storeScenario !== null) d().beginSession(this.storeScenario, this.ui.getState().run?.presetId ?? '');
        this.feed.reset(this.storeScenario?.durationMs ?? 0);
        this.ui.setState({ info: null, budget: null });
      },
      // the whole run, once per load: the timeline shows it as at the cursor
      onBatch: (b) => this.feed.ingestBatch(b),
      onClusterView: (v) => d().setClusterView(v),
      onClientView: (v) => d().setClientView(v),
      onWriteAudit: () => undefined, // a replay's audit comes with each frame, at its cursor (onFrame)
      onStatus: (status) => this.onStatus(status),
      onProgress: (f) => {
        const run = this.ui.getState().run;
        if (run?.scenario) this.ui.setState({ loading: `Recording ${run.scenario.name} (seed ${run.scenario.seed}) once… ${Math.round(f * 100)} %` });
      },
      onLoaded: (info) => {
        this.feed.durationMs = info.durationMs;
        this.ui.setState({ info });
      },
      onFrame: (frame, status, computeMs) => this.onFrame(frame, status, computeMs),
      onError: (m) => this.ui.setState({ error: m }),
    };
  }

  /**
   * The cursor reaches the clock, the scrubber and the timeline once per
   * animation frame, whatever the rate of status messages: a message only
   * notes the newest status, so a busy main thread never builds a backlog
   * (a click on Pause is answered within a frame).
   */
  private onStatus(status: ReplayStatus): void {
    this.pendingStatus = status;
    if (this.statusFrame) return;
    this.statusFrame = true;
    const apply = () => {
      this.statusFrame = false;
      const st = this.pendingStatus;
      if (st === null) return;
      this.pendingStatus = null;
      this.ui.setState({ status: st });
      this.feed.setCursor(st.cursorMs);
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(apply);
    else apply();
  }

  /** the clock, the scrubber and the timeline follow every frame; the panels get it now, or once a drag rests */
  private onFrame(frame: SeekFrame, status: ReplayStatus, computeMs: number): void {
    const now = this.now();
    this.pendingStatus = null;
    this.ui.setState({ status, frameComputeMs: computeMs });
    this.feed.setCursor(frame.cursorMs);
    this.pending = frame;
    if (this.firstFrame !== null && frame.cursorMs === this.firstFrame.cursorMs) {
      // the frame a load waits for reaches the store at once: "loading" clears with the figures in place
      const { shown } = this.firstFrame;
      this.firstFrame = null;
      this.cancelPending();
      this.pending = frame;
      this.lastFrameAt = now;
      this.applyPending();
      shown();
      return;
    }
    const quick = now - this.lastFrameAt < SETTLE_MS && !status.playing;
    this.lastFrameAt = now;
    if (this.settleTimer !== null) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    if (quick) this.settleTimer = setTimeout(() => this.applyPending(), SETTLE_MS);
    else this.applyPending();
  }

  private applyPending(): void {
    this.settleTimer = null;
    const f = this.pending;
    if (f === null) return;
    this.pending = null;
    this.dashboard.getState().showFrame(f.snapshot, f.faults, f.clusterView, f.clientView, f.pauses);
    this.dashboard.getState().setWriteAudit(f.writeAudit);
    // the settings as recorded at the cursor: after a recorded pause the tiles read "paused", as Live did, and
    // a scheduled client change (maxAttempts 3 → 5) moves the budget lines and the header with the cursor
    const scenario = this.ui.getState().run?.scenario ?? null;
    if (scenario === null) this.dashboard.setState({ running: true, everStarted: true });
    else {
      const at = scheduleAt(scenario, f.cursorMs);
      this.dashboard.setState({ running: at.running, everStarted: at.everStarted, clientConfig: at.client, workload: at.workload });
    }
    this.ui.setState({ budget: f.budget, frameCursorMs: f.cursorMs });
    if (this.seekStartedAt !== null) this.ui.setState({ lastSeekMs: this.now() - this.seekStartedAt });
    this.seekStartedAt = null;
  }

  private cancelPending(): void {
    if (this.settleTimer !== null) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    this.pending = null;
  }

  /**
   * Seeks to `t` and resolves once that seek's frame is in the store. Frames come on their own
   * port, so the seek's answer can arrive before its frame; "loading" must not clear in between
   * (the header's figures and the panels would show the empty run). Bounded: a frame that never
   * comes leaves the view as it is after `FIRST_FRAME_WAIT_MS`.
   */
  private async seekAndShow(t: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const durationMs = this.ui.getState().info?.durationMs ?? t;
    const shown = new Promise<void>((resolve) => {
      // (the worker clamps the cursor to the run)
      this.firstFrame = { cursorMs: Math.max(0, Math.min(t, durationMs)), shown: resolve };
      timer = setTimeout(resolve, FIRST_FRAME_WAIT_MS);
    });
    try {
      await this.seek(t);
      await shown;
    } finally {
      clearTimeout(timer);
      this.firstFrame = null;
    }
  }

  /** the newest frame reaches the store now (tests, exports) */
  flushFrame(): void {
    this.applyPending();
  }

  /** the worker session (one per view, reused across loads) */
  private workerSession(): ReplaySessionLike {
    if (this.session === null) this.session = this.makeSession(this.listener());
    return this.session;
  }

  private stopPlaying(): void {
    if (this.loaded && this.ui.getState().status.playing) void this.session?.pause().catch(() => undefined);
  }

  /** runs `scenario` in the worker and puts the cursor at `cursorMs` (default: the end) */
  async loadScenario(scenario: Scenario, source: string, presetId: string | null, cursorMs?: number): Promise<void> {
    const token = ++this.token;
    this.stopPlaying();
    this.ui.setState({ loading: `Recording ${scenario.name} (seed ${scenario.seed}) once…`, error: null, run: { identity: scenarioIdentity(scenario, source), scenario, presetId, kind: 'scenario' } });
    this.storeScenario = scenario;
    const session = this.workerSession();
    this.loaded = false;
    try {
      await session.load(scenario);
      this.loaded = true;
      if (token !== this.token) return;
      await this.seekAndShow(Math.min(scenario.durationMs, Math.max(0, cursorMs ?? scenario.durationMs)));
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
      if (looksLikeEvents(file.name, await file.slice(0, 4096).text())) {
        // parsed off the main thread, with progress in the loading line; progress arrives on its
        // own port, so a last report may land after the result: it is ignored then
        let reading = true;
        const pct = (f: number) => reading && this.ui.setState({ loading: `Reading ${file.name}… ${Math.round(f * 100)} %` });
        const { log } = await importEvents(file, file.name, pct).finally(() => (reading = false));
        await this.loadEventLog(log, file.name);
        return { kind: 'events', name: file.name };
      }
      const text = await file.text();
      return { kind: 'scenario', scenario: parseScenarioText(text, file.name), name: file.name };
    } catch (e) {
      this.ui.setState({ error: message(e) });
      return null;
    } finally {
      this.ui.setState({ loading: null });
    }
  }

  /** parses an event log (throws an InputError naming line and field; nothing changes then) and replays it */
  async loadEventsText(text: string, name: string): Promise<void> {
    await this.loadEventLog(ColumnarLog.fromEvents(parseNdjson(text, { source: name })), name);
  }

  /** replays decoded events (in time order) from the cursor at their end: recorded once in the worker, like a scenario */
  async loadEvents(events: readonly ZarisEvent[], name: string): Promise<void> {
    await this.loadEventLog(ColumnarLog.fromEvents(events, IMPORT_CHUNK), name);
  }

  /** replays a parsed event log (columnar, as the import worker hands it over): indexed once in the replay worker */
  async loadEventLog(events: ColumnarLog, name: string): Promise<void> {
    if (events.length === 0) throw new Error(`${name}: no events in the file`);
    const token = ++this.token;
    this.stopPlaying();
    const durationMs = Math.max(1, Math.ceil(events.lastT));
    const stub = loadScenario({ name: name.slice(0, 200), seed: 0, durationMs, description: 'imported events file: seed and configuration unknown' }, name);
    this.storeScenario = stub;
    this.ui.setState({
      run: { identity: { scenario: name, seed: null, nodes: null, segments: null, client: null, source: 'events file' }, scenario: null, presetId: null, kind: 'events' },
      loading: `Indexing ${name}…`,
      error: null,
    });
    const batches = events.batches;
    const session = this.workerSession();
    this.loaded = false;
    try {
      await session.loadBatches(stub, batches);
      this.loaded = true;
      if (token !== this.token) return;
      await this.seekAndShow(durationMs);
    } catch (e) {
      if (token === this.token) this.ui.setState({ error: `${name}: ${message(e)}` });
    } finally {
      if (token === this.token) this.ui.setState({ loading: null });
    }
  }

  async play(): Promise<void> {
    const { status, speed } = this.ui.getState();
    if (!this.loaded || this.session === null) return;
    if (status.cursorMs >= status.durationMs - 1) await this.seek(0);
    await this.session.play(speed);
  }

  async pause(): Promise<void> {
    if (this.loaded) await this.session?.pause();
  }

  async togglePlay(): Promise<void> {
    return this.ui.getState().status.playing ? this.pause() : this.play();
  }

  async step(ms: number): Promise<void> {
    if (this.ui.getState().status.playing) await this.pause();
    if (!this.loaded || this.session === null) return;
    this.seekStartedAt = this.now();
    await this.session.step(ms);
  }

  async setSpeed(speed: number): Promise<void> {
    this.ui.setState({ speed });
    if (this.ui.getState().status.playing) await this.session?.play(speed);
  }

  exportNdjson(): Promise<string> {
    return this.loaded && this.session ? this.session.exportNdjson() : Promise.resolve('');
  }

  exportTrace(): Promise<string> {
    return this.loaded && this.session ? this.session.exportTrace() : Promise.resolve('');
  }

  clearError(): void {
    this.ui.setState({ error: null });
  }

  dispose(): void {
    this.token++;
    this.cancelPending();
    this.session?.dispose();
    this.session = null;
    this.loaded = false;
  }
}
