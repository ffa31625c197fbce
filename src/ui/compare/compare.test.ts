import { describe, expect, it } from 'vitest';
import type { MetricDelta } from '../../core/replay/compare';
import { findPreset } from '../../core/sim/presets';
import { runScenario } from '../../core/sim/runScenario';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import { shortenedPreset } from '../../core/sim/testkit/presetInputs';
import type { ReplayListener } from '../bridge/replaySession';
import { CompareRunner } from './compareRunner';
import { winner } from './CompareTables';
import { defaultPair, pairOf, quickPairs, samePair, sideLabel } from './pairs';
import { niceCeil, overlayRows, sharedMax, sideRows } from './seriesRows';

const preset = (id: string): Scenario => loadScenario(findPreset(id)?.input, id);

describe('comparison pairs', () => {
  it("defaults to the scenario's suggestion: the storm toggle off vs on", () => {
    expect(defaultPair(preset('refresh-storm'))).toEqual({ a: [], b: ['deadlineReplacesAttempts'] });
    expect(defaultPair(preset('failover'))).toEqual({ a: [], b: ['deadlineReplacesAttempts'] });
    expect(defaultPair(preset('herd'))).toEqual({ a: [], b: ['noRefreshCoalescing'] });
  });

  it('builds both sides from toggle lists, everything else from the scenario', () => {
    const sc = preset('failover');
    const p = pairOf(sc, { a: ['noRefreshDebounce'], b: ['noRefreshDebounce', 'noRefreshCoalescing'] });
    expect(p.toggle).toBe('noRefreshCoalescing');
    expect(p.a.client).toEqual({ ...sc.client, bugs: { ...sc.client.bugs, noRefreshDebounce: true } });
    expect(p.b.client.bugs).toMatchObject({ noRefreshDebounce: true, noRefreshCoalescing: true, deadlineReplacesAttempts: false });
    expect(p.a.label).toBe('bug on: no refresh debounce');
    expect(sideLabel([])).toBe('fixed client (no bug toggles)');
  });

  it('offers each toggle off vs on, keeping the scenario’s other toggles', () => {
    const q = quickPairs(preset('refresh-storm'));
    expect(q).toHaveLength(5);
    expect(q.find((x) => x.id === 'noRefreshCoalescing')?.pair).toEqual({ a: ['deadlineReplacesAttempts'], b: ['deadlineReplacesAttempts', 'noRefreshCoalescing'] });
    expect(samePair(q[0]?.pair ?? { a: [], b: [] }, { a: [], b: ['deadlineReplacesAttempts'] })).toBe(true);
  });

  it('marks the better side by the metric’s direction', () => {
    const m = (a: number | null, b: number | null, better: 'lower' | 'higher'): MetricDelta => ({ id: 'failedOps', label: '', unit: 'ops', a, b, delta: null, better });
    expect(winner(m(3, 10, 'lower'))).toBe('a');
    expect(winner(m(3, 10, 'higher'))).toBe('b');
    expect(winner(m(3, 3, 'lower'))).toBeNull();
    expect(winner(m(null, 3, 'lower'))).toBeNull();
  });
});

describe('time-aligned series', () => {
  const sc = loadScenario(shortenedPreset('failover', 4000, 0.1));
  const a = runScenario(sc).summary;
  const b = runScenario({ ...sc, client: { ...sc.client, bugs: { ...sc.client.bugs, deadlineReplacesAttempts: true } } }).summary;

  it('puts both runs on one time axis, one row per second', () => {
    const rows = overlayRows(a, b);
    expect(rows).toHaveLength(5); // 4 s, one row per second at its start, and the closing row at 4 s
    expect(rows[4]?.t).toBe(4);
    expect(rows[0]).toEqual({ t: 0, aOk: a.throughput.series[0], bOk: b.throughput.series[0], aFailed: a.throughput.failed[0], bFailed: b.throughput.failed[0] });
    const s = sideRows(a);
    expect(s.parked).toHaveLength(5);
    expect(s.split[1]).toEqual({ t: 1, healthy: a.throughput.healthy[1], affected: a.throughput.affected[1] });
  });

  it('shares one nice y maximum across both sides', () => {
    const m = sharedMax([sideRows(a).parked, sideRows(b).parked], ['attempt', 'refreshWait', 'backoff'], true);
    const peak = Math.max(...[...sideRows(a).parked, ...sideRows(b).parked].map((r) => (r.attempt ?? 0) + (r.refreshWait ?? 0) + (r.backoff ?? 0)));
    expect(m).toBeGreaterThanOrEqual(peak);
    expect([0, 0.7, 3, 7, 1234].map(niceCeil)).toEqual([1, 1, 5, 10, 2000]);
  });

  it('runs both sides and compares them (fake workers running the real engine)', async () => {
    const feeds: string[] = [];
    const runner = new CompareRunner((l: ReplayListener) => ({
      load: async () => l.onReset(),
      seek: async () => void feeds.push('seek'),
      summarize: async (s) => runScenario(s).summary,
      dispose: () => {},
    }));
    await runner.run(sc, pairOf(sc, { a: [], b: ['deadlineReplacesAttempts'] }));
    const st = runner.ui.getState();
    expect(st.phase).toBe('done');
    expect(st.a?.summary.attempts.maxPerOp).toBeLessThanOrEqual(3);
    const max = st.comparison?.metrics.find((x) => x.id === 'maxAttemptsPerOp');
    expect(max?.a).toBe(st.a?.summary.attempts.maxPerOp);
    expect(max?.b).toBe(st.b?.summary.attempts.maxPerOp);
    expect(feeds).toEqual(['seek', 'seek']);
  });
});
