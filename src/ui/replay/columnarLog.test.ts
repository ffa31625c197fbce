import { describe, expect, it } from 'vitest';
import { decodeEvent, type EventBatch } from '../../core/telemetry/eventCodec';
import type { ZarisEvent } from '../../core/telemetry/events';
import { retriedOp, steadyOps } from '../store/testEvents';
import { ColumnarLog } from './columnarLog';
import { TopologyViews } from './topologyViews';

const decodeAll = (bs: Iterable<EventBatch>): ZarisEvent[] => [...bs].flatMap((b) => Array.from({ length: b.n }, (_, i) => decodeEvent(b, i)));

describe('the columnar event log of an import', () => {
  const events = [...retriedOp(), ...steadyOps(7, 1000, 100, 10)];
  const log = ColumnarLog.fromEvents(events, 5); // tiny batches: windows cross batch borders

  it('keeps every event, finds times like a binary search over the objects, and windows across batches', () => {
    expect(log.length).toBe(events.length);
    expect(log.batches.length).toBeGreaterThan(3);
    expect([...log.events()]).toEqual(events);
    expect(log.lastT).toBe(events[events.length - 1]?.t);
    for (const t of [-1, 0, 55, 60, 300, 1000, 99_999]) expect(log.indexAfter(t)).toBe(indexAfter(events, t));
    for (const [a, b] of [
      [0, events.length],
      [3, 12],
      [4, 5],
      [7, 7],
    ] as const)
      expect(decodeAll(log.window(a, b))).toEqual(events.slice(a, b));
  });

  it('an imported file without topology gets an empty cluster view that says what it lacks', () => {
    const views = new TopologyViews(log.batches);
    const v = views.clusterAt(500);
    // these hand-made events have no topology: the view is empty and says why
    expect(v.nodes).toEqual([]);
    expect(v.note).toMatch(/lacks the "topology" event with change "initial"/);
    expect(views.clientAt()).toBeNull();
  });
});

/** index of the first event with t > `t`, by a linear scan: the oracle the log's binary search is held to */
function indexAfter(events: readonly ZarisEvent[], t: number): number {
  const i = events.findIndex((e) => e.t > t);
  return i < 0 ? events.length : i;
}
