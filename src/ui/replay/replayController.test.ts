import { describe, expect, it } from 'vitest';
import { findPreset } from '../../core/sim/presets';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import { toNdjson } from '../../core/telemetry/eventSchema';
import type { ReplayListener } from '../bridge/replaySession';
import { createDashboardStore } from '../store/dashboardStore';
import { retriedOp, steadyOps } from '../store/testEvents';
import { looksLikeEvents, ReplayController, type ReplaySessionLike } from './replayController';

const failover = (): Scenario => loadScenario(findPreset('failover')?.input, 'failover');

/** a worker stand-in: load resets, seek streams the events up to t */
function fakeSession(listener: ReplayListener, calls: string[]): ReplaySessionLike {
  const events = [...retriedOp(), ...steadyOps(20, 1000, 50, 100)];
  let cursor = 0;
  return {
    load: async () => {
      calls.push('load');
      listener.onReset();
      cursor = 0;
    },
    seek: async (t) => {
      calls.push(`seek ${t}`);
      if (t < cursor) listener.onReset();
      const b = new EventBatchBuilder();
      for (const e of events) if (e.t <= t && (t < cursor || e.t > cursor || cursor === 0)) b.push(e);
      listener.onBatch(b.take());
      cursor = t;
      listener.onStatus({ cursorMs: t, durationMs: 16_000, playing: false, speed: 1, generation: 0 });
    },
    play: async () => void calls.push('play'),
    pause: async () => void calls.push('pause'),
    step: async () => void calls.push('step'),
    exportNdjson: async () => toNdjson(events),
    exportTrace: async () => '{}',
    dispose: () => void calls.push('dispose'),
  };
}

function setup() {
  const calls: string[] = [];
  const store = createDashboardStore();
  const ctl = new ReplayController(store, (l) => fakeSession(l, calls));
  return { calls, store, ctl };
}

describe('replay controller', () => {
  it('runs a scenario in the worker and feeds one cursor into the store and the timeline', async () => {
    const { calls, store, ctl } = setup();
    await ctl.loadScenario(failover(), 'preset failover', 'failover', 1500);
    expect(calls).toEqual(['load', 'seek 1500']);
    const st = ctl.ui.getState();
    expect(st.run?.identity).toMatchObject({ scenario: 'failover', seed: 1, nodes: 3, segments: 64, source: 'preset failover' });
    expect(st.status.cursorMs).toBe(1500);
    expect(st.loading).toBeNull();
    // the store was labelled with the scenario and got the events (published: the replay is paused)
    expect(store.getState().session.scenario).toBe('failover');
    expect(store.getState().snapshot.totals.opsEnded).toBeGreaterThan(0);
    expect(ctl.feed.recorder.sampling.keptOps).toBe(2 + 11);
  });

  it('imports an events file; a bad one names the line and keeps the current run', async () => {
    const { ctl } = setup();
    await ctl.loadScenario(failover(), 'preset failover', 'failover');
    const bad = new File(['{"t":0,"type":"op.start","op":1,"kind":"get","key":"k","segment":0}\n{"t":1,"type":"attempt.start","op":1}\n'], 'bad.ndjson');
    expect(await ctl.readFile(bad)).toBeNull();
    expect(ctl.ui.getState().error).toMatch(/bad\.ndjson: line 2: attempt(: required)?|line 2/);
    expect(ctl.ui.getState().run?.identity.scenario).toBe('failover');

    const good = new File([toNdjson(retriedOp())], 'run.ndjson');
    expect(await ctl.readFile(good)).toEqual({ kind: 'events', name: 'run.ndjson' });
    const st = ctl.ui.getState();
    expect(st.run).toMatchObject({ kind: 'events', identity: { scenario: 'run.ndjson', seed: null, client: null } });
    await Promise.resolve();
    expect(ctl.feed.recorder.sampling.keptOps).toBe(2);
    expect(ctl.feed.recorder.story(1)?.attempts).toHaveLength(2);
  });

  it('reads a scenario file back to the caller, and refuses an oversized file before reading it', async () => {
    const { ctl } = setup();
    const sc = new File([JSON.stringify({ name: 'mine', seed: 4, durationMs: 2000 })], 'mine.json');
    const got = await ctl.readFile(sc);
    expect(got?.kind === 'scenario' && got.scenario.seed).toBe(4);
    const huge = { name: 'huge.ndjson', size: 10 ** 10, text: async () => '' } as unknown as File;
    expect(await ctl.readFile(huge)).toBeNull();
    expect(ctl.ui.getState().error).toMatch(/too large/);
  });

  it('tells events from scenarios by name, then by content', () => {
    expect(looksLikeEvents('a.ndjson', '')).toBe(true);
    expect(looksLikeEvents('a.json', '{"t":0,"type":"op.start"}')).toBe(false);
    expect(looksLikeEvents('run.log', '\n{"t":0,"type":"op.start","op":1}')).toBe(true);
    expect(looksLikeEvents('x', '{"name":"s","seed":1}')).toBe(false);
  });
});
