/**
 * Replays an imported event log (an NDJSON export or the CLI's --events
 * file) on the main thread with the same controls as the worker replay:
 * play at a speed, pause, step, seek (backwards = from the start again).
 * Events reach the listener as columnar batches, exactly like a session.
 */
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import { toChromeTrace, type TraceMeta } from '../../core/telemetry/traceExport';
import { toNdjson } from '../../core/telemetry/eventSchema';
import type { ZarisEvent } from '../../core/telemetry/events';
import type { ReplayListener, ReplayStatus } from '../bridge/replaySession';

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
/** events per batch handed to the listener */
const CHUNK = 8192;

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

  constructor(
    private readonly events: readonly ZarisEvent[],
    private readonly listener: ReplayListener,
    private readonly meta: TraceMeta,
    private readonly now: () => number = () => performance.now(),
  ) {
    const last = events[events.length - 1];
    this.durationMs = last === undefined ? 0 : Math.ceil(last.t);
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
    const end = indexAfter(this.events, target);
    const b = new EventBatchBuilder(Math.min(CHUNK, Math.max(16, end - this.next)));
    for (let i = this.next; i < end; i++) {
      b.push(this.events[i] as ZarisEvent);
      if (b.length >= CHUNK) this.listener.onBatch(b.take());
    }
    if (b.length > 0) this.listener.onBatch(b.take());
    this.next = end;
    this.cursor = target;
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
    return toNdjson(this.events);
  }

  async exportTrace(): Promise<string> {
    return JSON.stringify(toChromeTrace(this.events, this.meta));
  }

  dispose(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.playing = false;
  }
}
