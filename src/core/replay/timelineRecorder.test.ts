import { beforeAll, describe, expect, it } from 'vitest';
import { SimEngine } from '../sim/engine';
import { loadScenario } from '../sim/scenario';
import { shortenedPreset } from '../sim/testkit/presetInputs';
import { Recorder } from '../sim/testkit/recorder';
import type { ZarisEvent } from '../telemetry/events';
import { opStory } from './opStory';
import { keepsOp, opHash } from './opSampling';
import { TimelineRecorder } from './timelineRecorder';

let events: ZarisEvent[] = [];
let rec: Recorder;

beforeAll(() => {
  rec = new Recorder();
  new SimEngine(loadScenario(shortenedPreset('refresh-storm', 3000, 0.2)), { sinks: [rec] }).run();
  events = rec.events;
}, 30_000);

const feed = (r: TimelineRecorder, es: readonly ZarisEvent[] = events): TimelineRecorder => {
  for (const e of es) r.emit(e);
  return r;
};
const overlaps = (a0: number, a1: number, t0: number, t1: number): boolean => a0 <= t1 && a1 >= t0;

describe('TimelineRecorder', () => {
  it('keeps everything under the cap; window queries return only what intersects', () => {
    const tl = feed(new TimelineRecorder());
    expect(tl.sampling).toMatchObject({ factor: 1, droppedOps: 0, keptOps: rec.of('op.start').length });
    const { startMs, endMs } = tl.timeRange();
    expect(startMs).toBe(events[0]?.t);
    expect(endMs).toBe(events[events.length - 1]?.t);
    const t0 = 1400;
    const t1 = 1600;
    const res = tl.lanes('op', t0, t1, 1_000_000);
    // brute force: ops whose [start, end] meets the window
    const ends = new Map(rec.of('op.end').map((e) => [e.op, e.t]));
    const expected = rec.of('op.start').filter((s) => overlaps(s.t, ends.get(s.op) ?? endMs, t0, t1)).map((s) => s.op);
    expect(res.lanes.map((l) => l.ops[0]?.op)).toEqual(expected);
    expect(res.totalLanes).toBe(expected.length);
    let bars = 0;
    for (const lane of res.lanes) {
      for (const b of [...lane.bars, ...lane.gaps, ...lane.waits]) expect(overlaps(b.t0, b.t1, t0, t1)).toBe(true);
      bars += lane.bars.length;
    }
    const attemptEnds = new Map(rec.of('attempt.end').map((e) => [`${e.op}/${e.attempt}`, e.t]));
    const expectedBars = rec.of('attempt.start').filter((a) => overlaps(a.t, attemptEnds.get(`${a.op}/${a.attempt}`) ?? endMs, t0, t1));
    expect(bars).toBe(expectedBars.length);
    const some = res.lanes.find((l) => l.gaps.length > 0);
    expect(some?.gaps[0]).toEqual(expect.objectContaining({ delayMs: expect.any(Number), status: expect.any(String), op: expect.any(Number) }));
    // maxLanes truncates but reports the total
    const few = tl.lanes('op', t0, t1, 5);
    expect(few.lanes).toHaveLength(5);
    expect(few.totalLanes).toBe(expected.length);
    expect(tl.lanes('op', endMs + 1000, endMs + 2000, 10).lanes.filter((l) => l.ops.every((o) => o.outcome !== null))).toEqual([]);
  });

  it("'vu' mode: one lane per virtual user, in vu order, each op's work on its user's lane", () => {
    const tl = feed(new TimelineRecorder());
    const res = tl.lanes('vu', 1000, 2000, 50);
    expect(res.lanes.length).toBeLessThanOrEqual(50);
    expect(res.totalLanes).toBeGreaterThanOrEqual(res.lanes.length);
    const vus = res.lanes.map((l) => l.vu as number);
    expect(vus).toEqual([...vus].sort((a, b) => a - b));
    const vuOf = new Map(rec.of('op.start').map((e) => [e.op, e.vu]));
    for (const lane of res.lanes) {
      expect(lane.label).toBe(`vu ${lane.vu}`);
      for (const b of lane.bars) expect(vuOf.get(b.op)).toBe(lane.vu);
    }
  });

  it('refresh spans, faults and topology are kept', () => {
    const tl = feed(new TimelineRecorder({ maxSegments: 100 }));
    const spans = tl.refreshSpans(0, Infinity);
    expect(spans).toHaveLength(rec.of('refresh.start').length);
    const callers = spans.reduce((s, x) => s + x.callers, 0);
    expect(callers).toBe(rec.of('refresh.start').filter((e) => e.op !== null).length + rec.of('refresh.coalesced').length);
    const ended = rec.of('refresh.end')[0];
    expect(spans.find((s) => s.refresh === ended?.refresh)).toMatchObject({ ok: ended?.ok, epochAfter: ended?.epochAfter, open: false });
    expect(tl.faults()).toHaveLength(rec.of('fault').length + rec.of('topology').length);
    expect(tl.debounced).toBe(rec.of('refresh.debounced').length);
    const first = spans[0];
    if (first) expect(tl.refreshSpans(first.t1 + 1e-6, first.t1 + 2e-6).map((s) => s.refresh)).not.toContain(first.refresh);
  });

  it('memory stays bounded: above the cap it keeps a deterministic sample of operations', () => {
    const total = feed(new TimelineRecorder()).sampling.segments;
    const cap = Math.floor(total / 10);
    const tl = new TimelineRecorder({ maxSegments: cap });
    let factor = 1;
    for (const e of events) {
      tl.emit(e);
      const s = tl.sampling;
      expect(s.segments).toBeLessThanOrEqual(cap);
      expect(s.factor).toBeGreaterThanOrEqual(factor);
      factor = s.factor;
    }
    const s = tl.sampling;
    expect(s.factor).toBeGreaterThanOrEqual(8);
    expect(s.keptOps + s.droppedOps).toBe(rec.of('op.start').length);
    const k = Math.log2(s.factor);
    // the kept set is exactly the ops the hash rule keeps, and queries still work on it
    const kept = rec.of('op.start').filter((e) => keepsOp(e.op, k));
    expect(s.keptOps).toBe(kept.length);
    const res = tl.lanes('op', 0, Infinity, 1_000_000);
    expect(res.sampling).toBe(s.factor);
    expect(res.lanes.map((l) => l.ops[0]?.op)).toEqual(kept.map((e) => e.op));
    for (const e of kept.slice(0, 20)) expect(tl.story(e.op)).toEqual(opStory(events, e.op));
    const droppedOp = rec.of('op.start').find((e) => !keepsOp(e.op, k));
    expect(droppedOp && tl.story(droppedOp.op)).toBeNull();
    // the same input gives the same sample
    expect(feed(new TimelineRecorder({ maxSegments: cap })).sampling).toEqual(s);
  }, 30_000);

  it('a tiny cap still holds (one monster op cannot break the bound)', () => {
    const tl = new TimelineRecorder({ maxSegments: 3 });
    tl.emit({ t: 0, type: 'op.start', op: 0, kind: 'get', key: 'k', segment: 0 });
    for (let i = 1; i <= 10; i++) {
      tl.emit({ t: i, type: 'attempt.start', op: 0, attempt: i, node: 0, epoch: 1 });
      expect(tl.sampling.segments).toBeLessThanOrEqual(3);
    }
    expect(tl.lanes('op', 0, 100, 10).lanes.length).toBeLessThanOrEqual(1);
  });

  it('opHash spreads ids; keepsOp halves the set at each level', () => {
    const ids = Array.from({ length: 4096 }, (_, i) => i);
    expect(new Set(ids.map(opHash)).size).toBe(4096);
    for (const k of [1, 2, 3]) {
      const n = ids.filter((i) => keepsOp(i, k)).length;
      expect(n / 4096).toBeGreaterThan(0.7 / 2 ** k);
      expect(n / 4096).toBeLessThan(1.3 / 2 ** k);
      // nested: whatever level k keeps, level k - 1 kept too
      for (const i of ids) if (keepsOp(i, k)) expect(keepsOp(i, k - 1)).toBe(true);
    }
    expect(keepsOp(0, 33)).toBe(false);
  });
});
