/**
 * Replays an imported event log (an NDJSON export or the CLI's --events
 * file) with the same controls as the worker replay: play at a speed,
 * pause, step, seek (backwards = from the start again). The log stays in
 * the columnar batches the import worker parsed it into; windows of it
 * reach the listener as zero-copy sub-batches, exactly like a session, and
 * the cluster view at the cursor is rebuilt from the file's topology events
 * (or says what the file lacks for one).
 */
import { clusterViewFromEvents } from '../../core/replay/topologyView';
import type { TopologyFacts } from '../../core/replay/topologyView';
import { toChromeTrace, type TraceMeta } from '../../core/telemetry/traceExport';
import { toNdjson } from '../../core/telemetry/eventSchema';
import type { ZarisEvent } from '../../core/telemetry/events';
import type { ClusterView } from '../../core/cluster/views';
import type { ReplayListener, ReplayStatus } from '../bridge/replaySession';
import { ColumnarLog } from './columnarLog';

/** what both replay kinds offer (the worker session and this player) */
export interface ReplaySource {
  play(speed: number): Promise<void>;
  pause(): Promise<void>;
  step(ms: number): Promise<void>;
  seek(t: number): Promise<void>;
  exportNdjson(): Promise<string>;
  exportTrace(): Promise<string>;
  dispose(): void;
}

/** virtual ms per tick at "as fast as possible" */
const MAX_SPEED_SLICE_MS = 250;
const TICK_MS = 33;

/** index of the first event with t > `t` (events are in time order) */
export function indexAfter(events: readonly ZarisEvent[], t: number): number {
  let a = 0;
  let b = events.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if ((events[m] as ZarisEvent).t <= t) a = m + 1;
    else b = m;
  }
  return a;
}

export class EventLogPlayer implements ReplaySource {
  private next = 0;
  private cursor = 0;
  private playing = false;
  private speed = 1;
  private generation = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastTick = 0;
  readonly durationMs: number;
  private readonly log: ColumnarLog;
  private readonly topology: TopologyFacts;

  constructor(
    events: ColumnarLog | readonly ZarisEvent[],
    private readonly listener: ReplayListener,
    private readonly meta: TraceMeta,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.log = events instanceof ColumnarLog ? events : ColumnarLog.fromEvents(events);
    this.durationMs = this.log.length === 0 ? 0 : Math.ceil(this.log.lastT);
    this.topology = this.log.topologyFacts();
  }

  /** the cluster as the file describes it at `t` (or an empty view whose note says what the file lacks) */
  clusterViewAt(t: number): ClusterView {
    const r = clusterViewFromEvents(this.topology, t);
    if (r.view === null) return { t, epoch: 0, nodes: [], owners: [], phases: [], replicas: [], note: r.lacks ?? 'no cluster view' };
    return { ...r.view, ...(r.inferred ? { note: r.inferred } : {}) };
  }

  /** starts at the beginning (cursor 0, paused) */
  load(): void {
    this.listener.onReset();
    this.moveTo(0);
  }

  private status(): void {
    const s: ReplayStatus = { cursorMs: this.cursor, durationMs: this.durationMs, playing: this.playing, speed: this.speed, generation: this.generation };
    this.listener.onStatus(s);
  }

  private moveTo(t: number): void {
    const target = Math.max(0, Math.min(t, this.durationMs));
    if (target < this.cursor) {
      this.generation++;
      this.next = 0;
      this.listener.onReset();
    }
    const end = this.log.indexAfter(target);
    for (const b of this.log.window(this.next, end)) this.listener.onBatch(b);
    this.next = end;
    this.cursor = target;
    this.listener.onClusterView(this.clusterViewAt(target));
    this.status();
  }

  private tick(): void {
    if (!this.playing) return;
    const now = this.now();
    const wall = now - this.lastTick;
    this.lastTick = now;
    this.moveTo(this.cursor + (this.speed === 0 ? MAX_SPEED_SLICE_MS : wall * this.speed));
    if (this.cursor >= this.durationMs) void this.pause();
  }

  async play(speed: number): Promise<void> {
    this.speed = speed;
    this.playing = true;
    this.lastTick = this.now();
    if (this.timer === null) this.timer = setInterval(() => this.tick(), TICK_MS);
    this.status();
  }

  async pause(): Promise<void> {
    this.playing = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.status();
  }

  async step(ms: number): Promise<void> {
    this.moveTo(this.cursor + ms);
  }

  async seek(t: number): Promise<void> {
    this.moveTo(t);
  }

  async exportNdjson(): Promise<string> {
    return toNdjson(this.log.events());
  }

  async exportTrace(): Promise<string> {
    return JSON.stringify(toChromeTrace(this.log.events(), this.meta));
  }

  dispose(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.playing = false;
  }
}
