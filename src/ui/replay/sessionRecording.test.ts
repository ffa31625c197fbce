import { describe, expect, it } from 'vitest';
import { ApplyTracker } from '../../core/sim/applyTracker';
import { findPreset } from '../../core/sim/presets';
import { runScenario } from '../../core/sim/runScenario';
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

  it("records the scenario's own faults at the session time they fired (they count from the first Start, so a late Start moves them), and unmatched faults as they came", () => {
    const rec = new SessionRecording(preset('failover'));
    rec.faultSeen(fault(5003, 'failover', 1));
    rec.faultSeen(fault(6000, 'hang', 0));
    expect(rec.toScenarioInput().faults).toEqual([
      { atMs: 5003, action: 'failover', node: 1 },
      { atMs: 6000, action: 'hang', node: 0 },
    ]);
  });

  it('leaves out a press the control plane ignored (it did nothing, and a scenario refuses such a fault)', () => {
    const rec = new SessionRecording(preset('steady'));
    rec.pressed({ action: 'resume', node: 0 });
    rec.faultSeen({ ...fault(3000, 'resume', 0), segments: [], detail: 'ignored: node is up' });
    rec.pressed({ action: 'failover', node: 1 });
    rec.faultSeen(fault(5000, 'failover', 1));
    const input = rec.toScenarioInput();
    expect(input.faults).toEqual([{ atMs: 5000, action: 'failover', node: 1 }]);
    expect(loadScenario(input, 'recording').faults).toHaveLength(1);
  });

  it('two changes within one ms become one (the later values win), so the scenario loads (it refuses a setting given twice at one instant)', () => {
    const sc = preset('steady');
    const rec = new SessionRecording(sc);
    rec.configured({ ...sc.client, maxAttempts: 5 }, 2000.1);
    rec.configured({ ...sc.client, maxAttempts: 7, bugs: { ...sc.client.bugs, retryConflict: true } }, 2000.3);
    const input = rec.toScenarioInput();
    expect(input.changes).toEqual([{ atMs: 2000, client: { maxAttempts: 7, bugs: { retryConflict: true } } }]);
    expect(loadScenario(input, 'recording').changes).toHaveLength(1);
  });

  it('records configuration changes as the scenario\'s schedule, and the engine replays them', () => {
    const sc = preset('steady');
    const rec = new SessionRecording(sc);
    const storm = { ...sc.client, bugs: { ...sc.client.bugs, deadlineReplacesAttempts: true } };
    rec.configured(storm, 1000.4);
    rec.pressed({ action: 'failover', node: 1 });
    rec.faultSeen(fault(2000, 'failover', 1));
    rec.configured({ ...storm, maxAttempts: 5 }, 3000);
    rec.configured({ ...storm, maxAttempts: 5 }, 3100); // no change: not recorded
    rec.workloadSet({ ...sc.workload, keys: 50, mix: { get: 1, put: 0, delete: 0, cas: 0, createOnce: 0 } }, 3500);
    const input = rec.toScenarioInput();
    // the file starts from the session's own configuration
    expect(input.client?.bugs?.deadlineReplacesAttempts).toBe(false);
    expect(input.changes).toEqual([
      { atMs: 1000, client: { bugs: { deadlineReplacesAttempts: true } } },
      { atMs: 3000, client: { maxAttempts: 5 } },
      { atMs: 3500, workload: { keys: 50, mix: { get: 1, put: 0, delete: 0, cas: 0, createOnce: 0 } } },
    ]);
    expect(rec.changes.map((c) => c.summary)).toEqual([
      'bug toggles on: deadlineReplacesAttempts',
      'maxAttempts 3 → 5',
      'workload keys 50, mix {"get":1,"put":0,"delete":0,"cas":0,"createOnce":0}',
    ]);
    expect(input.description).toContain('3.0 s: maxAttempts 3 → 5');
    expect(input.description).toContain('failover n1 at 2.0 s');
    // the engine goes through the same configurations at the same times
    const replayed: ZarisEvent[] = [];
    runScenario(loadScenario({ ...input, durationMs: 4000 }, "recording"), { sinks: [{ emit: (e) => replayed.push(e) }] });
    const starts = replayed.filter((e): e is Extract<ZarisEvent, { type: 'op.start' }> => e.type === 'op.start');
    expect(new Set(starts.filter((e) => e.t < 3000).map((e) => e.budget))).toEqual(new Set([3]));
    expect(starts.filter((e) => e.t > 3000).every((e) => e.budget === 5)).toBe(true);
    expect(starts.filter((e) => e.t > 3600).every((e) => e.kind === 'get' && Number(e.key.slice(1)) < 50)).toBe(true);
  });

  it('records pauses, and a late first Start as a pause from the beginning', () => {
    const rec = new SessionRecording(preset('steady'));
    rec.started(2400);
    rec.pausedAt(5000);
    rec.pausedAt(5100); // already paused
    rec.started(8000);
    expect(rec.toScenarioInput().changes).toEqual([
      { atMs: 0, paused: true },
      { atMs: 2400, paused: false },
      { atMs: 5000, paused: true },
      { atMs: 8000, paused: false },
    ]);
    const early = new SessionRecording(preset('steady'));
    early.started(10);
    expect(early.toScenarioInput().changes).toBeUndefined();
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
    const audits: number[] = [];
    const sink: SessionListener = { onBatch: (b) => got.push(b.n), onClusterView: () => {}, onClientView: () => {}, onError: () => {}, onWriteAudit: (a) => audits.push(a.ambiguous.audited) };
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
    // the live client worker's ambiguous-write audit passes through to the page
    listener.onWriteAudit(new ApplyTracker().report());
    expect(audits).toEqual([0]);
    await controls.loadScenario(preset('failover'));
    expect(rec.recordedFaults).toEqual([]);
    await controls.start();
    await controls.pause();
    expect(calls).toEqual(['fault failover', 'load', 'start', 'pause']);
    expect(rec.changes.map((c) => c.what)).toEqual(['paused']);
  });

  it("records Pause and Start at the session's own times where it keeps them (the newest event of a paused session is from before the pause)", async () => {
    const times = { start: 1_000, pause: 5_000 };
    const inner: PlaygroundControls = {
      start: async () => times.start,
      pause: async () => times.pause,
      configureClient: async () => {},
      setWorkload: async () => {},
      fault: async () => {},
      loadScenario: async () => {},
      dispose: () => {},
    };
    const rec = new SessionRecording(preset('steady'));
    const controls = recordingControls(inner, rec);
    expect(await controls.start()).toBe(1_000);
    rec.observe(5_020);
    expect(await controls.pause()).toBe(5_000);
    times.start = 12_000;
    await controls.start();
    expect(rec.changes.map((c) => [c.what, c.atMs])).toEqual([
      ['started', 1_000],
      ['paused', 5_000],
      ['resumed', 12_000],
    ]);
  });
});
