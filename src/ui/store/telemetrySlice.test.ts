import { describe, expect, it } from 'vitest';
import { OUTCOMES, OUTCOME_CODE } from '../../core/domain/status';
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import { createDashboardStore } from './dashboardStore';
import { BUCKET_MS, LOG_CAPACITY, METRIC_WIDTH, PHASES, REFRESH_KINDS, WINDOW_BUCKETS, type Metric } from './layout';
import type { TelemetrySnapshot } from './snapshot';
import { retriedOp, steadyOps } from './testEvents';

/** value k of metric m in the bucket covering time t */
function at(snap: TelemetrySnapshot, m: Metric, t: number, k = 0): number {
  const i = Math.floor(t / BUCKET_MS) - snap.window.firstBucket;
  return snap.window.cols[m][i * METRIC_WIDTH[m] + k] as number;
}

function ingested(events: ReturnType<typeof retriedOp>) {
  const store = createDashboardStore();
  store.getState().ingestEvents(events);
  store.getState().publish();
  return store;
}

describe('telemetry slice: windowed aggregates', () => {
  it('places counts in the 100 ms bucket of their event', () => {
    const snap = ingested(retriedOp()).getState().snapshot;
    const moved = OUTCOME_CODE.Moved;
    expect(at(snap, 'attemptsByOutcome', 60, moved)).toBe(2); // t 60 and t 70 share bucket 0
    expect(at(snap, 'attemptsByOutcome', 255, OUTCOME_CODE.Ok)).toBe(1);
    expect(at(snap, 'attemptsByOutcome', 952, OUTCOME_CODE.Ok)).toBe(1);
    expect(at(snap, 'retries', 250)).toBe(1);
    expect(at(snap, 'retries', 950)).toBe(1);
    expect(at(snap, 'opsByOutcome', 952, OUTCOME_CODE.Ok)).toBe(1);
    expect(at(snap, 'endReasons', 952, 0)).toBe(1);
    expect(snap.totals).toMatchObject({ opsEnded: 2, opsOk: 2, opsFailed: 0, attempts: 4, retries: 2, refreshRequested: 2, refreshExecuted: 1, maxAttemptsPerOp: 2 });
  });

  it('keeps backoff count, sum and max per causing outcome (the ×8 after Migrating shows)', () => {
    const snap = ingested(retriedOp()).getState().snapshot;
    expect(at(snap, 'backoffCount', 150, OUTCOME_CODE.Migrating)).toBe(1);
    expect(at(snap, 'backoffSumMs', 150, OUTCOME_CODE.Migrating)).toBe(800);
    expect(at(snap, 'backoffMaxMs', 150, OUTCOME_CODE.Migrating)).toBe(800);
    expect(at(snap, 'backoffMaxMs', 150, OUTCOME_CODE.Moved)).toBe(100);
  });

  it('counts refresh kinds and callers per executed refresh', () => {
    const snap = ingested(retriedOp()).getState().snapshot;
    const r = (k: (typeof REFRESH_KINDS)[number], t: number) => at(snap, 'refresh', t, REFRESH_KINDS.indexOf(k));
    expect(r('requested', 60)).toBe(2);
    expect(r('executed', 60)).toBe(1);
    expect(r('coalesced', 70)).toBe(1);
    expect(at(snap, 'refreshCallers', 150, 0)).toBe(1); // one refresh ended
    expect(at(snap, 'refreshCallers', 150, 1)).toBe(2); // serving two callers
    expect(at(snap, 'refreshCallers', 150, 2)).toBe(2);
  });

  it('gauges where in-flight operations are parked, carried into quiet buckets', () => {
    const snap = ingested(retriedOp()).getState().snapshot;
    const parked = (t: number) => PHASES.map((_, k) => at(snap, 'parked', t, k));
    expect(parked(70)).toEqual([0, 2, 0]); // both wait for the refresh
    expect(parked(150)).toEqual([0, 0, 2]); // both sleep in backoff
    expect(parked(500)).toEqual([0, 0, 1]); // quiet bucket: op 1 still sleeps
    expect(parked(952)).toEqual([0, 0, 0]);
    expect(snap.parkedNow).toEqual({ attempt: 0, refreshWait: 0, backoff: 0 });
  });

  it('splits throughput into healthy and fault-affected segments', () => {
    const store = createDashboardStore();
    store.getState().ingestEvents([{ t: 10, type: 'fault', action: 'failover', node: 1, segments: [7, 8] }]);
    store.getState().ingestEvents([...steadyOps(3, 20, 10, 1, 0), ...steadyOps(2, 20, 10, 100, 7)]);
    store.getState().publish();
    const snap = store.getState().snapshot;
    expect(at(snap, 'opsBySplit', 30, 0)).toBe(3);
    expect(at(snap, 'opsBySplit', 30, 1)).toBe(2);
    // served operations only: a failed one on an affected segment is not throughput there
    const failing = createDashboardStore();
    failing.getState().ingestEvents([
      { t: 10, type: 'fault', action: 'failover', node: 1, segments: [7] },
      { t: 20, type: 'op.start', op: 1, kind: 'get', key: 'k', segment: 7, deadline: null, budget: 3 },
      { t: 25, type: 'op.end', op: 1, error: 'NodeUnavailable', attempts: 3, latencyMs: 5, reason: 'attemptsExhausted' },
      ...steadyOps(1, 20, 10, 2, 7),
    ]);
    failing.getState().publish();
    expect(at(failing.getState().snapshot, 'opsBySplit', 30, 1)).toBe(1);
    expect(snap.affectedSegments).toEqual([7, 8]);
    expect(store.getState().faultMarkers).toEqual([{ t: 10, action: 'failover', node: 1, segments: 2 }]);
  });

  it('wraps around: memory stays bounded over a long session', () => {
    const store = createDashboardStore();
    const agg = store.getState().aggregator;
    const sizes = () => Object.values(agg.ring.cols).map((c) => c.length);
    const before = sizes();
    let op = 1;
    // 300 s of traffic in 1 s batches of 200 ops each
    for (let s = 0; s < 300; s++) {
      store.getState().ingestEvents(steadyOps(200, s * 1000, 5, op));
      op += 200;
    }
    store.getState().publish();
    const snap = store.getState().snapshot;
    expect(sizes()).toEqual(before);
    expect(snap.window.length).toBe(WINDOW_BUCKETS);
    expect(snap.window.firstBucket).toBe(Math.floor(299_996 / BUCKET_MS) - WINDOW_BUCKETS + 1);
    expect(snap.events.length).toBe(LOG_CAPACITY);
    expect(snap.events[snap.events.length - 1]?.event.type).toBe('op.end');
    expect(snap.totals.opsEnded).toBe(60_000);
    // every complete bucket of the window holds 20 ops (one per 5 ms)
    expect(at(snap, 'opsByOutcome', 250_000, OUTCOME_CODE.Ok)).toBe(20);
    expect(snap.parkedNow).toEqual({ attempt: 0, refreshWait: 0, backoff: 0 });
  });

  it('places late (out-of-order) events within the window in their own bucket', () => {
    const store = createDashboardStore();
    store.getState().ingestEvents(steadyOps(1, 9_000, 1, 1));
    store.getState().ingestEvents(steadyOps(1, 5_000, 1, 2));
    store.getState().publish();
    const snap = store.getState().snapshot;
    expect(at(snap, 'opsByOutcome', 5_000, OUTCOME_CODE.Ok)).toBe(1);
    expect(at(snap, 'opsByOutcome', 9_000, OUTCOME_CODE.Ok)).toBe(1);
    expect(snap.totals.opsEnded).toBe(2);
  });
});

describe('telemetry slice: publishing', () => {
  it('does one store update per batch and publishes snapshots only on demand', () => {
    const store = createDashboardStore();
    let updates = 0;
    store.subscribe(() => updates++);
    const b = new EventBatchBuilder();
    for (const e of steadyOps(100, 0, 3, 1)) b.push(e);
    const first = store.getState().snapshot;
    store.getState().ingestBatch(b.take());
    expect(updates).toBe(1);
    expect(store.getState().snapshot).toBe(first); // panels see nothing new yet
    store.getState().publish();
    expect(updates).toBe(2);
    const published = store.getState().snapshot;
    expect(published.totals.opsEnded).toBe(100);
    store.getState().publish(); // nothing new: no update, same snapshot
    expect(updates).toBe(2);
    expect(store.getState().snapshot).toBe(published);
  });

  it('publishes immutable copies: later batches do not change an earlier snapshot', () => {
    const store = createDashboardStore();
    store.getState().ingestEvents(steadyOps(10, 0, 10, 1));
    store.getState().publish();
    const snap = store.getState().snapshot;
    const copy = Float64Array.from(snap.window.cols.opsByOutcome);
    store.getState().ingestEvents(steadyOps(10, 0, 10, 100));
    store.getState().publish();
    expect(Array.from(snap.window.cols.opsByOutcome)).toEqual(Array.from(copy));
    expect(OUTCOMES.length * snap.window.length).toBe(snap.window.cols.opsByOutcome.length);
  });

  it('starts a new session when time jumps back by more than 10 s', () => {
    const store = createDashboardStore();
    store.getState().ingestEvents(steadyOps(10, 30_000, 10, 1));
    store.getState().ingestEvents(steadyOps(3, 0, 10, 1));
    store.getState().publish();
    expect(store.getState().snapshot.totals.opsEnded).toBe(3);
  });
});
