import { describe, expect, it } from 'vitest';
import { decodeEvent, type EventBatch } from '../../core/telemetry/eventCodec';
import type { ZarisEvent } from '../../core/telemetry/events';
import type { ReplayListener } from '../bridge/replaySession';
import type { ClusterView } from '../../core/cluster/views';
import { retriedOp, steadyOps } from '../store/testEvents';
import { ColumnarLog } from './columnarLog';
import { EventLogPlayer, indexAfter } from './eventLogPlayer';

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

  it('the player hands the cursor window over and a cluster view (or what the file lacks) with it', async () => {
    const views: ClusterView[] = [];
    const got: ZarisEvent[] = [];
    const l: ReplayListener = {
      onReset: () => (got.length = 0),
      onBatch: (b) => got.push(...decodeAll([b])),
      onStatus: () => {},
      onClusterView: (v) => views.push(v),
      onClientView: () => {},
      onError: () => {},
    };
    const p = new EventLogPlayer(log, l, { scenario: 'x' });
    p.load();
    await p.seek(500);
    expect(got).toEqual(events.filter((e) => e.t <= 500));
    const last = views[views.length - 1];
    // these hand-made events have no topology: the view is empty and says why
    expect(last?.nodes).toEqual([]);
    expect(last?.note).toMatch(/lacks the "topology" event with change "initial"/);
  });
});
