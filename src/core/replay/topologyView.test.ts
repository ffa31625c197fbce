import { describe, expect, it } from 'vitest';
import { clusterViewOf } from '../cluster/views';
import { runScenario } from '../sim/runScenario';
import { loadScenario } from '../sim/scenario';
import { shortenedPreset } from '../sim/testkit/presetInputs';
import type { ClusterEvent, ZarisEvent } from '../telemetry/events';
import { clusterViewFromEvents, type TopologyFacts } from './topologyView';

function factsOf(events: readonly ZarisEvent[]): TopologyFacts {
  const cluster = events.filter((e): e is ClusterEvent => e.type === 'topology' || e.type === 'fault');
  const maxRoutedNode = events.reduce((m, e) => (e.type === 'attempt.start' && e.node !== null ? Math.max(m, e.node) : m), -1);
  return { cluster, maxRoutedNode };
}

describe('the cluster view of an events file', () => {
  for (const id of ['failover', 'scale-out', 'failback', 'full-churn']) {
    it(`${id}: the view rebuilt from the events matches the engine's cluster (owners, phases, epoch, node status) at the end`, () => {
      const sc = loadScenario(shortenedPreset(id, 30_000, 0.05));
      const events: ZarisEvent[] = [];
      const { engine } = runScenario(sc, { sinks: [{ emit: (e) => events.push(e) }] });
      const truth = clusterViewOf(engine.state, sc.durationMs);
      const got = clusterViewFromEvents(factsOf(events), sc.durationMs);
      expect(got.lacks).toBeNull();
      expect(got.view?.epoch).toBe(truth.epoch);
      expect(got.view?.owners).toEqual(truth.owners);
      expect(got.view?.phases).toEqual(truth.phases);
      // the file has no replica sets: the panel shows "—", not "replica of 0"
      expect(got.view?.replicasUnknown).toBe(true);
      expect(got.view?.nodes.map((n) => n.status)).toEqual(truth.nodes.map((n) => n.status));
    });
  }

  it('at an earlier time it shows the cluster before the change', () => {
    const sc = loadScenario(shortenedPreset('failover', 30_000, 0.05));
    const events: ZarisEvent[] = [];
    runScenario(sc, { sinks: [{ emit: (e) => events.push(e) }] });
    const crash = events.find((e) => e.type === 'fault');
    const before = clusterViewFromEvents(factsOf(events), (crash?.t ?? 0) - 1).view;
    expect(before?.nodes.every((n) => n.status === 'up')).toBe(true);
    expect(before?.owners.every((o, s) => o === s % (before.nodes.length))).toBe(true);
  });

  it('names what a file without the initial layout lacks', () => {
    expect(clusterViewFromEvents({ cluster: [], maxRoutedNode: 2 }, 0)).toMatchObject({ view: null, lacks: expect.stringMatching(/lacks the "topology" event with change "initial".*no topology or fault events at all/) });
    const onlyFault: ClusterEvent = { t: 5, type: 'fault', action: 'failover', node: 1, segments: [] };
    expect(clusterViewFromEvents({ cluster: [onlyFault], maxRoutedNode: 2 }, 10).lacks).toMatch(/it has fault events but not the initial layout/);
  });
});
