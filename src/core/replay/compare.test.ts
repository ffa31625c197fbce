import { Rng } from '../rng';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../client/config';
import { ApplyTracker } from '../sim/applyTracker';
import { INVARIANTS, type InvariantCheck } from '../sim/invariants';
import { findPreset } from '../sim/presets';
import { runScenario, type RunSummary } from '../sim/runScenario';
import { loadScenario } from '../sim/scenario';
import { compareRuns, comparisonFor, defaultComparison, defaultFaultWindow, healthyOpsPerSecondIn, METRIC_GROUPS, opsPerSecondIn, scenarioFor, sameRateP, secondAt, serviceVerdict, timeToRecoverMs, winnerOf, zeroHealthySeconds, type MetricId, type RunComparison } from './compare';
import { serviceTally } from '../domain/service';

const checks = (over: Partial<Record<string, Partial<InvariantCheck>>> = {}): InvariantCheck[] =>
  INVARIANTS.map((name) => ({ name, ok: true, violations: 0, expected: false, detail: '', examples: [], ...over[name] }));

/** a hand-made summary: only the fields the comparison reads matter */
function summary(o: {
  ops?: number;
  failed?: number;
  timedOut?: number;
  rejected?: number;
  inFlight?: number;
  attempts?: number;
  requested?: number;
  maxPerOp?: number;
  maxPerOpInFlight?: number;
  executed?: number;
  peakReq?: number;
  peakExec?: number;
  p99?: number;
  series?: number[];
  healthy?: number[];
  faults?: number[];
  invariants?: InvariantCheck[];
}): RunSummary {
  const series = o.series ?? [];
  const zeros = series.map(() => 0);
  const failed = o.failed ?? 0;
  const timedOut = o.timedOut ?? 0;
  const endReasons = { success: (o.ops ?? 0) - failed, realAnswer: 0, attemptsExhausted: failed - timedOut, deadline: timedOut, nonRetryable: 0, waitBudget: 0 };
  return {
    scenario: 'hand-made',
    seed: 1,
    durationMs: series.length * 1000,
    client: DEFAULT_CLIENT_CONFIG,
    ops: { total: o.ops ?? 0, ok: (o.ops ?? 0) - (o.failed ?? 0), failed, realAnswers: 0, inFlightAtEnd: o.inFlight ?? 0, byStatus: {}, endReasons },
    attempts: { total: o.attempts ?? 0, retries: 0, maxPerOp: o.maxPerOp ?? 0, maxPerOpInFlight: o.maxPerOpInFlight ?? 0, histogram: {} },
    statuses: {},
    backoff: { count: 0, meanMs: 0 },
    refresh: { requested: o.requested ?? 0, executed: o.executed ?? 0, coalesced: 0, debounced: 0, waitAbandoned: 0, failed: 0, peakRequestsPerSecond: o.peakReq ?? 0, peakExecutedPerSecond: o.peakExec ?? 0, debounceCeilingPerSecond: 2 },
    latencyMs: { p50: 0, p95: 0, p99: o.p99 ?? 0, max: 0 },
    throughput: { bucketMs: 1000, series, healthy: o.healthy ?? series, affected: zeros, failed: zeros, segments: { healthy: series.map(() => 64), affected: zeros } },
    parked: { attempt: zeros, refreshWait: zeros, backoff: zeros },
    workload: { transactions: 0, casRereads: 0, casSucceeded: 0, casGaveUp: 0, casOwnWriteFound: 0, createOnceAlreadyDone: 0, rejected: o.rejected ?? 0 },
    writes: new ApplyTracker().report(),
    faults: (o.faults ?? []).map((atMs) => ({ atMs, action: 'failover' as const, node: 1 })),
    cluster: { epoch: 1, nodes: [] },
    invariants: { ok: true, checks: o.invariants ?? checks() },
  };
}

const m = (c: RunComparison, id: MetricId) => c.metrics.find((x) => x.id === id);

describe('compareRuns on hand-made summaries', () => {
  const a = summary({ ops: 100, failed: 10, timedOut: 4, attempts: 130, requested: 25, maxPerOp: 3, executed: 4, peakReq: 20, peakExec: 2, p99: 300, series: [100, 100, 100, 40, 50, 95, 100, 100, 100, 100], faults: [3000] });
  const b = summary({
    ops: 80,
    failed: 0,
    rejected: 30,
    inFlight: 5,
    attempts: 240,
    requested: 200,
    p99: 3000,
    maxPerOp: 12,
    executed: 9,
    peakReq: 75,
    peakExec: 2,
    series: [100, 100, 100, 10, 0, 0, 0, 20, 95, 100],
    faults: [3000],
    invariants: checks({ attemptBudgetKept: { ok: false, expected: true, violations: 7 } }),
  });
  const c = compareRuns(a, b);

  it('computes every named metric with a, b and b − a', () => {
    expect(m(c, 'attemptsPerOp')).toMatchObject({ a: 1.3, b: 3, delta: 1.7, better: 'lower' });
    expect(m(c, 'maxAttemptsPerOp')).toMatchObject({ a: 3, b: 12, delta: 9 });
    expect(m(c, 'refreshesExecuted')).toMatchObject({ a: 4, b: 9, delta: 5 });
    expect(m(c, 'peakRefreshRequestsPerSecond')).toMatchObject({ a: 20, b: 75, delta: 55 });
    expect(m(c, 'peakRefreshesExecutedPerSecond')).toMatchObject({ a: 2, b: 2, delta: 0 });
    // served = ok + real answers; not served = failed + timed out + rejected (in flight at the end: neither)
    expect(m(c, 'servedOps')).toMatchObject({ a: 90, b: 80, delta: -10, better: 'higher' });
    expect(m(c, 'notServedOps')).toMatchObject({ a: 10, b: 30, delta: 20, better: 'lower' });
    expect(m(c, 'notServedOps')?.parts).toEqual([
      { label: 'failed', a: 6, b: 0 },
      { label: 'timed out', a: 4, b: 0 },
      { label: 'turned away (pool full)', a: 0, b: 30 },
    ]);
    expect(m(c, 'refreshRequestsPerOp')).toMatchObject({ a: 0.25, b: 2.5 });
    expect(m(c, 'p99LatencyMs')).toMatchObject({ a: 300, b: 3000, better: 'lower' });
    expect(m(c, 'zeroHealthySeconds')).toMatchObject({ a: 0, b: 3, better: 'lower' });
    expect(m(c, 'healthyOkPerSecondInFaultWindow')).toMatchObject({ a: 77, b: 6, better: 'higher' });
    // default window: first fault (3 s) .. +5 s = buckets 3..7
    expect(c.faultWindow).toEqual({ fromMs: 3000, toMs: 8000 });
    expect(m(c, 'opsPerSecondInFaultWindow')).toMatchObject({ a: 77, b: 6, delta: -71, better: 'higher' });
    // pre-fault mean 100 → recovered at ≥ 90: a at bucket 5 (2 s), b at bucket 8 (5 s)
    expect(m(c, 'timeToRecoverMs')).toMatchObject({ a: 2000, b: 5000, delta: 3000 });
  });

  it('reports invariant verdicts side by side', () => {
    expect(c.invariants.find((i) => i.name === 'attemptBudgetKept')).toEqual({ name: 'attemptBudgetKept', a: 'ok', b: 'expected', violationsA: 0, violationsB: 7 });
    const bad = summary({ invariants: checks({ noLostAckedWrites: { ok: false, violations: 1 } }) });
    expect(compareRuns(a, bad).invariants.find((i) => i.name === 'noLostAckedWrites')).toMatchObject({ a: 'ok', b: 'violated', violationsB: 1 });
  });

  it('an explicit fault window overrides the default', () => {
    const w = compareRuns(a, b, { fromMs: 4000, toMs: 5000 });
    expect(w.faultWindow).toEqual({ fromMs: 4000, toMs: 5000 });
    expect(m(w, 'opsPerSecondInFaultWindow')).toMatchObject({ a: 50, b: 0 });
    expect(opsPerSecondIn(a, { fromMs: 3500, toMs: 4500 })).toBe(45);
  });

  it('no fault, no ops, never recovered, never dipped', () => {
    const calm = summary({ series: [10, 10, 10] });
    const cc = compareRuns(calm, calm);
    expect(cc.faultWindow).toBeNull();
    expect(m(cc, 'opsPerSecondInFaultWindow')).toMatchObject({ a: null, b: null, delta: null });
    expect(m(cc, 'timeToRecoverMs')).toMatchObject({ a: null, b: null });
    expect(m(cc, 'attemptsPerOp')).toMatchObject({ a: null, delta: null });
    expect(timeToRecoverMs(summary({ series: [100, 100, 10, 10], faults: [2000] }), 2000)).toBeNull();
    expect(timeToRecoverMs(summary({ series: [100, 100, 95, 100], faults: [2000] }), 2000)).toBe(0);
    expect(timeToRecoverMs(summary({ series: [100, 100, 10, 100], faults: [500] }), 500)).toBeNull();
    expect(defaultFaultWindow(summary({ faults: [7000, 2000] }))).toEqual({ fromMs: 2000, toMs: 7000 });
  });
});

describe('rows, colours and the service verdict', () => {
  const a = summary({ ops: 100, failed: 10, series: [100, 100, 100, 40, 50, 95, 100, 100, 100, 100], faults: [3000] });
  const b = summary({ ops: 80, rejected: 30, series: [100, 100, 100, 10, 0, 0, 0, 20, 95, 100], faults: [3000] });

  it('leads with service, then amplification, refresh load and recovery, each row with a direction', () => {
    const c = compareRuns(a, b);
    expect(c.metrics.slice(0, 5).map((x) => x.id)).toEqual(['servedOps', 'notServedOps', 'healthyOkPerSecondInFaultWindow', 'zeroHealthySeconds', 'p99LatencyMs']);
    const order = c.metrics.map((x) => METRIC_GROUPS.indexOf(x.group));
    expect(order).toEqual([...order].sort((x, y) => x - y));
    for (const x of c.metrics) expect(['lower', 'higher']).toContain(x.better);
  });

  it('fewer failures do not make a side better when it refused more arrivals', () => {
    const c = compareRuns(a, b);
    expect(m(c, 'notServedOps')).toMatchObject({ a: 10, b: 30 });
    expect(winnerOf(m(c, 'notServedOps') as never)).toBe('a');
    expect(c.verdict).toMatchObject({ better: 'a', moreServed: 10, moreServedFraction: 0.125, fewerNotServed: 20 });
    // swapping the sides swaps the verdict: nothing depends on which side is the bug
    expect(compareRuns(b, a).verdict).toMatchObject({ better: 'b', moreServed: 10 });
  });

  it('a rate of rare events is not called better or worse when chance explains it (1 ambiguous write of 40,000 vs 1 of 33,000)', () => {
    // the conditional binomial test: 10 vs 0 events on equal exposure is 2 × 0.5^10
    expect(sameRateP({ a: 10, b: 0, perA: 1000, perB: 1000 })).toBeCloseTo(2 * 0.5 ** 10, 12);
    expect(sameRateP({ a: 0, b: 0, perA: 1000, perB: 1000 })).toBe(1);
    expect(sameRateP({ a: 1, b: 1, perA: 40_000, perB: 33_000 })).toBe(1);
    const rng = Rng.seeded(7);
    for (let i = 0; i < 200; i++) {
      const c = { a: Math.floor(rng.next() * 30), b: Math.floor(rng.next() * 30), perA: 1 + Math.floor(rng.next() * 5e4), perB: 1 + Math.floor(rng.next() * 5e4) };
      const p = sameRateP(c);
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThanOrEqual(1);
      // which side is A does not matter
      expect(sameRateP({ a: c.b, b: c.a, perA: c.perB, perB: c.perA })).toBeCloseTo(p, 9);
    }
    const rate = (a: number, b: number) => ({ better: 'lower' as const, a: (1000 * a) / 40_000, b: (1000 * b) / 33_000, counts: { a, b, perA: 40_000, perB: 33_000 } });
    expect(winnerOf(rate(1, 1))).toBeNull();
    expect(winnerOf(rate(2, 5))).toBeNull();
    expect(winnerOf(rate(0, 12))).toBe('a');
    expect(winnerOf(rate(40, 3))).toBe('b');
  });

  it('a tie on served ops is decided by fewer not served; a full tie names no side', () => {
    const t = (served: number, failed: number, rejected: number) => serviceTally({ success: served, attemptsExhausted: failed }, rejected, 0);
    expect(serviceVerdict(t(50, 5, 0), t(50, 0, 9)).better).toBe('a');
    expect(serviceVerdict(t(50, 5, 0), t(50, 5, 0))).toMatchObject({ better: null, moreServed: 0 });
    expect(serviceVerdict(t(0, 5, 0), t(3, 0, 0))).toMatchObject({ better: 'b', moreServed: 3, moreServedFraction: null });
  });

  it('zero-healthy seconds count from the first second that served anything', () => {
    expect(zeroHealthySeconds(summary({ series: [0, 0, 5, 0, 5, 0] }))).toBe(2);
    expect(zeroHealthySeconds(summary({ series: [0, 0] }))).toBe(2);
    expect(healthyOpsPerSecondIn(summary({ series: [9, 9], healthy: [4, 2] }), { fromMs: 0, toMs: 2000 })).toBe(3);
  });

  it('reads one second of each run at the cursor', () => {
    expect(secondAt(b, 4500)).toMatchObject({ fromMs: 4000, served: 0, healthy: 0 });
    expect(secondAt(b, 3000)).toMatchObject({ fromMs: 3000, served: 10 });
    expect(secondAt(b, 99_000)).toBeNull();
  });
});

describe('compareRuns on the real presets', () => {
  it('failover (fixed) vs refresh-storm (bug): more attempts, a refresh storm and a collapse in the fault window', () => {
    const fixed = runScenario(loadScenario(findPreset('failover')?.input)).summary;
    const storm = runScenario(loadScenario(findPreset('refresh-storm')?.input)).summary;
    const c = compareRuns(fixed, storm);
    expect(c.faultWindow).toEqual({ fromMs: 5000, toMs: 10_000 });
    const amp = m(c, 'attemptsPerOp');
    expect(amp?.b).toBeGreaterThan(amp?.a ?? Infinity);
    expect(m(c, 'maxAttemptsPerOp')?.a).toBeLessThanOrEqual(3);
    expect(m(c, 'maxAttemptsPerOp')?.b).toBeGreaterThan(3);
    expect(m(c, 'peakRefreshRequestsPerSecond')?.delta).toBeGreaterThan(0);
    const window = m(c, 'opsPerSecondInFaultWindow');
    expect(window?.b).toBeLessThan(0.8 * (window?.a ?? 0));
    const ttr = m(c, 'timeToRecoverMs');
    expect(ttr?.a).not.toBeNull();
    expect(ttr?.b).toBeGreaterThanOrEqual(ttr?.a ?? Infinity);
    // the fixed client fails dead-segment ops fast; the buggy one holds the pool and refuses arrivals instead
    const ns = m(c, 'notServedOps');
    expect(ns?.parts?.[0]?.a).toBeGreaterThan(ns?.parts?.[0]?.b ?? Infinity);
    expect(ns?.parts?.[2]?.b).toBeGreaterThan(ns?.parts?.[2]?.a ?? Infinity);
    expect(m(c, 'zeroHealthySeconds')?.b).toBeGreaterThan(m(c, 'zeroHealthySeconds')?.a ?? Infinity);
    expect(c.verdict.better).toBe('a');
    expect(c.invariants.find((i) => i.name === 'attemptBudgetKept')).toMatchObject({ a: 'ok', b: 'expected' });
    expect(c.invariants.every((i) => i.a === 'ok')).toBe(true);
  }, 60_000);
});

describe('defaultComparison', () => {
  it('a scenario with no toggle on: the storm toggle off vs on — the pair is failover vs refresh-storm', () => {
    const failover = loadScenario(findPreset('failover')?.input);
    const pair = defaultComparison(failover);
    expect(pair.toggle).toBe('deadlineReplacesAttempts');
    expect(pair.a.client).toEqual(failover.client);
    expect(pair.b.client).toEqual(loadScenario(findPreset('refresh-storm')?.input).client);
    expect(scenarioFor(failover, pair.b).client.bugs.deadlineReplacesAttempts).toBe(true);
    expect(pair.a.label).toMatch(/off/);
    expect(pair.b.label).toMatch(/on/);
  });

  it('a scenario with a toggle on compares that toggle, other settings unchanged', () => {
    const herd = loadScenario(findPreset('herd')?.input);
    const pair = defaultComparison(herd);
    expect(pair.toggle).toBe('noRefreshCoalescing');
    expect(pair.a.client.bugs.noRefreshCoalescing).toBe(false);
    expect(pair.b.client).toEqual(herd.client);
    const both = { ...herd, client: { ...herd.client, bugs: { ...herd.client.bugs, deadlineReplacesAttempts: true } } };
    expect(defaultComparison(both).toggle).toBe('deadlineReplacesAttempts');
    expect(defaultComparison(both).a.client.bugs.noRefreshCoalescing).toBe(true);
    expect(comparisonFor(herd, 'retryConflict').b.client.bugs).toMatchObject({ retryConflict: true, noRefreshCoalescing: true });
  });
});
