import { describe, expect, it } from 'vitest';
import { ControlState } from '../cluster/controlState';
import { DEFAULT_CLUSTER_CONFIG } from '../cluster/clusterConfig';
import { NO_OWNER } from '../domain/clusterMap';
import { AvailabilitySink, AvailabilityWatch, promotionBoundMs, segmentRisk } from './availabilityRule';

const config = { ...DEFAULT_CLUSTER_CONFIG, nodes: 3, segments: 3, replicas: 1 };
const bound = promotionBoundMs(config);

describe('replicatedSegmentsAvailable (availabilityRule)', () => {
  it('the bound is failureTimeoutMs + 2 heartbeats + slack', () => {
    expect(bound).toBe(3_500 + 1_000 + 50);
  });

  it('a crashed owner with an up in-sync replica awaits promotion; a promotion within the bound is fine, a longer wait is a violation', () => {
    const st = new ControlState(config);
    const w = new AvailabilityWatch(st);
    st.node(0).status = 'down';
    expect(segmentRisk(st, st.segment(0))).toBe('awaitingPromotion');
    w.observe(1_000);
    st.segment(0).owner = 1;
    st.segment(0).replicas = [];
    w.observe(1_000 + bound);
    expect(w.violations).toBe(0);
    // again, too slow this time
    st.node(0).status = 'up';
    st.node(1).status = 'down';
    st.segment(0).replicas = [0];
    w.observe(10_000);
    st.segment(0).owner = NO_OWNER;
    w.observe(10_000 + bound + 1);
    expect(w.violations).toBe(0); // the in-sync replica is still up: the episode goes on
    st.segment(0).owner = 0;
    st.segment(0).replicas = [];
    w.observe(10_000 + bound + 2);
    expect(w.violations).toBe(1);
    expect(w.examples[0]).toMatch(/^segment 0 \(awaitingPromotion\) from 10000 ms/);
  });

  it('an up assigned member outside the replica set (room left) while the owner serves is a missing replica; still open at the end, it counts', () => {
    const st = new ControlState(config);
    const w = new AvailabilityWatch(st);
    st.segment(0).replicas = [];
    expect(segmentRisk(st, st.segment(0))).toBe('replicaMissing');
    w.observe(0);
    w.finish(bound + 1);
    expect(w.violations).toBe(1);
  });

  it('an episode ends when the last up in-sync replica goes silent too: a member left only outside the set has no source (live property test, seed 23)', () => {
    const st = new ControlState({ ...config, replicas: 2 }); // segment 0: owner 0, replicas [1, 2]
    const w = new AvailabilityWatch(st);
    st.segment(0).replicas = [1]; // node 2 is out of the set (it came back while the owner was silent)
    st.node(0).status = 'hung';
    expect(segmentRisk(st, st.segment(0))).toBe('awaitingPromotion');
    w.observe(400);
    st.node(1).status = 'hung'; // the in-sync replica hangs as well: no up, caught-up member is left
    w.observe(450);
    w.finish(400 + 10 * bound);
    // (segment 1, whose owner 1 hung with node 2 up in its set, does await a promotion that never comes)
    expect(w.examples.filter((e) => e.startsWith('segment 0 '))).toEqual([]);
  });

  it('a member that returns while no owner serves is not at risk (it has no source to catch up from)', () => {
    const st = new ControlState(config);
    const w = new AvailabilityWatch(st);
    st.node(0).status = 'down';
    st.node(0).declaredDead = true;
    st.segment(0).owner = NO_OWNER;
    st.segment(0).replicas = [];
    w.observe(0);
    w.finish(60_000);
    expect(w.violations).toBe(0);
  });

  it('a down or recovering replica is no caught-up replica', () => {
    const st = new ControlState(config);
    st.node(0).status = 'down';
    st.node(1).status = 'recovering';
    expect(segmentRisk(st, st.segment(0))).toBe(null);
  });

  it('a finished watch reports at any time t what a watch stopped at t reports (a replay cursor)', () => {
    // two outages of segment 0 and one of segment 2, one still open at the end
    const steps: [number, (st: ControlState) => void][] = [
      [1_000, (st) => void (st.node(0).status = 'down')],
      [1_000 + bound + 500, (st) => void ((st.segment(0).owner = 1), (st.segment(0).replicas = []))],
      [12_000, (st) => void ((st.node(0).status = 'up'), (st.node(1).status = 'down'), (st.segment(0).replicas = [0]))],
      [13_000, (st) => void (st.node(2).status = 'hung')],
      [12_000 + bound + 2_000, (st) => void ((st.segment(0).owner = 0), (st.segment(0).replicas = []))],
    ];
    const end = 30_000;
    const runTo = (t: number): AvailabilityWatch => {
      const st = new ControlState(config);
      const w = new AvailabilityWatch(st);
      w.observe(0);
      for (const [at, step] of steps) {
        if (at > t) break;
        step(st);
        w.observe(at);
      }
      w.finish(t);
      return w;
    };
    const whole = runTo(end);
    expect(whole.violations).toBeGreaterThanOrEqual(3);
    expect(whole.violationsAt(Infinity)).toEqual({ violations: whole.violations, examples: whole.examples });
    for (const t of [0, 999, 1_000 + bound, 1_000 + bound + 1, 1_000 + bound + 500, 12_500, 13_000 + bound, 13_000 + bound + 1, 12_000 + bound + 2_000, 25_000, end]) {
      const stopped = runTo(t);
      expect({ t, ...whole.violationsAt(t) }).toEqual({ t, violations: stopped.violations, examples: stopped.examples });
    }
  });
});

describe('the rule while a run goes on (reportAt: the live playground)', () => {
  it('lists an episode still open past the bound as "so far", after the closed ones; the watch goes on unchanged', () => {
    const st = new ControlState(config);
    const w = new AvailabilityWatch(st);
    st.node(0).status = 'down';
    w.observe(1_000);
    expect(w.reportAt(1_000 + bound)).toEqual({ violations: 0, examples: [] });
    const late = w.reportAt(1_000 + bound + 500);
    expect(late.violations).toBe(1);
    expect(late.examples).toEqual([`segment 0 (awaitingPromotion) from 1000 ms for ${bound + 500} ms so far`]);
    expect(w.violations).toBe(0);
    // promoted at last: the episode closes as a violation, and reportAt lists it as closed
    st.segment(0).owner = 1;
    st.segment(0).replicas = [];
    st.node(0).declaredDead = true;
    w.observe(1_000 + bound + 600);
    expect(w.reportAt(1_000 + bound + 700)).toEqual({ violations: 1, examples: [`segment 0 (awaitingPromotion) from 1000 ms for ${bound + 600} ms`] });
  });

  it('AvailabilitySink re-evaluates at fault and topology events only', () => {
    const st = new ControlState(config);
    const sink = new AvailabilitySink();
    sink.watchCluster(st);
    st.node(0).status = 'down';
    sink.emit({ t: 10, type: 'refresh.start', reason: 'Moved' } as never);
    expect(sink.reportAt(10 + bound + 1)?.violations).toBe(0);
    sink.emit({ t: 20, type: 'fault', action: 'failover', node: 0, segments: [0] } as never);
    expect(sink.reportAt(20 + bound + 1)?.violations).toBe(1);
  });
});
