/**
 * Deterministic replay: a scenario runs in the simulation engine inside this
 * worker. Play advances virtual time with wall time × speed (or as fast as
 * possible), step moves one bucket, seek re-runs from the start when moving
 * backwards (same seed ⇒ same events) — so one time cursor drives every
 * panel. Events leave in columnar batches, exactly like the live session.
 */
import * as Comlink from 'comlink';
import { SimEngine } from '../src/core/sim/engine';
import type { Scenario } from '../src/core/sim/scenario';
import { clientViewOf, clusterViewOf } from '../src/core/cluster/views';
import { TelemetryBatcher } from '../src/platform/telemetryBatcher';
import type { TelemetryMessage } from '../src/platform/workerProtocol';
import { NdjsonSink } from '../src/core/telemetry/ndjson';
import { ChromeTraceBuilder } from '../src/core/telemetry/traceExport';
import { runScenario, type RunSummary } from '../src/core/sim/runScenario';
import type { WriteAuditReport } from '../src/core/sim/applyTracker';

/** where the replay stands, pushed to the main thread on every change */
export interface ReplayStatus {
  readonly cursorMs: number;
  readonly durationMs: number;
  readonly playing: boolean;
  /** 0 = as fast as possible */
  readonly speed: number;
  /** the engine was re-run from the start (the UI clears its panels first) */
  readonly generation: number;
}

interface Session {
  readonly scenario: Scenario;
  readonly port: MessagePort;
  engine: SimEngine;
  batcher: TelemetryBatcher;
  playing: boolean;
  speed: number;
  generation: number;
  timer: ReturnType<typeof setInterval> | null;
  lastTick: number;
}

/** virtual ms advanced per tick when playing as fast as possible */
const MAX_SPEED_SLICE_MS = 250;
const TICK_MS = 33;

let s: Session | null = null;

/** what the replay worker posts on its port */
export type ReplayMessage =
  | TelemetryMessage
  | { readonly kind: 'replayStatus'; readonly status: ReplayStatus }
  | { readonly kind: 'replayReset'; readonly generation: number }
  /** the engine's ambiguous-write audit at the cursor (applies vs answers; live nodes do not report applies) */
  | { readonly kind: 'writeAudit'; readonly audit: WriteAuditReport };

function post(msg: ReplayMessage): void {
  s?.port.postMessage(msg);
}

function status(): void {
  if (s === null) return;
  post({
    kind: 'replayStatus',
    status: { cursorMs: s.engine.now, durationMs: s.scenario.durationMs, playing: s.playing, speed: s.speed, generation: s.generation },
  });
}

function views(): void {
  if (s === null) return;
  post({ kind: 'clusterView', view: clusterViewOf(s.engine.state, s.engine.now) });
  post({ kind: 'clientView', view: clientViewOf(s.engine.client.map, s.engine.now) });
  if (s.engine.applies !== null) post({ kind: 'writeAudit', audit: s.engine.applies.report() });
}

function fresh(session: Session): void {
  session.batcher.stop();
  session.batcher = new TelemetryBatcher(session.port, 1_000_000);
  session.engine = new SimEngine(session.scenario, { sinks: [session.batcher] });
  session.generation++;
  // the UI clears its panels before the new run's batches arrive (same port: ordered)
  session.port.postMessage({ kind: 'replayReset', generation: session.generation } satisfies ReplayMessage);
}

/** advances to `t` (re-running from the start when `t` is behind the cursor) */
function moveTo(t: number): void {
  if (s === null) return;
  const target = Math.max(0, Math.min(t, s.scenario.durationMs));
  if (target < s.engine.now) fresh(s);
  s.engine.runTo(target);
  s.batcher.flush();
  views();
  status();
}

function tick(): void {
  if (s === null || !s.playing) return;
  const now = performance.now();
  const wall = now - s.lastTick;
  s.lastTick = now;
  const step = s.speed === 0 ? MAX_SPEED_SLICE_MS : wall * s.speed;
  moveTo(s.engine.now + step);
  if (s.engine.now >= s.scenario.durationMs) api.pause();
}

const api = {
  /** loads a scenario at cursor 0 (paused) */
  load(scenario: Scenario, port: MessagePort): void {
    api.dispose();
    const batcher = new TelemetryBatcher(port, 1_000_000);
    s = { scenario, port, engine: new SimEngine(scenario, { sinks: [batcher] }), batcher, playing: false, speed: 1, generation: 0, timer: null, lastTick: 0 };
    s.engine.start();
    moveTo(0);
  },
  play(speed: number): void {
    if (s === null) return;
    s.speed = speed;
    s.playing = true;
    s.lastTick = performance.now();
    if (s.timer === null) s.timer = setInterval(tick, TICK_MS);
    status();
  },
  pause(): void {
    if (s === null) return;
    s.playing = false;
    if (s.timer !== null) clearInterval(s.timer);
    s.timer = null;
    status();
  },
  /** moves the cursor by `ms` (one bucket by default) */
  step(ms = 100): void {
    if (s !== null) moveTo(s.engine.now + ms);
  },
  seek(t: number): void {
    moveTo(t);
  },
  /** the whole run (to the scenario's end) as NDJSON, re-simulated from the start */
  exportNdjson(): string {
    if (s === null) return '';
    const chunks: string[] = [];
    const sink = new NdjsonSink((c) => chunks.push(c));
    const engine = new SimEngine(s.scenario, { sinks: [sink] });
    engine.run();
    sink.flush();
    return chunks.join('');
  },
  /** the whole run as Chrome trace-event JSON (opens in Perfetto) */
  exportTrace(): string {
    if (s === null) return '';
    const builder = new ChromeTraceBuilder();
    new SimEngine(s.scenario, { sinks: [builder] }).run();
    return JSON.stringify(builder.finish({ scenario: s.scenario.name, seed: s.scenario.seed }));
  },
  /** the SPEC §10 summary of a scenario run to its end (for A/B compare) */
  summarize(scenario: Scenario): RunSummary {
    return runScenario(scenario).summary;
  },
  dispose(): void {
    if (s === null) return;
    api.pause();
    s.batcher.stop();
    s = null;
  },
};

export type ReplayWorkerApi = typeof api;
Comlink.expose(api);
