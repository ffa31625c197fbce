/**
 * What the replay worker does, framework-free: one recorded run on screen
 * (a cursor, play / pause / step / seek) plus the runs Compare records, all
 * in one {@link RecordedRuns}. Messages go out through `post` (the worker's
 * port; a test's listener). `workers/replay.worker.ts` exposes it with
 * Comlink.
 */
import { SimEngine } from '../../core/sim/engine';
import type { Scenario } from '../../core/sim/scenario';
import { runScenario, type RunSummary } from '../../core/sim/runScenario';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import { toNdjson } from '../../core/telemetry/eventSchema';
import { NdjsonSink } from '../../core/telemetry/ndjson';
import { ChromeTraceBuilder, toChromeTrace } from '../../core/telemetry/traceExport';
import type { TelemetryMessage } from '../../platform/workerProtocol';
import { RecordedRuns, type RecordedRun, type RunInfo } from './recordedRuns';
import type { SeekFrame } from './seekIndex';

/** where the replay stands, pushed to the main thread on every change */
export interface ReplayStatus {
  readonly cursorMs: number;
  readonly durationMs: number;
  readonly playing: boolean;
  /** 0 = as fast as possible */
  readonly speed: number;
  /** increases with every load */
  readonly generation: number;
}

/** what the replay worker posts on its port */
export type ReplayMessage =
  | TelemetryMessage
  | { readonly kind: 'replayStatus'; readonly status: ReplayStatus }
  | { readonly kind: 'replayReset'; readonly generation: number }
  | { readonly kind: 'replayProgress'; readonly fraction: number }
  | { readonly kind: 'replayLoaded'; readonly info: RunInfo }
  | { readonly kind: 'replayFrame'; readonly frame: SeekFrame; readonly status: ReplayStatus; readonly computeMs: number };

/** posts a message (with buffers to transfer) */
export type Post = (msg: ReplayMessage, transfer?: ArrayBuffer[]) => void;

/** the room's clock and timer (the worker's real ones; a test's manual ones) */
export interface RoomTime {
  now(): number;
  every(ms: number, fn: () => void): () => void;
}

interface Session {
  readonly run: RecordedRun;
  readonly post: Post;
  cursor: number;
  playing: boolean;
  speed: number;
  readonly generation: number;
  stop: (() => void) | null;
  lastTick: number;
  /** wall ms of the last frame posted while playing */
  lastFrame: number;
}

/** virtual ms advanced per tick when playing as fast as possible */
const MAX_SPEED_SLICE_MS = 250;
const TICK_MS = 16;
/** while playing, panels get a frame this often (wall ms); the cursor moves every tick */
export const PLAY_FRAME_MS = 500;
/** timeline batches are copies of this many tape rows */
const STREAM_ROWS = 1 << 15;

export class ReplayRoom {
  readonly runs: RecordedRuns;
  private s: Session | null = null;
  private generation = 0;

  constructor(private readonly time: RoomTime) {
    this.runs = new RecordedRuns(() => time.now());
  }

  private status(x: Session): ReplayStatus {
    return { cursorMs: x.cursor, durationMs: x.run.info.durationMs, playing: x.playing, speed: x.speed, generation: x.generation };
  }

  private postStatus(): void {
    const s = this.s;
    if (s !== null) s.post({ kind: 'replayStatus', status: this.status(s) });
  }

  private postFrame(): void {
    const s = this.s;
    if (s === null) return;
    const t0 = this.time.now();
    const frame = s.run.index.frameAt(s.cursor);
    s.post({ kind: 'replayFrame', frame, status: this.status(s), computeMs: this.time.now() - t0 });
  }

  /** copies of the tape's rows for the main thread's timeline (the tape keeps its buffers) */
  private streamTimeline(run: RecordedRun, post: Post): void {
    const tape = run.index.tape;
    for (let i = 0; i < tape.length; i += STREAM_ROWS) {
      tape.forEachSlice(i, i + STREAM_ROWS, (b) => {
        const copy: EventBatch = { n: b.n, t: b.t.slice(), type: b.type.slice(), op: b.op.slice(), a: b.a.slice(), b: b.b.slice(), c: b.c.slice(), d: b.d.slice(), e: b.e.slice(), f: b.f.slice(), s: b.s.slice(), strings: b.strings };
        post({ kind: 'batch', batch: copy }, [copy.t, copy.type, copy.op, copy.a, copy.b, copy.c, copy.d, copy.e, copy.f, copy.s].map((x) => x.buffer as ArrayBuffer));
      });
    }
  }

  private begin(run: RecordedRun, post: Post): RunInfo {
    this.s = { run, post, cursor: 0, playing: false, speed: 1, generation: this.generation, stop: null, lastTick: 0, lastFrame: 0 };
    post({ kind: 'replayLoaded', info: run.info });
    this.streamTimeline(run, post);
    this.postFrame();
    return run.info;
  }

  private moveTo(t: number, frame: boolean): void {
    const s = this.s;
    if (s === null) return;
    s.cursor = Math.max(0, Math.min(t, s.run.info.durationMs));
    if (frame) this.postFrame();
    else this.postStatus();
  }

  private tick(): void {
    const s = this.s;
    if (s === null || !s.playing) return;
    const now = this.time.now();
    const wall = now - s.lastTick;
    s.lastTick = now;
    const step = s.speed === 0 ? MAX_SPEED_SLICE_MS : wall * s.speed;
    const end = s.cursor + step >= s.run.info.durationMs;
    const frame = end || now - s.lastFrame >= PLAY_FRAME_MS;
    if (frame) s.lastFrame = now;
    this.moveTo(s.cursor + step, frame);
    if (end) this.pause();
  }

  private releaseCurrent(): void {
    const s = this.s;
    if (s === null) return;
    this.pause();
    this.runs.release(s.run.info.id);
    this.s = null;
  }

  /** runs a scenario once, indexes it, streams the timeline and puts the cursor at 0 (paused) */
  load(scenario: Scenario, post: Post): RunInfo {
    this.releaseCurrent();
    this.generation++;
    post({ kind: 'replayReset', generation: this.generation });
    const run = this.runs.record(scenario, (fraction) => post({ kind: 'replayProgress', fraction }));
    return this.begin(run, post);
  }

  /** an imported event log (`scenario` names it): indexed as it is, no engine */
  loadBatches(scenario: Scenario, batches: readonly EventBatch[], post: Post): RunInfo {
    this.releaseCurrent();
    this.generation++;
    post({ kind: 'replayReset', generation: this.generation });
    return this.begin(this.runs.fromBatches(scenario, batches), post);
  }

  play(speed: number): void {
    const s = this.s;
    if (s === null) return;
    s.speed = speed;
    s.playing = true;
    s.lastTick = this.time.now();
    s.lastFrame = s.lastTick;
    if (s.stop === null) s.stop = this.time.every(TICK_MS, () => this.tick());
    this.postStatus();
  }

  pause(): void {
    const s = this.s;
    if (s === null) return;
    const was = s.playing;
    s.playing = false;
    s.stop?.();
    s.stop = null;
    if (was) this.postFrame();
    else this.postStatus();
  }

  /** moves the cursor by `ms` */
  step(ms = 100): void {
    if (this.s !== null) this.moveTo(this.s.cursor + ms, true);
  }

  seek(t: number): void {
    this.moveTo(t, true);
  }

  /** the whole run as NDJSON (a scenario is re-simulated: the CLI's exact bytes) */
  exportNdjson(): string {
    const s = this.s;
    if (s === null) return '';
    if (s.run.info.source === 'events') return toNdjson(s.run.index.tape.events());
    const chunks: string[] = [];
    const sink = new NdjsonSink((c) => chunks.push(c));
    new SimEngine(s.run.scenario, { sinks: [sink] }).run();
    sink.flush();
    return chunks.join('');
  }

  /** the whole run as Chrome trace-event JSON (opens in Perfetto) */
  exportTrace(): string {
    const s = this.s;
    if (s === null) return '';
    const meta = { scenario: s.run.scenario.name, seed: s.run.scenario.seed };
    if (s.run.info.source === 'events') return JSON.stringify(toChromeTrace(s.run.index.tape.events(), meta));
    const builder = new ChromeTraceBuilder();
    new SimEngine(s.run.scenario, { sinks: [builder] }).run();
    return JSON.stringify(builder.finish(meta));
  }

  /** the SPEC §10 summary of a scenario run to its end (for A/B compare) */
  summarize(scenario: Scenario): RunSummary {
    return runScenario(scenario).summary;
  }

  /** Compare: records a run kept by id (release it when done) */
  record(scenario: Scenario): RunInfo {
    return this.runs.record(scenario).info;
  }

  frameAt(id: number, t: number): SeekFrame {
    return this.runs.frameAt(id, t);
  }

  /** several recorded runs at one time (Compare's one cursor) */
  framesAt(ids: readonly number[], t: number): SeekFrame[] {
    return this.runs.framesAt(ids, t);
  }

  release(id: number): void {
    if (this.s?.run.info.id === id) this.releaseCurrent();
    else this.runs.release(id);
  }

  dispose(): void {
    this.releaseCurrent();
  }
}
