import { describe, expect, it } from 'vitest';
import { findPreset } from '../../core/sim/presets';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import { typeAt } from '../../core/telemetry/eventCodec';
import type { ClientView, ClusterView } from '../bridge/types';
import { SimFeed } from '../dev/SimFeed';
import { createDashboardStore, createStoreListener } from './dashboardStore';
import { selectInvariantRows, selectSegmentCells, selectStaleCount, selectThroughputSplit } from './selectors';

const failover = (): Scenario => loadScenario(findPreset('failover')?.input);

/** a SimFeed on a hand-turned clock: every tick advances `stepMs` of real (= virtual) time */
function drive(scenario: Scenario, ms: number, stepMs = 100) {
  const batches: EventBatch[] = [];
  const views: { cluster: ClusterView[]; client: ClientView[] } = { cluster: [], client: [] };
  const store = createDashboardStore();
  const listener = createStoreListener(store);
  let clock = 0;
  const feed = new SimFeed(
    {
      onBatch: (b) => {
        batches.push(b);
        listener.onBatch(b);
      },
      onClusterView: (v) => {
        views.cluster.push(v);
        listener.onClusterView(v);
      },
      onClientView: (v) => {
        views.client.push(v);
        listener.onClientView(v);
      },
      onError: (m) => listener.onError(m),
      onWriteAudit: (a) => listener.onWriteAudit(a),
    },
    { now: () => clock, maxSliceMs: stepMs },
  );
  store.getState().beginSession(scenario, 'failover');
  return {
    store,
    feed,
    batches,
    views,
    advance(more: number) {
      for (let t = 0; t < more; t += stepMs) {
        clock += stepMs;
        feed.tick();
      }
    },
    async run() {
      await feed.loadScenario(scenario);
      await feed.start();
      this.advance(ms);
    },
  };
}

describe('the store fed by the headless engine (failover preset)', () => {
  it('counts exactly what the event stream holds', async () => {
    const d = drive(failover(), 10_000);
    await d.run();
    d.feed.dispose();
    d.store.getState().publish();
    const snap = d.store.getState().snapshot;
    let opEnds = 0;
    let attempts = 0;
    let faults = 0;
    for (const b of d.batches) {
      for (let i = 0; i < b.n; i++) {
        const ty = typeAt(b, i);
        if (ty === 'op.end') opEnds++;
        if (ty === 'attempt.start') attempts++;
        if (ty === 'fault') faults++;
      }
    }
    expect(opEnds).toBeGreaterThan(10_000);
    expect(snap.totals.opsEnded).toBe(opEnds);
    expect(snap.totals.attempts).toBe(attempts);
    expect(faults).toBe(1);
    expect(d.store.getState().faultMarkers).toHaveLength(1);
    expect(d.store.getState().faultMarkers[0]).toMatchObject({ action: 'failover', node: 1 });
    expect(snap.affectedSegments.length).toBeGreaterThan(0);
    // the crashed node's segments serve nothing until its replicas are promoted (9 s: detection), then serve again;
    // the budget of 3 attempts holds
    const split = selectThroughputSplit(snap);
    expect(split.filter((r) => r.t >= 5 && r.t < 9).every((r) => r.affected === 0)).toBe(true);
    expect(split.some((r) => r.t >= 9 && (r.affected ?? 0) > 0)).toBe(true);
    // per segment, the fixed client's healthy segments serve on at their pre-fault rate (in total,
    // "healthy" would lose the third of the traffic the crashed node's segments carried)
    const faultSec = (d.store.getState().faultMarkers[0]?.t ?? 0) / 1000;
    const mean = (rows: typeof split) => rows.reduce((a, r) => a + (r.healthy ?? 0), 0) / rows.length;
    const before = mean(split.filter((r) => r.t >= 1 && r.t < faultSec - 0.5));
    const after = mean(split.slice(0, -1).filter((r) => r.t >= faultSec + 1));
    expect(before).toBeGreaterThan(0);
    expect(after / before).toBeGreaterThan(0.85);
    expect(after / before).toBeLessThan(1.15);
    expect(split.filter((r) => r.t < faultSec - 0.5).every((r) => r.affected === null)).toBe(true);
    expect(snap.totals.maxAttemptsPerOp).toBeLessThanOrEqual(3);
    expect(selectInvariantRows(snap.invariants).verdict).toBe('ok');
  });

  it('pushes map views: the cluster fails node 1 over, the client map catches up', async () => {
    const d = drive(failover(), 12_000);
    await d.run();
    d.feed.dispose();
    const s = d.store.getState();
    expect(s.cluster?.nodes.find((n) => n.id === 1)?.status).toBe('down');
    expect(s.cluster?.owners.includes(1)).toBe(false);
    expect(s.client?.epoch).toBe(s.cluster?.epoch);
    expect(selectStaleCount(s.cluster, s.client)).toBe(0);
    // during detection the client routed to the dead node while the cluster had already moved on, or the reverse
    const staleSeen = d.views.cluster.some((c, i) => {
      const cl = d.views.client[i];
      return cl !== undefined && selectSegmentCells(c, cl).some((x) => x.stale);
    });
    expect(staleSeen).toBe(true);
  });

  it('pause stops new operations while the cluster keeps running; start resumes', async () => {
    const d = drive(failover(), 1_000);
    await d.run();
    const ended = () => {
      d.store.getState().publish();
      return d.store.getState().snapshot.totals.opsEnded;
    };
    const running = ended();
    expect(running).toBeGreaterThan(1_000);
    await d.feed.pause();
    d.advance(200); // in-flight operations finish
    const paused = ended();
    d.advance(1_000);
    expect(ended()).toBe(paused);
    expect(d.feed.virtualNow).toBeGreaterThanOrEqual(2_200); // the cluster's clock kept running
    await d.feed.start();
    d.advance(1_000);
    expect(ended() - paused).toBeGreaterThan(1_000);
    d.feed.dispose();
  });

  it('ingests a 5000 ops/s stream well within a frame budget per second of traffic', async () => {
    const d = drive(failover(), 4_000);
    await d.run();
    d.feed.dispose();
    const store = createDashboardStore();
    const t0 = performance.now();
    for (const b of d.batches) store.getState().ingestBatch(b);
    const ms = performance.now() - t0;
    const p0 = performance.now();
    store.getState().publish();
    const publishMs = performance.now() - p0;
    console.info(`ingest ${(ms / 4).toFixed(1)} ms per second of 5000 ops/s traffic; publish ${publishMs.toFixed(1)} ms`);
    expect(store.getState().snapshot.totals.opsEnded).toBeGreaterThan(10_000);
    expect(publishMs).toBeLessThan(50);
    // generous bound for CI machines: < 150 ms of main-thread work per second of traffic
    expect(ms / 4).toBeLessThan(150);
  });
});
