import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimEngine } from '../sim/engine';
import { loadScenario } from '../sim/scenario';
import { shortenedPreset } from '../sim/testkit/presetInputs';
import type { ZarisEvent } from '../telemetry/events';
import { TimelineRecorder } from './timelineRecorder';

const RUNS = Math.max(20, Math.round((Number(process.env.ZARIS_PROPERTY_RUNS ?? '') || 300) / 5));

function runOf(id: string): ZarisEvent[] {
  const events: ZarisEvent[] = [];
  new SimEngine(loadScenario(shortenedPreset(id, 6000, 0.15), id), { sinks: [{ emit: (e) => events.push(e) }] }).run();
  return events;
}

describe('TimelineRecorder.asOf: the whole recording seen at t = a recorder fed the events up to t', () => {
  const runs = ['refresh-storm', 'failover', 'herd'].map((id) => {
    const events = runOf(id);
    const whole = new TimelineRecorder();
    for (const e of events) whole.emit(e);
    return { id, events, whole };
  });

  it('lanes, refresh spans, faults and stories at random times', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: runs.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom('op' as const, 'vu' as const), (k, f, mode) => {
        const { events, whole } = runs[k] as (typeof runs)[number];
        // at an event's time, so the prefix recorder's "now" (its last event) is the cursor too
        const t = (events[Math.floor(f * (events.length - 1))] as ZarisEvent).t;
        const prefix = new TimelineRecorder();
        for (const e of events) if (e.t <= t) prefix.emit(e);
        const at = whole.asOf(t);
        expect(at.lanes(mode, 0, t, 1e9)).toEqual(prefix.lanes(mode, 0, t, 1e9));
        const w0 = t * 0.6;
        expect(at.lanes(mode, w0, t, 50)).toEqual(prefix.lanes(mode, w0, t, 50));
        expect(at.refreshSpans(0, t)).toEqual(prefix.refreshSpans(0, t));
        expect(at.faults()).toEqual(prefix.faults());
        expect(at.timeRange().endMs).toBe(prefix.timeRange().endMs);
        const ops = events.filter((e) => e.type === 'op.start' && e.t <= t).map((e) => (e as { op: number }).op);
        for (const op of ops.filter((_, i) => i % Math.max(1, Math.floor(ops.length / 25)) === 0)) expect(at.story(op)).toEqual(prefix.story(op));
        const later = events.find((e) => e.type === 'op.start' && e.t > t);
        if (later && 'op' in later && typeof later.op === 'number') expect(at.story(later.op)).toBeNull();
      }),
      { numRuns: RUNS, seed: 20_261_203 },
    );
  }, 60_000);

  it('refresh numbers in a story are the refresh lane numbers', () => {
    const { events, whole } = runs[0] as (typeof runs)[number];
    const spans = whole.refreshSpans(0, Infinity);
    expect(spans.map((s) => s.no)).toEqual(spans.map((_, i) => i + 1));
    const byId = new Map(spans.map((s) => [s.refresh, s]));
    let debounced = 0;
    for (const e of events) {
      if (e.type !== 'op.end' || e.attempts < 3) continue;
      for (const w of whole.story(e.op)?.refreshWaits ?? []) {
        if (w.how === 'debounced') {
          debounced++;
          // debounced: named after the last successful refresh before the request, never the client's internal id
          const last = spans.filter((s) => s.ok === true && s.t1 <= w.requestMs).pop();
          expect(w.refreshNo).toBe(last?.no ?? null);
        } else if (w.refresh !== null) expect(w.refreshNo).toBe(byId.get(w.refresh)?.no);
        if (w.refreshNo !== null) expect(w.refreshNo).toBeLessThanOrEqual(spans.length);
      }
    }
    expect(debounced).toBeGreaterThan(0);
  });
});
