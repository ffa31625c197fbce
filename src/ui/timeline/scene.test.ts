import { beforeAll, describe, expect, it } from 'vitest';
import { TimelineRecorder } from '../../core/replay/opStory';
import { SimEngine } from '../../core/sim/engine';
import { loadScenario } from '../../core/sim/scenario';
import { shortenedPreset } from '../../core/sim/testkit/presetInputs';
import type { ZarisEvent } from '../../core/telemetry/events';
import { retriedOp } from '../store/testEvents';
import { drawTimeline } from './drawTimeline';
import { SvgPainter } from './painter';
import { laneOfStory } from './retriedIndex';
import { buildScene, emptyLanesMessage, hitTest, plotX, rowsTop, xOf, type SceneOptions } from './scene';
import { TimelineFeed } from './timelineFeed';

const opts = (o: Partial<SceneOptions> = {}): SceneOptions => ({
  viewport: { t0: 0, t1: 1000 },
  mode: 'op',
  filter: 'all',
  laneOffset: 0,
  width: 1000,
  height: 300,
  cursorMs: null,
  selectedOp: null,
  hoverOp: null,
  ...o,
});

const small = (): TimelineRecorder => {
  const r = new TimelineRecorder();
  for (const e of retriedOp()) r.emit(e);
  return r;
};

describe('timeline scene', () => {
  it("shades the workload's pauses across the lanes and names them (an open one to the window's end)", () => {
    const s = buildScene(small(), opts({ pauses: [{ from: 200, to: 500 }, { from: 800, to: null }] }));
    expect(s.pauses).toEqual([{ from: 200, to: 500 }, { from: 800, to: null }]);
    const p = new SvgPainter();
    drawTimeline(p, s);
    expect(p.body().match(/>paused</g)?.length).toBe(2);
    const none = new SvgPainter();
    drawTimeline(none, buildScene(small(), opts()));
    expect(none.body()).not.toContain('>paused<');
  });

  it('lays out visible lanes below the axis, fault strip and refresh lane', () => {
    const s = buildScene(small(), opts());
    expect(s.totalLanes).toBe(2);
    expect(s.rows.map((r) => r.lane.ops[0]?.op)).toEqual([1, 2]);
    expect(s.rows[0]?.y).toBe(rowsTop(s.layout));
    expect(s.spans).toHaveLength(1);
    expect(s.visibleRows).toBe(Math.floor((300 - rowsTop(s.layout)) / s.layout.rowH));
  });

  it('an empty window says whether it is empty or only not reached by the cursor yet', () => {
    const r = small();
    // the whole recording: op 1 and op 2 retried within 0–1 s; nothing after
    expect(emptyLanesMessage(buildScene(r, opts({ viewport: { t0: 2000, t1: 3000 }, filter: 'retried' })))).toBe('No retried operations in this window');
    // as at a cursor before the ops began: the window runs past it, so "none in this window" would be false
    const early = buildScene(r.asOf(20), opts({ filter: 'retried', asOfMs: 20 }));
    expect(early.rows).toHaveLength(0);
    expect(emptyLanesMessage(early)).toBe('No retried operations up to the cursor (0.02 s): the timeline shows the run as it stood then');
    expect(emptyLanesMessage(buildScene(r.asOf(20), opts({ viewport: { t0: 500, t1: 1000 }, asOfMs: 20 })))).toBe('Nothing yet: the cursor (0.02 s) is before this window');
    // a replay at its start: the cursor is not "before" a window that begins there
    expect(emptyLanesMessage({ filter: 'all', viewport: { t0: 0, t1: 16_000 }, asOfMs: 0 })).toBe('Nothing yet: the cursor (0.00 s) is at the start of this window');
    // a cursor at or past the window's end: the plain message
    expect(emptyLanesMessage(buildScene(r, opts({ viewport: { t0: 2000, t1: 3000 }, asOfMs: 3000 })))).toBe('No operations in this window');
  });

  it('hit-tests attempts, backoffs, waits and the refresh lane by the drawn geometry', () => {
    const s = buildScene(small(), opts());
    const row = s.rows[0];
    if (row === undefined) throw new Error('no row');
    const mid = row.y + s.layout.rowH / 2;
    // op 1: attempt 1 [50, 60], wait [60, 150] (started refresh 1), backoff [150, 950], attempt 2 [950, 952]
    expect(hitTest(s, xOf(s, 55), mid)).toMatchObject({ kind: 'bar', op: 1, index: 0 });
    expect(hitTest(s, xOf(s, 100), mid)).toMatchObject({ kind: 'wait', op: 1 });
    expect(hitTest(s, xOf(s, 500), mid)).toMatchObject({ kind: 'gap', op: 1 });
    const refreshY = s.layout.axisH + s.layout.faultH + s.layout.refreshH / 2;
    expect(hitTest(s, xOf(s, 100), refreshY)).toMatchObject({ kind: 'refresh', span: { refresh: 1, callers: 2 } });
    // the label column picks the lane's op
    expect(hitTest(s, 20, mid)).toMatchObject({ kind: 'op', op: 1 });
    expect(hitTest(s, plotX(s.layout).x0 + 5, s.layout.height - 2)).toBeNull();
  });

  it('scrolls lanes and clamps the offset to the last full page', () => {
    const r = new TimelineRecorder();
    const events: ZarisEvent[] = [];
    for (let op = 0; op < 100; op++) events.push({ t: op, type: 'op.start', op, kind: 'get', key: `k${op}`, segment: 0 });
    for (const e of events) r.emit(e);
    const s = buildScene(r, opts({ laneOffset: 95, viewport: { t0: 0, t1: 200 } }));
    expect(s.totalLanes).toBe(100);
    expect(s.laneOffset).toBe(100 - s.visibleRows);
    expect(s.rows[0]?.lane.ops[0]?.op).toBe(100 - s.visibleRows);
  });

  it('draws to SVG without NaN coordinates, cursor and selection included', () => {
    const p = new SvgPainter();
    drawTimeline(p, buildScene(small(), opts({ cursorMs: 400, selectedOp: 1 })));
    const svg = p.toString(1000, 300);
    expect(p.elements).toBeGreaterThan(20);
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(svg).toContain('map refreshes');
  });
});

describe('retried-only lanes', () => {
  let feed: TimelineFeed;
  beforeAll(() => {
    const events: ZarisEvent[] = [];
    new SimEngine(loadScenario(shortenedPreset('refresh-storm', 3000, 0.2)), { sinks: [{ emit: (e) => events.push(e) }] }).run();
    feed = new TimelineFeed();
    feed.ingestEvents(events);
  }, 30_000);

  it('index exactly the ops that made a second attempt, and build their lanes from their stories', () => {
    const { endMs } = feed.recorder.timeRange();
    const all = feed.recorder.lanes('op', 0, endMs, 1_000_000).lanes;
    const retried = all.filter((l) => l.bars.some((b) => b.attempt > 1));
    expect(feed.retried.size).toBe(retried.length);
    expect(feed.retried.opsIn(0, endMs)).toEqual(retried.map((l) => l.ops[0]?.op));
    // the story-built lane matches the recorder's own lane for that op
    const lane = retried[0];
    const op = lane?.ops[0]?.op;
    if (lane === undefined || op === undefined) throw new Error('the storm retried nothing');
    const story = feed.recorder.story(op);
    if (story === null) throw new Error('no story');
    const built = laneOfStory(story, endMs);
    expect(built.bars).toEqual(lane.bars);
    expect(built.gaps).toEqual(lane.gaps);
    expect(built.waits).toEqual(lane.waits);
  });

  it('the retried filter shows only retried ops, in op mode from the index', () => {
    const { endMs } = feed.recorder.timeRange();
    const s = buildScene(feed.recorder, opts({ filter: 'retried', viewport: { t0: 0, t1: endMs } }), feed.retried);
    expect(s.totalLanes).toBe(feed.retried.size);
    expect(s.rows.length).toBeGreaterThan(0);
    for (const r of s.rows) expect(r.lane.bars.length).toBeGreaterThan(1);
    const vu = buildScene(feed.recorder, opts({ mode: 'vu', filter: 'retried', viewport: { t0: 0, t1: endMs } }), feed.retried);
    for (const r of vu.rows) expect(r.lane.bars.some((b) => b.attempt > 1) || r.lane.waits.length > 0).toBe(true);
  });

  it('a reset forgets everything', () => {
    const f = new TimelineFeed();
    f.ingestEvents(retriedOp());
    let calls = 0;
    f.subscribe(() => calls++);
    f.reset(5000);
    expect(f.recorder.sampling.keptOps).toBe(0);
    expect(f.retried.size).toBe(0);
    expect(f.endMs).toBe(5000);
    expect(calls).toBe(1);
  });
});
