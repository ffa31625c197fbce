import { describe, expect, it } from 'vitest';
import { compareRuns, serviceVerdict, winnerOf, type MetricDelta } from '../../core/replay/compare';
import { serviceTally } from '../../core/domain/service';
import { deltaSections, sameRuns, sameRunsNote, verdictSentence } from './deltaRows';
import { findPreset } from '../../core/sim/presets';
import { runScenario } from '../../core/sim/runScenario';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import { shortenedPreset } from '../../core/sim/testkit/presetInputs';
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import { compareRequest } from './compareRequest';
import { CompareRunner } from './compareRunner';
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
    expect(sideLabel([])).toBe('fixed client, no bug toggles');
  });

  it('offers each toggle off vs on, keeping the scenario’s other toggles', () => {
    const q = quickPairs(preset('refresh-storm'));
    expect(q).toHaveLength(5);
    expect(q.find((x) => x.id === 'noRefreshCoalescing')?.pair).toEqual({ a: ['deadlineReplacesAttempts'], b: ['deadlineReplacesAttempts', 'noRefreshCoalescing'] });
    expect(samePair(q[0]?.pair ?? { a: [], b: [] }, { a: [], b: ['deadlineReplacesAttempts'] })).toBe(true);
  });

  it('marks the better side by the metric’s direction', () => {
    const m = (a: number | null, b: number | null, better: 'lower' | 'higher'): MetricDelta => ({ id: 'notServedOps', group: 'service', label: '', unit: 'ops', a, b, delta: null, better });
    expect(winnerOf(m(3, 10, 'lower'))).toBe('a');
    expect(winnerOf(m(3, 10, 'higher'))).toBe('b');
    expect(winnerOf(m(3, 3, 'lower'))).toBeNull();
    expect(winnerOf(m(null, 3, 'lower'))).toBeNull();
  });

  it('calls no side better when the two differ by less than 5 % of the larger', () => {
    const m = (a: number, b: number, better: 'lower' | 'higher'): MetricDelta => ({ id: 'attemptsPerOp', group: 'amplification', label: '', unit: '×', a, b, delta: b - a, better });
    expect(winnerOf(m(0.22, 0.23, 'lower'))).toBeNull();
    expect(winnerOf(m(10_000, 10_480, 'higher'))).toBeNull();
    expect(winnerOf(m(10_000, 10_530, 'higher'))).toBe('b');
    expect(winnerOf(m(-1, -1.2, 'higher'))).toBe('a');
    expect(winnerOf(m(0, 3, 'lower'))).toBe('a');
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
    // per segment: the summary's rates over the segments each side had (all 64 healthy before the fault, none affected)
    expect(sc.faults[0]?.atMs).toBeGreaterThan(1000); // the first second is before the fault
    expect(a.throughput.segments.healthy[0]).toBe(sc.cluster.segments);
    expect(a.throughput.segments.affected[0]).toBe(0);
    expect(s.split[0]).toEqual({ t: 0, healthy: (a.throughput.healthy[0] as number) / sc.cluster.segments, affected: null });
    const last = a.throughput.segments.affected.length - 1;
    expect(a.throughput.segments.affected[last]).toBeGreaterThan(0);
    expect(a.throughput.segments.healthy[last]! + a.throughput.segments.affected[last]!).toBe(sc.cluster.segments);
    expect(s.split[last]?.affected).toBeCloseTo((a.throughput.affected[last] as number) / (a.throughput.segments.affected[last] as number), 9);
  });

  it('shares one nice y maximum across both sides', () => {
    const m = sharedMax([sideRows(a).parked, sideRows(b).parked], ['attempt', 'refreshWait', 'backoff'], true);
    const peak = Math.max(...[...sideRows(a).parked, ...sideRows(b).parked].map((r) => (r.attempt ?? 0) + (r.refreshWait ?? 0) + (r.backoff ?? 0)));
    expect(m).toBeGreaterThanOrEqual(peak);
    expect([0, 0.7, 3, 7, 1234].map(niceCeil)).toEqual([1, 1, 5, 10, 2000]);
  });

  it('runs both sides and compares them, then fills both timelines (fake workers running the real engine)', async () => {
    const ran: string[] = [];
    const runner = new CompareRunner(() => ({
      run: async (s) => {
        ran.push(String(s.client.bugs.deadlineReplacesAttempts));
        const b = new EventBatchBuilder();
        const { summary } = runScenario(s, { sinks: [{ emit: (e) => b.push(e) }] });
        return { summary, batches: [b.take()], engineMs: 1 };
      },
      dispose: () => {},
    }));
    await runner.run(sc, pairOf(sc, { a: [], b: ['deadlineReplacesAttempts'] }));
    const st = runner.ui.getState();
    expect(st.phase).toBe('done');
    expect(st.timelinesReady).toBe(true);
    expect(st.timings?.timelinesMs).not.toBeNull();
    expect(st.a?.summary.attempts.maxPerOp).toBeLessThanOrEqual(3);
    const max = st.comparison?.metrics.find((x) => x.id === 'maxAttemptsPerOp');
    expect(max?.a).toBe(st.a?.summary.attempts.maxPerOp);
    expect(max?.b).toBe(st.b?.summary.attempts.maxPerOp);
    expect(ran).toEqual(['false', 'true']);
    expect(runner.feeds.a.recorder.timeRange().endMs).toBeGreaterThan(0);
    expect(runner.feeds.b.retried.size).toBeGreaterThan(0);
  });
});

describe('delta rows and the verdict sentence', () => {
  const sc = loadScenario(shortenedPreset('failover', 4000, 0.1));
  const a = runScenario(sc).summary;
  const b = runScenario({ ...sc, client: { ...sc.client, bugs: { ...sc.client.bugs, deadlineReplacesAttempts: true } } }).summary;

  it('prints service first, the direction on every row and the split of not served', () => {
    const sections = deltaSections(compareRuns(a, b));
    expect(sections.map((s) => s.group)).toEqual(['service', 'writes', 'amplification', 'refresh load', 'recovery']);
    const rows = sections.flatMap((s) => s.rows);
    for (const r of rows) expect(r.direction).toMatch(/^(higher|lower) is better( · \d[\d,]* vs \d[\d,]* writes.*)?$/);
    const ns = rows.find((r) => r.id === 'notServedOps');
    expect(ns?.parts.map((p) => p.label)).toEqual(['failed', 'timed out', 'turned away (pool full)']);
    // colours follow the numbers and the direction, whichever side is A
    const served = rows.find((r) => r.id === 'servedOps');
    const expected = served && served.rawA !== null && served.rawB !== null && served.rawA !== served.rawB ? (served.rawA > served.rawB ? 'a' : 'b') : null;
    expect(served?.win).toBe(expected);
    const swapped = deltaSections(compareRuns(b, a)).flatMap((s) => s.rows).find((r) => r.id === 'servedOps');
    expect(swapped?.win).toBe(expected === null ? null : expected === 'a' ? 'b' : 'a');
  });

  it('the writes rows count per 1,000 writes that ended: a side that wrote less does not read better by its count', () => {
    const withWrites = (s: typeof a, audited: number, total: number, dup: number) => ({ ...s, writes: { ...s.writes, duplicateApplies: dup, ambiguous: { ...s.writes.ambiguous, audited, total } } });
    // A: 20 ambiguous of 10,000 writes; B: 5 of only 100 (fewer, but 25× as often)
    const rows = deltaSections(compareRuns(withWrites(a, 10_000, 20, 10), withWrites(b, 100, 5, 3))).find((x) => x.group === 'writes')?.rows ?? [];
    expect(rows.map((r) => r.id)).toEqual(['ambiguousWrites', 'duplicateApplies', 'casIncrementedAgain']);
    expect(rows[0]).toMatchObject({ a: '2', b: '50', win: 'a' });
    expect(rows[1]).toMatchObject({ a: '1', b: '30', win: 'a' });
  });

  it('says when a pair compares a run with itself (its toggle engaged by nothing in the scenario)', () => {
    expect(sameRuns(a, b)).toBe(false);
    expect(sameRuns(a, { ...a, client: { ...a.client, bugs: { ...a.client.bugs, unclampedBackoff: true } } })).toBe(true);
    expect(sameRunsNote('Unclamped backoff')).toBe('The two runs are identical, operation for operation: nothing in this scenario engages “Unclamped backoff”. Pick another pair, or a scenario with a fault it acts on.');
  });

  it('a side that never recovered reads "not recovered by 16 s" and is the worse one (it read "—", uncoloured)', () => {
    const c = compareRuns(a, b);
    const metric = { id: 'timeToRecoverMs', group: 'recovery', label: 'time to recover 90 % of pre-fault throughput', unit: 'ms', better: 'lower' } as const;
    const row = (m: Partial<MetricDelta>) => deltaSections({ ...c, metrics: [{ ...metric, a: 4000, b: null, delta: null, ...m }] })[0]?.rows[0];
    expect(row({ unreached: { a: false, b: true, byMs: 16_000 } })).toMatchObject({ a: '4.00 s', b: 'not recovered by 16 s', win: 'a' });
    expect(row({ a: null, b: 2000, unreached: { a: true, b: false, byMs: 16_000 } })).toMatchObject({ a: 'not recovered by 16 s', b: '2.00 s', win: 'b' });
    // null for another reason (no fault, no history): a dash, no side
    expect(row({})).toMatchObject({ b: '—', win: null });
  });

  it('judges a row on the values as printed: "0.22×" vs "0.23×" is not coloured, whatever the digits behind', () => {
    const c = compareRuns(a, b);
    const metric = { id: 'refreshRequestsPerOp', group: 'amplification', label: 'map refresh requests per operation', unit: '×', better: 'lower' } as const;
    const row = (x: number, y: number) => deltaSections({ ...c, metrics: [{ ...metric, a: x, b: y, delta: y - x }] })[0]?.rows[0];
    expect(winnerOf({ ...metric, a: 0.2201, b: 0.2349 })).toBe('a'); // 6 % apart as numbers
    expect(row(0.2201, 0.2349)).toMatchObject({ a: '0.22×', b: '0.23×', win: null });
    expect(row(0.2, 0.23)).toMatchObject({ a: '0.20×', b: '0.23×', win: 'a' });
  });

  it('a rate of rare writes is coloured only when the counts behind it tell the sides apart (Compare of 2026-12-03: 0.025 vs 0.03, 1 write each, was green vs red)', () => {
    const c = compareRuns(a, b);
    const metric = { id: 'ambiguousWrites', group: 'writes', label: 'ambiguous writes per 1,000 writes', unit: 'per 1k', better: 'lower' } as const;
    const row = (x: number, y: number) =>
      deltaSections({ ...c, metrics: [{ ...metric, a: (1000 * x) / 40_000, b: (1000 * y) / 33_000, delta: null, counts: { a: x, b: y, perA: 40_000, perB: 33_000 } }] })[0]?.rows[0];
    expect(row(1, 1)).toMatchObject({ a: '0.025', b: '0.03', win: null, direction: 'lower is better · 1 vs 1 writes: too few to tell apart (uncoloured)' });
    expect(row(0, 14)).toMatchObject({ win: 'a', direction: 'lower is better · 0 vs 14 writes' });
  });

  it('names the better side and the margin in one sentence', () => {
    const t = (served: number, failed: number, rejected: number) => serviceTally({ success: served, attemptsExhausted: failed }, rejected, 0);
    expect(verdictSentence(serviceVerdict(t(1200, 300, 0), t(1000, 0, 900)), 'fixed', 'storm')).toBe(
      'A (fixed) served users better than B (storm): 200 more operations served (+20.0 %), 600 fewer not served — A 1,200 vs B 1,000 served, A 300 vs B 900 not served.',
    );
    expect(verdictSentence(serviceVerdict(t(10, 0, 0), t(10, 0, 0)), 'x', 'y')).toBe('Both sides served users alike, to the operation: 10 operations served, 0 not served each.');
    // the sides' own labels quoted as "A (…)" nest no brackets
    const quoted = verdictSentence(serviceVerdict(t(1200, 300, 0), t(1000, 0, 900)), sideLabel([]), sideLabel(['deadlineReplacesAttempts', 'noRefreshDebounce']));
    expect(quoted).toMatch(/^A \(fixed client, no bug toggles\) served users better than B \(bug on: [^()]+\):/);
    expect(verdictSentence(serviceVerdict(t(5, 9, 0), t(6, 20, 0)), 'x', 'y')).toContain('B (y) served users better than A (x): 1 more operations served (+20.0 %), though 11 more not served — A 5 vs B 6 served, A 9 vs B 20 not served.');
  });

  it('names no side for differences the table leaves uncoloured (under 5 %), in served and in not served', () => {
    const t = (served: number, failed: number) => serviceTally({ success: served, attemptsExhausted: failed }, 0, 0);
    // "324 more operations served (+0.4 %)" praised A while every service row stayed uncoloured
    const close = serviceVerdict(t(81_324, 6_000), t(81_000, 6_100));
    expect(close.better).toBeNull();
    expect(verdictSentence(close, 'x', 'y')).toBe('Both sides served users alike (differences under 5 %, left uncoloured): 81,324 vs 81,000 operations served, 6,000 vs 6,100 not served (A vs B).');
    // served alike, but far fewer not served: that side is better, and the sentence says the served part is alike
    const fewer = serviceVerdict(t(81_000, 3_000), t(81_324, 9_000));
    expect(fewer.better).toBe('a');
    expect(verdictSentence(fewer, 'x', 'y')).toMatch(/^A \(x\) served users better than B \(y\): about as many operations served \(within 5 %\), 6,000 fewer not served/);
  });
});

describe('what a Compare link asks for, and asking twice', () => {
  it('reads the scenario and the pair; a lone cmpA keeps the suggestion for B; a bad link names the error', () => {
    const r = compareRequest({ scenario: { preset: 'failover' }, client: {}, compare: { a: ['noRefreshDebounce'] } });
    expect(r.pair).toEqual({ a: ['noRefreshDebounce'], b: ['deadlineReplacesAttempts'] });
    expect(r.scenario?.name).toBe('failover');
    const bad = compareRequest({ scenario: { preset: 'nope' }, client: {} });
    expect(bad.scenario).toBeNull();
    expect(bad.loadError).toMatch(/unknown preset "nope"/);
  });

  it('runs the same request once (the early start, then the view asking again); a new request, or the same after dispose, runs again', async () => {
    const sc = loadScenario(shortenedPreset('failover', 2000, 0.05));
    let runs = 0;
    const runner = new CompareRunner(() => ({
      run: async (s) => {
        runs++;
        const b = new EventBatchBuilder();
        const { summary } = runScenario(s, { sinks: [{ emit: (e) => b.push(e) }] });
        return { summary, batches: [b.take()], engineMs: 1 };
      },
      dispose: () => {},
    }));
    const ask = () => runner.run({ ...sc }, pairOf(sc, { a: [], b: ['deadlineReplacesAttempts'] }));
    const first = ask();
    const second = ask();
    expect(second).toBe(first);
    await Promise.all([first, second]);
    await ask();
    expect(runs).toBe(2);
    await runner.run(sc, pairOf(sc, { a: [], b: ['noRefreshCoalescing'] }));
    expect(runs).toBe(4);
    runner.dispose();
    await runner.run(sc, pairOf(sc, { a: [], b: ['noRefreshCoalescing'] }));
    expect(runs).toBe(6);
    expect(runner.ui.getState().phase).toBe('done');
  });
});
