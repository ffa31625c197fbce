/**
 * Regression tests of issue 11's fixes 2 and 3, on the headless engine
 * (the live protocol's twins are in `cluster/live/liveCluster.test.ts`):
 * - a member that fails back rejoins the replica sets it was only a replica
 *   of, so the next failure of those segments' owner is a failover, not an
 *   outage;
 * - a scale-out while a member is down but not yet declared dead gets a new
 *   rebalance plan once the member is declared dead.
 */
import { describe, expect, it } from 'vitest';
import { NO_OWNER } from '../domain/clusterMap';
import { runScenario } from './runScenario';
import { loadScenario, type ScenarioInput } from './scenario';
import { SimEngine } from './engine';

const base: ScenarioInput = {
  name: 'regression',
  seed: 1,
  durationMs: 20_000,
  cluster: { nodes: 3, segments: 64, replicas: 1 },
  workload: { ratePerSec: 2000, maxInFlight: 512, keys: 2000 },
};

describe('fix 2: a returning member rejoins the replica sets it was only a replica of', () => {
  const scenario = loadScenario({
    ...base,
    faults: [
      { atMs: 2000, action: 'failover', node: 1 },
      { atMs: 8000, action: 'failback', node: 1 },
      { atMs: 12_000, action: 'failover', node: 0 },
    ],
  });
  const node0 = Array.from({ length: 64 }, (_, s) => s).filter((s) => s % 3 === 0);

  it('after its catch-up, node 1 is the in-sync replica of node 0’s segments again', () => {
    const e = new SimEngine(scenario);
    e.runTo(11_000);
    for (const s of node0) expect(e.state.segment(s)).toMatchObject({ owner: 0, replicas: [1] });
  });

  it('the failure of node 0 at 12 s promotes node 1 (no segment is left without an owner)', () => {
    const e = new SimEngine(scenario);
    e.runTo(16_500);
    for (const s of node0) expect(e.state.segment(s).owner).toBe(1);
    expect(e.state.segments.filter((s) => s.owner === NO_OWNER)).toEqual([]);
  });

  it('no operation fails after the promotion; the availability invariant holds', () => {
    const { summary } = runScenario(scenario);
    // seconds 17–20: after detection + promotion (≤ 4.5 s after 12 s)
    expect(summary.throughput.failed.slice(17)).toEqual([0, 0, 0]);
    const check = summary.invariants.checks.find((c) => c.name === 'replicatedSegmentsAvailable');
    expect(check).toMatchObject({ ok: true, violations: 0 });
  });
});

describe('fix 3: a scale-out while a member is down but not yet declared dead', () => {
  const scenario = loadScenario({
    ...base,
    faults: [
      { atMs: 2000, action: 'failover', node: 1 },
      { atMs: 3000, action: 'scaleOut' },
    ],
  });

  it('migrates segments at once and re-plans after the detector declares the member dead: the joiner reaches its share', () => {
    const e = new SimEngine(scenario);
    const owned: number[] = [];
    e.runTo(5_000);
    owned.push(e.state.ownedBy(3).length);
    e.runTo(20_000);
    owned.push(e.state.ownedBy(3).length);
    // before detection the share counts the down member (64 / 4 = 16); after it, 64 / 3 = 21
    expect(owned[0]).toBeGreaterThan(0);
    expect(owned[1]).toBeGreaterThanOrEqual(21);
    expect(e.state.node(3).status).toBe('up');
  });
});
