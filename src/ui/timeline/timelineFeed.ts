/**
 * The main-thread side of a timeline: the event stream (columnar batches
 * from a replay, or decoded events from a file) folded into a
 * TimelineRecorder (per-op bars, refresh spans, faults) and the overview's
 * activity histogram. Renderers subscribe and redraw on their next frame;
 * nothing here renders or re-derives a retry decision.
 */
import { TimelineRecorder, type TimelineAt, type TimelineOptions } from '../../core/replay/opStory';
import { decodeEvent, type EventBatch } from '../../core/telemetry/eventCodec';
import type { ZarisEvent } from '../../core/telemetry/events';
import { ActivityHistogram } from './activity';
import { RetriedIndex, type RetriedQuery } from './retriedIndex';

export type FeedListener = () => void;

export class TimelineFeed {
  recorder: TimelineRecorder;
  readonly activity = new ActivityHistogram();
  /** ops that made a second attempt (the "retried only" lanes) */
  readonly retried = new RetriedIndex();
  /** increases on every change (renderers compare it to skip redraws) */
  version = 0;
  /** run length, ms (the scenario's duration, or the file's last event) */
  durationMs = 0;
  /** the time the timeline shows the recording as of (a replay's cursor; Infinity = everything) */
  cursorMs = Infinity;
  private view: { readonly at: number; readonly version: number; readonly q: TimelineAt; readonly r: RetriedQuery } | null = null;
  private readonly listeners = new Set<FeedListener>();

  constructor(private readonly options: TimelineOptions = {}) {
    this.recorder = new TimelineRecorder(options);
  }

  /** shows the recording as at `t` (the replay's cursor) */
  setCursor(t: number): void {
    if (t === this.cursorMs) return;
    this.cursorMs = t;
    this.changed();
  }

  /** what the renderers read: the recording as at the cursor */
  get query(): TimelineAt {
    return this.at().q;
  }

  /** the retried-ops index as at the cursor */
  get retriedAt(): RetriedQuery {
    return this.at().r;
  }

  private at() {
    const v = this.view;
    if (v !== null && v.at === this.cursorMs && v.version === this.version) return v;
    const t = this.cursorMs;
    const q = this.recorder.asOf(t);
    const r: RetriedQuery = t === Infinity ? this.retried : { opsIn: (t0, t1) => this.retried.opsIn(t0, t1, t) };
    this.view = { at: t, version: this.version, q, r };
    return this.view;
  }

  /** forgets everything (a re-run from the start) */
  reset(durationMs = this.durationMs): void {
    this.recorder = new TimelineRecorder(this.options);
    this.activity.reset();
    this.retried.clear();
    this.durationMs = durationMs;
    this.changed();
  }

  ingestBatch(b: EventBatch): void {
    if (b.n === 0) return;
    for (let i = 0; i < b.n; i++) this.fold(decodeEvent(b, i));
    this.activity.ingestBatch(b);
    this.changed();
  }

  ingestEvents(events: readonly ZarisEvent[], from = 0, to = events.length): void {
    if (to <= from) return;
    for (let i = from; i < to; i++) {
      const e = events[i] as ZarisEvent;
      this.fold(e);
      this.activity.ingestEvent(e);
    }
    this.changed();
  }

  private fold(e: ZarisEvent): void {
    this.recorder.emit(e);
    if (e.type === 'attempt.start' && e.attempt === 2) this.retried.add(e.op, this.recorder.story(e.op)?.startMs ?? e.t, e.t);
    else if (e.type === 'op.end') this.retried.end(e.op, e.t);
  }

  /** ms the timeline spans: the run's duration, or the last event if later */
  get endMs(): number {
    return Math.max(this.durationMs, this.recorder.timeRange().endMs);
  }

  subscribe(fn: FeedListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    this.version++;
    for (const fn of this.listeners) fn();
  }
}
