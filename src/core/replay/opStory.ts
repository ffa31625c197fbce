/**
 * The whole story of one operation — every attempt (node, epoch, outcome,
 * latency), every refresh wait (which refresh it started, rode or was
 * debounced as, and when it went on), every backoff — and the bounded
 * whole-run timeline the renderer queries. Both read the one event stream.
 */
import type { ZarisEvent } from '../telemetry/events';
import type { OpStory } from './opRecord';
import { TimelineRecorder } from './timelineRecorder';

export type { AttemptStep, BackoffStep, OpStep, OpStory, RefreshWaitStep, WaitHow } from './opRecord';
export type { Lane, LaneBar, LaneGap, LaneMode, LaneOp, LanesResult, LaneWait } from './timelineLanes';
export { keepsOp, opHash } from './opSampling';
export { clipRecord, DEFAULT_MAX_SEGMENTS, TimelineRecorder, type RefreshSpan, type SamplingInfo, type TimelineAt, type TimelineOptions } from './timelineRecorder';

/** the story of `op` in `events`, or null when the stream never started it */
export function opStory(events: Iterable<ZarisEvent>, op: number): OpStory | null {
  const recorder = new TimelineRecorder({ only: (id) => id === op });
  for (const e of events) recorder.emit(e);
  return recorder.story(op);
}
