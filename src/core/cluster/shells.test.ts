/**
 * One core, two shells: the same fault schedule through the simulation's
 * shell (`sim/simControl.ts`, modelled detection, store copies) and the
 * live playground's (`live/liveControl.ts` with `LiveNode`s on simulated
 * ports, heartbeats, messages) ends in the same cluster — same owners,
 * replicas, phases, members and epoch — through the same topology changes.
 * Times differ (heartbeats vs the heartbeat model, message latencies), the
 * answers do not.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { Recorder } from '../sim/testkit/recorder';
import { SimCluster } from '../sim/simCluster';
import { SimControl } from '../sim/simControl';
import { VirtualScheduler } from '../time/virtualScheduler';
import { DEFAULT_CLUSTER_CONFIG, type ClusterConfig } from './clusterConfig';
import type { ControlState } from './controlState';
import type { FaultCommand } from './faults';
import { LiveCluster } from './live/testkit/liveCluster';

const CONFIG: ClusterConfig = { ...DEFAULT_CLUSTER_CONFIG, nodes: 3, segments: 12, replicas: 1 };

type Step = readonly [atMs: number, fault: FaultCommand];

/** what both shells must agree on */
function outcome(state: ControlState, topology: readonly { change: string; node: number; segments: readonly number[] }[]) {
  return {
    epoch: state.epoch,
    nodes: state.nodes.map((n) => `${n.id}:${n.status}${n.declaredDead ? ':dead' : ''}`),
    segments: state.segments.map((s) => `${s.owner}/${s.replicas.join(',')}/${s.phase}`),
    topology: topology.map((e) => `${e.change} ${e.node} [${e.segments.join(',')}]`),
  };
}

function simulated(steps: readonly Step[], endMs: number) {
  const cluster = new SimCluster(CONFIG);
  const sched = new VirtualScheduler();
  const rec = new Recorder();
  const control = new SimControl(cluster, sched, Rng.seeded(1).stream(2), rec);
  control.announce();
  for (const [at, f] of steps) sched.at(at, () => control.apply(f));
  sched.advanceTo(endMs);
  return outcome(cluster.control, rec.of('topology'));
}

function live(steps: readonly Step[], endMs: number) {
  const c = new LiveCluster(CONFIG);
  for (const [at, f] of steps) {
    c.run(at - c.sched.now());
    if (f.action === 'failover') c.kill(f.node as number);
    else if (f.action === 'failback') c.restart(f.node as number);
    else if (f.action === 'scaleOut') c.scaleOut();
    else c.fault(f);
  }
  c.run(endMs - c.sched.now());
  return outcome(c.control.state, c.rec.of('topology'));
}

const schedules: [string, Step[]][] = [
  ['failover', [[1_000, { action: 'failover', node: 1 }]]],
  [
    'failover, then failback (catch-up, handback through the fence)',
    [
      [1_000, { action: 'failover', node: 1 }],
      [6_000, { action: 'failback', node: 1 }],
    ],
  ],
  ['scale-out (migrations through the fence)', [[1_000, { action: 'scaleOut' }]]],
  [
    'scale-out while a node is down but not yet declared dead (re-plan after the detection)',
    [
      [1_000, { action: 'failover', node: 2 }],
      [1_500, { action: 'scaleOut' }],
    ],
  ],
  [
    'a short hang (not detected), a long one (detected), resume',
    [
      [1_000, { action: 'hang', node: 0, durationMs: 300 }],
      [3_000, { action: 'hang', node: 2 }],
      [9_000, { action: 'resume', node: 2 }],
    ],
  ],
];

describe('the simulation and the live playground give the same answers for the same faults', () => {
  it.each(schedules)('%s', (_name, steps) => {
    const end = (steps.at(-1)?.[0] ?? 0) + 12_000;
    const sim = simulated(steps, end);
    expect(live(steps, end)).toEqual(sim);
    expect(sim.topology.length).toBeGreaterThan(1);
  });
});
