import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import type { ZarisEvent } from '../../core/telemetry/events';
import { TelemetryAggregator } from './telemetryAggregator';
import { retriedOp, steadyOps } from './testEvents';

const agg = () => new TelemetryAggregator(() => DEFAULT_CLIENT_CONFIG);

describe('TelemetryAggregator batching', () => {
  // a stream that goes back to an earlier bucket (the control plane's events interleave with the client's)
  const stream = (): ZarisEvent[] => {
    const a = [...retriedOp(), ...steadyOps(40, 100, 37, 100, 2)];
    const late = steadyOps(5, 120, 3, 900, 5); // lands in buckets already passed
    // op 5000 stays in flight across a gap of empty buckets: they carry its gauge forward
    const gap: ZarisEvent[] = [
      { t: 3_000, type: 'op.start', op: 5_000, kind: 'get', key: 'k9', segment: 1, deadline: 63_000, budget: 3 },
      { t: 3_000, type: 'attempt.start', op: 5_000, attempt: 1, node: 0, epoch: 1 },
      ...steadyOps(3, 3_900, 5, 6_000, 1),
      { t: 3_950, type: 'attempt.end', op: 5_000, attempt: 1, node: 0, status: 'Ok', latencyMs: 950 },
      { t: 3_950, type: 'op.end', op: 5_000, status: 'Ok', attempts: 1, latencyMs: 950, reason: 'success' },
    ];
    return [...a.slice(0, 30), ...late, ...a.slice(30), ...steadyOps(20, 2_500, 11, 1_000, 7), ...gap];
  };

  it('folds one big batch exactly as event-by-event batches (gauges included)', () => {
    const one = agg();
    one.ingestEvents(stream());
    const each = agg();
    for (const e of stream()) each.ingestEvents([e]);
    const a = one.snapshot();
    const b = each.snapshot();
    expect(a.window.firstBucket).toBe(b.window.firstBucket);
    expect(a.window.length).toBe(b.window.length);
    for (const m of Object.keys(a.window.cols) as (keyof typeof a.window.cols)[]) expect([...a.window.cols[m]], m).toEqual([...b.window.cols[m]]);
    expect(a.parkedNow).toEqual(b.parkedNow);
    expect(a.totals).toEqual(b.totals);
    expect(a.events.map((e) => e.event)).toEqual(b.events.map((e) => e.event));
  });
});

describe('TelemetryAggregator: the segment gauges across streams', () => {
  it("a fault folded in before the client's last events of an earlier bucket does not make that bucket affected", () => {
    // the control worker's fault (4.9 s) arrives while the client worker's batch of 4.85–4.9 s is still on its way
    const topology: ZarisEvent = { t: 0, type: 'topology', change: 'initial', node: 0, segments: [0, 1, 2, 3], epoch: 1 };
    const fault: ZarisEvent = { t: 4_900, type: 'fault', action: 'failover', node: 1, segments: [1] };
    // operations on a segment the fault names (1) and on one it does not (2)
    const client = [...steadyOps(60, 4_000, 25, 100, 2), ...steadyOps(60, 4_010, 25, 1_000, 1)].sort((a, b) => a.t - b.t);
    const early = client.filter((e) => e.t < 4_850);
    const late = client.filter((e) => e.t >= 4_850);
    const merged = agg();
    merged.ingestEvents([topology, ...early]);
    merged.ingestEvents([fault]);
    merged.ingestEvents(late);
    const inOrder = agg();
    inOrder.ingestEvents([topology, ...[...client, fault].sort((a, b) => a.t - b.t)]);
    const a = merged.snapshot().window;
    const b = inOrder.snapshot().window;
    const affectedAt = (w: typeof a, bucket: number) => w.cols.segments[(bucket - w.firstBucket) * 2 + 1];
    expect(affectedAt(a, 48), 'the bucket before the fault').toBe(0);
    expect(affectedAt(a, 49), "the fault's bucket").toBe(1);
    expect([...a.cols.segments]).toEqual([...b.cols.segments]);
    // an operation on segment 1 that ended at 4.86 s was served while its segment was healthy
    expect(a.cols.opsBySplit[(48 - a.firstBucket) * 2 + 1], 'affected ops served in the bucket before the fault').toBe(0);
    expect([...a.cols.opsBySplit]).toEqual([...b.cols.opsBySplit]);
  });
});

describe('TelemetryAggregator: operations past their budget', () => {
  it('counts those still in flight (the attempts bins count ops when they end) until they end', () => {
    const agg = new TelemetryAggregator(() => DEFAULT_CLIENT_CONFIG);
    const attempt = (t: number, n: number): ZarisEvent => ({ t, type: 'attempt.start', op: 7, attempt: n, node: 1, epoch: 1 });
    agg.ingestEvents([{ t: 0, type: 'op.start', op: 7, kind: 'get', key: 'k1', segment: 3, deadline: 60_000, budget: 3 }, attempt(0, 1), attempt(10, 2), attempt(20, 3)]);
    expect(agg.snapshot().overBudgetInFlight).toBe(0);
    agg.ingestEvents([attempt(30, 4), attempt(40, 5)]);
    expect(agg.snapshot().overBudgetInFlight).toBe(1);
    expect(agg.snapshot().totals.overBudgetOps).toBe(1);
    agg.ingestEvents([{ t: 50, type: 'op.end', op: 7, status: 'Ok', attempts: 5, latencyMs: 50, reason: 'success' }]);
    expect(agg.snapshot().overBudgetInFlight).toBe(0);
  });
});

describe('TelemetryAggregator: the workload before its first Start', () => {
  it('a first Start after the boot is a span from 0 ("not started"); an early one and later Starts add none', () => {
    const late = new TelemetryAggregator(() => DEFAULT_CLIENT_CONFIG);
    expect(late.noteWorkload(true, 1_700)).toBe(true);
    expect(late.pauses).toEqual([{ from: 0, to: 1_700 }]);
    expect(late.noteWorkload(true, 5_000)).toBe(false);
    late.noteWorkload(false, 6_000);
    late.noteWorkload(true, 8_000);
    expect(late.pauses).toEqual([{ from: 0, to: 1_700 }, { from: 6_000, to: 8_000 }]);
    const early = new TelemetryAggregator(() => DEFAULT_CLIENT_CONFIG);
    expect(early.noteWorkload(true, 20)).toBe(false);
    expect(early.pauses).toEqual([]);
    // a recorded schedule says itself when the workload started: a lone resume in it is no pause from 0
    const replay = new TelemetryAggregator(() => DEFAULT_CLIENT_CONFIG);
    expect(replay.noteWorkload(true, 3_000, false)).toBe(false);
    expect(replay.pauses).toEqual([]);
  });
});
