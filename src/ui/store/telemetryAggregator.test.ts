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
