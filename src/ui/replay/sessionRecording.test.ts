import { describe, expect, it } from 'vitest';
import { findPreset } from '../../core/sim/presets';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import type { FaultEvent, ZarisEvent } from '../../core/telemetry/events';
import type { PlaygroundControls, SessionListener } from '../bridge/types';
import { steadyOps } from '../store/testEvents';
import { recordingControls, recordingListener } from './recordingControls';
import { SessionRecording } from './sessionRecording';

const preset = (id: string): Scenario => loadScenario(findPreset(id)?.input, id);
const fault = (t: number, action: FaultEvent['action'], node: number): FaultEvent => ({ t, type: 'fault', action, node, segments: [1, 2] });

describe('session recording (live → scenario)', () => {
  it('records each pressed fault at the session time its fault event carries', () => {
    const rec = new SessionRecording(preset('steady'));
    rec.pressed({ action: 'failover', node: 1 });
    rec.observe(4000);
    rec.faultSeen(fault(5012.4, 'failover', 1));
    rec.pressed({ action: 'slow', node: 2, factor: 20, durationMs: 10_000 });
    rec.faultSeen(fault(7300, 'slow', 2));
    rec.pressed({ action: 'failback' });
    rec.faultSeen(fault(9100, 'failback', 1));
    rec.pressed({ action: 'scaleOut' });
    rec.faultSeen(fault(11_000, 'scaleOut', 3));
    rec.observe(12_345);
    const input = rec.toScenarioInput();
    expect(input.faults).toEqual([
      { atMs: 5012, action: 'failover', node: 1 },
      { atMs: 7300, action: 'slow', node: 2, factor: 20, durationMs: 10_000 },
      // a failback without a node is pinned to the node it brought back; a scale-out names none
      { atMs: 9100, action: 'failback', node: 1 },
      { atMs: 11_000, action: 'scaleOut' },
    ]);
    expect(input.durationMs).toBe(14_000);
    expect(input.name).toBe('steady-recorded');
    expect(input.seed).toBe(1);
    // it replays: the scenario loader accepts it as is
    const back = loadScenario(input, 'recording');
    expect(back.faults).toHaveLength(4);
    expect(back.workload).toEqual(preset('steady').workload);
  });

  it("keeps the scenario's own schedule as written, and unmatched faults as they came", () => {
    const rec = new SessionRecording(preset('failover'));
    rec.faultSeen(fault(5003, 'failover', 1));
    rec.faultSeen(fault(6000, 'hang', 0));
    expect(rec.toScenarioInput().faults).toEqual([
      { atMs: 5000, action: 'failover', node: 1 },
      { atMs: 6000, action: 'hang', node: 0 },
    ]);
  });

  it('uses the configuration in effect at the first fault and lists later changes', () => {
    const sc = preset('steady');
    const rec = new SessionRecording(sc);
    const storm = { ...sc.client, bugs: { ...sc.client.bugs, deadlineReplacesAttempts: true } };
    rec.configured(storm, 1000);
    rec.pressed({ action: 'failover', node: 1 });
    rec.faultSeen(fault(2000, 'failover', 1));
    rec.configured({ ...storm, maxAttempts: 5 }, 3000);
    const input = rec.toScenarioInput();
    expect(input.client?.bugs?.deadlineReplacesAttempts).toBe(true);
    expect(input.client?.maxAttempts).toBe(3);
    expect(rec.changes.map((c) => c.summary)).toEqual(['bug toggles on: deadlineReplacesAttempts', 'maxAttempts 3 → 5']);
    expect(input.description).toContain('3.0 s: maxAttempts 3 → 5');
    expect(input.description).toContain('failover n1 at 2.0 s');
  });

  it('a new session starts a new recording; a failed press is forgotten', () => {
    const rec = new SessionRecording(preset('steady'));
    rec.pressed({ action: 'failover', node: 1 });
    rec.faultSeen(fault(2000, 'failover', 1));
    rec.begin(preset('failover'));
    expect(rec.recordedFaults).toHaveLength(0);
    const cmd = { action: 'hang' as const, node: 2 };
    rec.pressed(cmd);
    rec.unpressed(cmd);
    rec.faultSeen(fault(5000, 'failover', 1));
    expect(rec.recordedFaults).toEqual([{ atMs: 5000, action: 'failover', node: 1 }]);
  });

  it('is fed by the wrapped controls and the session listener', async () => {
    const calls: string[] = [];
    const inner: PlaygroundControls = {
      start: async () => void calls.push('start'),
      pause: async () => void calls.push('pause'),
      configureClient: async () => void calls.push('configure'),
      setWorkload: async () => void calls.push('workload'),
      fault: async (c) => void calls.push(`fault ${c.action}`),
      loadScenario: async () => void calls.push('load'),
      dispose: () => void calls.push('dispose'),
    };
    const got: number[] = [];
    const sink: SessionListener = { onBatch: (b) => got.push(b.n), onClusterView: () => {}, onClientView: () => {}, onError: () => {} };
    const rec = new SessionRecording(preset('steady'));
    const controls = recordingControls(inner, rec);
    const listener = recordingListener(sink, rec);
    await controls.fault({ action: 'failover', node: 2 });
    const b = new EventBatchBuilder();
    const events: ZarisEvent[] = [...steadyOps(3, 3000, 10, 1), fault(3050, 'failover', 2), ...steadyOps(2, 3100, 10, 10)];
    for (const e of events) b.push(e);
    listener.onBatch(b.take());
    expect(got).toEqual([events.length]);
    expect(rec.recordedFaults).toEqual([{ atMs: 3050, action: 'failover', node: 2 }]);
    expect(rec.lastT).toBe(3111);
    await controls.loadScenario(preset('failover'));
    expect(rec.recordedFaults).toEqual([]);
    expect(calls).toEqual(['fault failover', 'load']);
  });
});
