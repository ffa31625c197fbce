import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import type { ClientView, ClusterView } from '../bridge/types';
import { createDashboardStore } from './dashboardStore';
import { latencyBin, latencyBinValue } from './layout';
import {
  histogramQuantile,
  NO_LOG_FILTER,
  selectAttemptsPerOp,
  selectAttemptStatuses,
  selectBackoffByOutcome,
  selectConfigSummary,
  selectDebounceCeiling,
  selectEpochs,
  selectFilteredEvents,
  selectHeadline,
  selectLatencyQuantiles,
  selectNodeCards,
  selectParked,
  selectRefreshCallers,
  selectRefreshRates,
  selectRefreshRatesOverDebounce,
  selectSegmentCells,
  selectStaleCount,
  selectThroughputByOutcome,
  selectThroughputSplit,
  selectNoHealthySince,
  keyspaceText,
  keyspaceUnit,
  selectTimeDomain,
} from './selectors';
import { retriedOp, steadyOps } from './testEvents';
import type { ZarisEvent } from '../../core/telemetry/events';

function snapOf(events: ReturnType<typeof retriedOp>) {
  const store = createDashboardStore();
  store.getState().ingestEvents(events);
  store.getState().publish();
  return store.getState().snapshot;
}

describe('time-series selectors', () => {
  it('turns 100 ms buckets into per-second rates on 500 ms steps, leaving out the bucket still filling', () => {
    // 2 s of one op every 10 ms = 100 ops/s, then one event at 2.5 s to close the window
    const snap = snapOf([...steadyOps(200, 0, 10, 1), ...steadyOps(1, 2_500, 1, 999)]);
    const { rows, keys } = selectThroughputByOutcome(snap);
    expect(keys).toEqual(['Ok']);
    expect(rows.map((r) => r.t)).toEqual([0, 0.5, 1, 1.5, 2, 2.5]); // each step at its start, then the closing row at the end of the last step
    expect(rows.slice(0, 4).map((r) => r.Ok)).toEqual([100, 100, 100, 100]);
    expect(rows[4]?.Ok).toBe(0);
    expect(rows[5]).toEqual({ ...rows[4], t: 2.5 });
    expect(selectTimeDomain(snap)).toEqual([0, 2.5]);
    // per segment (all on segment 0 here); no segment is affected before a fault, so that side has no value
    expect(selectThroughputSplit(snap)[0]).toEqual({ t: 0, healthy: 100, affected: null });
  });

  it('says since when no segment is healthy: faults have named every one, so the healthy line ends', () => {
    const healthy = snapOf([...steadyOps(200, 0, 10, 1), ...steadyOps(1, 2_500, 1, 999)]);
    expect(selectNoHealthySince(healthy)).toBeNull(); // no fault: every segment healthy
    const fault: ZarisEvent = { t: 1_230, type: 'fault', action: 'failover', node: 1, segments: [0] };
    const named = snapOf([...steadyOps(100, 0, 10, 1), fault, ...steadyOps(100, 1_240, 10, 200), ...steadyOps(1, 2_500, 1, 999)]);
    expect(selectNoHealthySince(named)).toBe(1_200); // the fault's 100 ms bucket: segment 0 was the only one known
    expect(selectThroughputSplit(named).at(-2)).toMatchObject({ healthy: null });
    // a fault naming some segments only leaves a healthy side
    const some: ZarisEvent = { t: 1_230, type: 'fault', action: 'failover', node: 1, segments: [5] };
    expect(selectNoHealthySince(snapOf([...steadyOps(100, 0, 10, 1), some, ...steadyOps(100, 1_240, 10, 200), ...steadyOps(1, 2_500, 1, 999)]))).toBeNull();
  });

  it('draws no served rate before the first operation: the boot before Start is not an outage at 0 ops/s', () => {
    // the initial topology (segment 0 known, so a rate would be defined) and the first map fetched at boot, then nothing until Start at 1 s
    const boot: ReturnType<typeof steadyOps> = [
      { t: 0, type: 'topology', epoch: 1, change: 'initial', node: 0, segments: [0] },
      { t: 0, type: 'refresh.start', refresh: 1, op: null },
      { t: 200, type: 'refresh.end', refresh: 1, ok: true, epochBefore: 0, epochAfter: 1, node: 0, fetches: 1 },
    ];
    const snap = snapOf([...boot, ...steadyOps(230, 1_200, 10, 1), ...steadyOps(1, 3_700, 1, 999)]);
    const split = selectThroughputSplit(snap);
    expect(split.filter((r) => r.t < 1).map((r) => r.healthy)).toEqual([null, null]);
    // the step Start fell in (1.0–1.5 s, ops from 1.2 s) is a rate over 1.2–1.5 s drawn from 1.2 s, not diluted by the idle 1.0–1.2 s
    expect(split.find((r) => r.t === 1)).toBeUndefined(); // drawn from the first active bucket, not the step's start
    expect(split.find((r) => r.t === 1.2)?.healthy).toBeCloseTo(100, 6);
    expect(split.find((r) => r.t === 1.5)?.healthy).toBeCloseTo(100, 6);
    // the stacked outcomes beside it the same way
    const { rows } = selectThroughputByOutcome(snap);
    expect(rows.filter((r) => r.t < 1).map((r) => r.Ok)).toEqual([null, null]);
    expect(rows.find((r) => r.t === 1.2)?.Ok).toBeCloseTo(100, 6);
    // a window that does not begin at the session's start draws every step
    expect(selectThroughputSplit({ ...snap, window: { ...snap.window, firstBucket: 1 } })[0]?.healthy).toBe(0);
  });

  it('lists only outcomes seen in the window and counts attempts by outcome', () => {
    const snap = snapOf([...retriedOp(), ...steadyOps(1, 1_200, 1, 50)]);
    const { rows, keys } = selectAttemptStatuses(snap);
    expect(keys).toEqual(['Ok', 'Moved']);
    expect(rows[0]).toMatchObject({ t: 0, Moved: 4, Ok: 2 }); // 2 Moved + 1 Ok in the first 0.5 s = 4/s + 2/s
  });

  it('summarises retries: attempts-per-op histogram, backoff by status, callers per refresh', () => {
    const snap = snapOf([...retriedOp(), ...steadyOps(1, 1_200, 1, 50)]);
    expect(selectAttemptsPerOp(snap).slice(0, 3)).toEqual([
      { bin: '1', low: 1, ops: 1 },
      { bin: '2', low: 2, ops: 2 },
      { bin: '3', low: 3, ops: 0 },
    ]);
    expect(selectBackoffByOutcome(snap)).toEqual([
      { outcome: 'Moved', count: 1, meanMs: 100, maxMs: 100 },
      { outcome: 'Migrating', count: 1, meanMs: 800, maxMs: 800 },
    ]);
    expect(selectRefreshCallers(snap)[0]).toEqual({ t: 0, mean: 2, max: 2 });
    expect(selectRefreshCallers(snap)[1]).toEqual({ t: 0.5, mean: null, max: null });
  });

  it("begins a step at every break (a fault's bucket), so nothing after the fault is drawn before it", () => {
    // 100 ops/s for 1.3 s, then 300 ops/s from 1.3 s (the "fault" bucket 13) to 2 s
    const snap = snapOf([...steadyOps(130, 0, 10, 1), ...steadyOps(210, 1_300, 10 / 3, 500), ...steadyOps(1, 2_500, 1, 999)]);
    const plain = selectThroughputByOutcome(snap).rows;
    // without the break, the step 1.0–1.5 s mixes both rates and draws the rise from 1.0 s
    expect(plain.find((r) => r.t === 1)?.Ok).toBeGreaterThan(100);
    const cut = selectThroughputByOutcome(snap, { stepBuckets: 5, breaks: [13] }).rows;
    expect(cut.map((r) => r.t)).toEqual([0, 0.5, 1, 1.3, 1.5, 2, 2.5]);
    expect(cut.find((r) => r.t === 1)?.Ok).toBe(100); // 1.0–1.3 s: before the break, the old rate only
    expect(cut.find((r) => r.t === 1.3)?.Ok).toBeGreaterThan(250);
    // a break outside the window changes nothing
    expect(selectThroughputByOutcome(snap, { stepBuckets: 5, breaks: [9_999] }).rows).toEqual(plain);
  });

  it('gives the parked gauge at the end of each step', () => {
    const snap = snapOf([...retriedOp(), ...steadyOps(1, 1_200, 1, 50)]);
    expect(selectParked(snap)[0]).toEqual({ t: 0, attempt: 0, refreshWait: 0, backoff: 1 });
    expect(selectParked(snap)[1]).toEqual({ t: 0.5, attempt: 0, refreshWait: 0, backoff: 0 });
  });

  it('estimates latency quantiles from the log histogram within one bin', () => {
    const counts = new Float64Array(88);
    for (let ms = 1; ms <= 100; ms++) counts[latencyBin(ms)] = (counts[latencyBin(ms)] as number) + 1;
    const p50 = histogramQuantile(counts, 0.5) as number;
    const p99 = histogramQuantile(counts, 0.99) as number;
    expect(p50 / 50).toBeGreaterThan(0.9);
    expect(p50 / 50).toBeLessThan(1.1);
    expect(p99 / 99).toBeGreaterThan(0.9);
    expect(histogramQuantile(new Float64Array(88), 0.5)).toBeNull();
    expect(latencyBinValue(latencyBin(300))).toBeCloseTo(300, -2);
    const snap = snapOf([...steadyOps(50, 0, 10, 1), ...steadyOps(1, 1_000, 1, 99)]);
    expect(selectLatencyQuantiles(snap)[0]?.p50).toBeCloseTo(1, 0);
  });

  it('holds executed refreshes against the debounce ceiling over at least one debounce window, so a step a fault cut short reads no burst', () => {
    // one refresh every 500 ms (the debounce kept: 2/s), a fault's break at 1.3 s (bucket 13)
    const refreshes = [350, 850, 1_350, 1_850].flatMap((t, i) => [
      { t, type: 'refresh.start' as const, refresh: i + 1, op: null },
      { t: t + 5, type: 'refresh.end' as const, refresh: i + 1, ok: true, epochBefore: 1, epochAfter: 1, node: 0, fetches: 1 },
    ]);
    const snap = snapOf([...refreshes, ...steadyOps(1, 2_500, 1, 999)]);
    const plan = { stepBuckets: 5, breaks: [13] };
    const plain = selectRefreshRates(snap, plan);
    // per step, the 200 ms step 1.3–1.5 s holds one refresh: 5/s, above a ceiling the client kept
    expect(plain.find((r) => r.t === 1.3)?.executed).toBe(5);
    const held = selectRefreshRatesOverDebounce(snap, plan, 500);
    expect(held.map((r) => r.t)).toEqual(plain.map((r) => r.t)); // the same steps: the break still starts one
    expect(held.find((r) => r.t === 1.3)?.executed).toBe(2); // over 1.0–1.5 s
    for (const r of held) expect(r.executed as number).toBeLessThanOrEqual(selectDebounceCeiling(500, false) as number);
    // whole steps are as before
    for (const t of [0, 0.5, 1.5, 2]) expect(held.find((r) => r.t === t)).toEqual(plain.find((r) => r.t === t));
    // a burst the debounce did not stop still shows: two refreshes in that short step read 4/s over 500 ms
    const burst = snapOf([...refreshes, { t: 1_420, type: 'refresh.start' as const, refresh: 9, op: null }, ...steadyOps(1, 2_500, 1, 999)]);
    expect(selectRefreshRatesOverDebounce(burst, plan, 500).find((r) => r.t === 1.3)?.executed).toBe(4);
  });

  it('draws the debounce ceiling at 1000 / debounce per second (none with the debounce off)', () => {
    expect(selectDebounceCeiling(500, false)).toBe(2);
    expect(selectDebounceCeiling(500, true)).toBeNull();
    expect(selectDebounceCeiling(0, false)).toBeNull();
  });

  it('reports headline rates over the last second', () => {
    // ops until 3.0 s, then quiet until an event at 3.5 s: the last complete second (2.5–3.5 s) is half busy
    const snap = snapOf([...steadyOps(300, 0, 10, 1), ...steadyOps(1, 3_500, 1, 999)]);
    expect(selectHeadline(snap).opsPerSec).toBe(50);
    const busy = snapOf(steadyOps(300, 0, 10, 1));
    expect(selectHeadline(busy).opsPerSec).toBe(100);
    expect(selectHeadline(busy).failedPerSec).toBe(0);
  });
});

describe('cluster selectors', () => {
  const cluster: ClusterView = {
    t: 1000,
    epoch: 4,
    nodes: [
      { id: 0, status: 'up', declaredDead: false },
      { id: 1, status: 'down', declaredDead: true },
      { id: 2, status: 'up', declaredDead: false },
    ],
    owners: [0, 2, 2, -1],
    phases: ['stable', 'stable', 'migrating', 'stable'],
    replicas: [[1], [2], [0], []],
  };
  const client: ClientView = { t: 1000, epoch: 3, owners: [0, 1, 2, 1] };

  it('marks the segments whose owner is not up (they answer nothing until a replica is promoted)', () => {
    const down: ClusterView = { ...cluster, owners: [0, 1, 1, -1] };
    expect(selectSegmentCells(down, client).map((c) => c.ownerDown)).toEqual([false, true, true, false]);
    expect(selectSegmentCells(cluster, client).some((c) => c.ownerDown)).toBe(false);
  });

  it('marks segments where the client map disagrees with the cluster as stale', () => {
    const cells = selectSegmentCells(cluster, client);
    expect(cells.map((c) => c.stale)).toEqual([false, true, false, true]);
    expect(cells[2]).toMatchObject({ owner: 2, clientOwner: 2, phase: 'migrating' });
    expect(selectStaleCount(cluster, client)).toBe(2);
    expect(selectSegmentCells(cluster, null).some((c) => c.stale)).toBe(false);
    expect(selectSegmentCells(null, client)).toEqual([]);
    // before its first refresh the client has no map (epoch 0): nothing is stale yet
    const noMap: ClientView = { t: 0, epoch: 0, owners: [-1, -1, -1, -1] };
    expect(selectStaleCount(cluster, noMap)).toBe(0);
    expect(selectEpochs(cluster, noMap)).toEqual({ cluster: 4, client: null, behind: 0 });
  });

  it('builds node cards and compares epochs', () => {
    expect(selectNodeCards(cluster, client).map((n) => [n.id, n.status, n.owned, n.replicaOf, n.clientRouted])).toEqual([
      [0, 'up', 1, 1, 1],
      [1, 'down', 0, 1, 2],
      [2, 'up', 2, 1, 1],
    ]);
    expect(selectEpochs(cluster, client)).toEqual({ cluster: 4, client: 3, behind: 1 });
  });
});

describe('log and summary selectors', () => {
  it('filters the event log by op id, type and status, newest first', () => {
    const snap = snapOf(retriedOp());
    const byOp = selectFilteredEvents(snap.events, { ...NO_LOG_FILTER, op: '2' });
    expect(byOp.map((e) => e.event.type)).toEqual(['op.end', 'attempt.end', 'attempt.start', 'backoff', 'refresh.coalesced', 'refresh.request', 'attempt.end', 'attempt.start', 'op.start']);
    const moved = selectFilteredEvents(snap.events, { ...NO_LOG_FILTER, type: 'attempt.end', outcome: 'Moved' });
    expect(moved.map((e) => e.event.t)).toEqual([70, 60]);
  });

  it('summarises the client configuration', () => {
    expect(selectConfigSummary(DEFAULT_CLIENT_CONFIG)).toBe('3 attempts · backoff 100 ms · deadline 1 min · wait 15 s · debounce 500 ms · attempt timeout 1 s');
    expect(selectConfigSummary({ ...DEFAULT_CLIENT_CONFIG, operationTimeoutMs: null, disableRetries: true })).toMatch(/^retries off · .* · no deadline/);
  });
});

describe('the keyspace unit', () => {
  it('is the hash slot on a view that carries slots (the real engine), else the scenario\'s segment', () => {
    const view = { t: 0, epoch: 1, nodes: [], owners: [], phases: [], replicas: [] };
    expect([keyspaceUnit(null), keyspaceText(null, 64)]).toEqual(['segment', '64 segments']);
    expect([keyspaceUnit(view), keyspaceText(view, 64)]).toEqual(['segment', '64 segments']);
    expect([keyspaceUnit({ ...view, slots: 16_384 }), keyspaceText({ ...view, slots: 16_384 }, 64)]).toEqual(['hash slot', '16,384 hash slots']);
  });
});
