import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG, type ClientConfig } from '../../core/client/config';
import type { FaultCommand } from '../../core/cluster/faults';
import type { Scenario } from '../../core/sim/scenario';
import { DEFAULT_WORKLOAD, type WorkloadConfig } from '../../core/sim/workloadConfig';
import type { PlaygroundControls } from '../bridge/types';
import { createDashboardStore } from '../store/dashboardStore';
import { clientFormOf, describeIssue, parseClientForm, parseWorkloadForm, workloadFormOf } from './formModel';
import { createSessionActions } from './sessionActions';
import { steadyOps } from '../store/testEvents';

/** records every call the controls make */
function fakeControls(fail: Partial<Record<keyof PlaygroundControls, string>> = {}) {
  const calls: [string, unknown][] = [];
  const rec = (name: keyof PlaygroundControls) => async (arg?: unknown) => {
    calls.push([name, arg]);
    if (fail[name]) throw new Error(fail[name]);
  };
  const controls: PlaygroundControls = {
    start: rec('start'),
    pause: rec('pause'),
    configureClient: rec('configureClient') as (c: ClientConfig) => Promise<void>,
    setWorkload: rec('setWorkload') as (w: WorkloadConfig) => Promise<void>,
    fault: rec('fault') as (f: FaultCommand) => Promise<void>,
    loadScenario: rec('loadScenario') as (s: Scenario) => Promise<void>,
    dispose: () => calls.push(['dispose', undefined]),
  };
  return { controls, calls };
}

describe('client config form', () => {
  it('round-trips the defaults and accepts an infinite deadline', () => {
    const form = clientFormOf(DEFAULT_CLIENT_CONFIG);
    expect(parseClientForm(form, DEFAULT_CLIENT_CONFIG)).toEqual({ ok: true, value: DEFAULT_CLIENT_CONFIG });
    const r = parseClientForm({ ...form, infinite: true }, DEFAULT_CLIENT_CONFIG);
    expect(r.ok && r.value.operationTimeoutMs).toBeNull();
    const typed = parseClientForm({ ...form, operationTimeoutMs: 'infinite' }, DEFAULT_CLIENT_CONFIG);
    expect(typed.ok && typed.value.operationTimeoutMs).toBeNull();
  });

  it('refuses bad values naming the field and the allowed values', () => {
    const form = { ...clientFormOf(DEFAULT_CLIENT_CONFIG), maxAttempts: '0', backoffMillis: 'fast', attemptTimeoutMs: '2.5' };
    const r = parseClientForm(form, DEFAULT_CLIENT_CONFIG);
    expect(r.ok).toBe(false);
    const text = r.ok ? [] : r.issues.map(describeIssue);
    // every line begins with the field's name, once
    for (const t of text) expect(t).not.toMatch(/^(\w+): \1 /);
    expect(text).toContain('maxAttempts must be ≥ 1 (allowed — Max attempts: whole number 1–1000)');
    expect(text).toContain('backoffMillis: "fast" is not a number (allowed — Backoff step: whole ms 0–60000)');
    expect(text.some((t) => t.startsWith('attemptTimeoutMs') && t.includes('whole ms ≥ 1'))).toBe(true);
  });
});

describe('workload form', () => {
  it('round-trips the defaults', () => {
    expect(parseWorkloadForm(workloadFormOf(DEFAULT_WORKLOAD), DEFAULT_WORKLOAD)).toEqual({ ok: true, value: DEFAULT_WORKLOAD });
  });

  it('refuses a workload with neither users nor rate, and negative weights', () => {
    const form = workloadFormOf(DEFAULT_WORKLOAD);
    const idle = parseWorkloadForm({ ...form, concurrency: '0', ratePerSec: '0' }, DEFAULT_WORKLOAD);
    expect(idle.ok ? null : idle.issues[0]?.path).toBe('concurrency');
    const neg = parseWorkloadForm({ ...form, 'mix.put': '-1' }, DEFAULT_WORKLOAD);
    expect(neg.ok ? [] : neg.issues.map(describeIssue)).toEqual(['mix.put: weights must be ≥ 0 (allowed — mix put: weight ≥ 0)']);
  });
});

describe('session actions', () => {
  it('Pause and Start at the session\'s own times: the charts get the pause, and the open fault\'s card does not count it as lost throughput', async () => {
    const store = createDashboardStore();
    const { controls } = fakeControls();
    const times = [4_000, 9_000];
    const a = createSessionActions({ ...controls, pause: async () => times[0], start: async () => times[1] }, store);
    const st = () => store.getState();
    // 3 s of traffic on segment 0 and 1 (two segments, 100 ops/s each), a fault naming segment 1 at 3 s
    st().ingestEvents([{ t: 0, type: 'topology', epoch: 1, change: 'initial', node: 0, segments: [0, 1] }, ...steadyOps(300, 0, 10, 1, 0), ...steadyOps(300, 5, 10, 1_000, 1)]);
    st().ingestEvents([{ t: 3_000, type: 'fault', action: 'failover', node: 1, segments: [1] }, ...steadyOps(100, 3_000, 10, 2_000, 0)]);
    await a.pause();
    expect(st().pauseSpans).toEqual([{ from: 4_000, to: null }]);
    await a.start();
    expect(st().pauseSpans).toEqual([{ from: 4_000, to: 9_000 }]);
    st().ingestEvents(steadyOps(100, 9_000, 10, 3_000, 0));
    st().publish();
    // healthy segment 0 served on before and after the pause: 5 s of nothing sent is not lost
    expect(st().snapshot.evidence[0]?.healthyLostMs).toBe(0);
    // a second Pause / Start pair appends; a Start with no pause open changes nothing
    await a.start();
    expect(st().pauseSpans).toHaveLength(1);
  });

  it('applies a valid client config to the session and the store', async () => {
    const store = createDashboardStore();
    const { controls, calls } = fakeControls();
    const a = createSessionActions(controls, store);
    expect(await a.applyClient({ ...clientFormOf(DEFAULT_CLIENT_CONFIG), maxAttempts: '5' })).toBe(true);
    expect(calls).toEqual([['configureClient', { ...DEFAULT_CLIENT_CONFIG, maxAttempts: 5 }]]);
    expect(store.getState().clientConfig.maxAttempts).toBe(5);
  });

  it('refuses invalid input without touching the running session', async () => {
    const store = createDashboardStore();
    const { controls, calls } = fakeControls();
    const a = createSessionActions(controls, store);
    await a.start();
    expect(await a.applyClient({ ...clientFormOf(DEFAULT_CLIENT_CONFIG), maxAttempts: '-3' })).toBe(false);
    expect(await a.applyWorkload({ ...workloadFormOf(DEFAULT_WORKLOAD), keys: '0' })).toBe(false);
    expect(calls).toEqual([['start', undefined]]);
    expect(store.getState().running).toBe(true);
    expect(store.getState().clientConfig).toBe(DEFAULT_CLIENT_CONFIG);
    expect(store.getState().formErrors.client.map((i) => i.path)).toEqual(['maxAttempts']);
    expect(store.getState().formErrors.workload.map((i) => i.path)).toEqual(['keys']);
  });

  it('switches one bug toggle, keeping the rest of the config', async () => {
    const store = createDashboardStore();
    const { controls } = fakeControls();
    await createSessionActions(controls, store).setBug('deadlineReplacesAttempts', true);
    expect(store.getState().clientConfig).toEqual({ ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, deadlineReplacesAttempts: true } });
  });

  it('validates fault commands and shows a session error instead of throwing', async () => {
    const store = createDashboardStore();
    const { controls, calls } = fakeControls({ fault: 'no node 9' });
    const a = createSessionActions(controls, store);
    expect(await a.fault({ action: 'hang' })).toBe(false); // node required
    expect(store.getState().formErrors.fault[0]?.path).toBe('node');
    expect(await a.fault({ action: 'failover', node: 9 })).toBe(false);
    expect(calls).toEqual([['fault', { action: 'failover', node: 9 }]]);
    expect(store.getState().sessionError).toBe('failover failed: no node 9');
  });

  it('loads a preset as a new session and keeps it running', async () => {
    const store = createDashboardStore();
    const { controls, calls } = fakeControls();
    const a = createSessionActions(controls, store);
    await a.start();
    store.getState().ingestEvents([{ t: 1, type: 'fault', action: 'failover', node: 1, segments: [1] }]);
    await a.loadPreset('refresh-storm');
    const s = store.getState();
    expect(s.session).toMatchObject({ id: 1, scenario: 'refresh-storm', seed: 1 });
    expect(s.presetId).toBe('refresh-storm');
    expect(s.clientConfig.bugs.deadlineReplacesAttempts).toBe(true);
    expect(s.faultMarkers).toEqual([]);
    expect(calls.map((c) => c[0])).toEqual(['start', 'loadScenario', 'start']);
    await a.loadPreset('nope');
    expect(store.getState().formErrors.scenario[0]?.message).toBe('unknown preset "nope"');
  });
});
