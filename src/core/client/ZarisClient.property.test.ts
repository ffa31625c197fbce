/**
 * Property tests (fast-check, fixed seed): for random answer scripts and
 * configurations, the invariants of SPEC §5 and §11 hold on the event log.
 * 400 scripts per property by default; ZARIS_PROPERTY_RUNS=N runs more (or
 * fewer), ZARIS_PROPERTY_SEED=S replays another sequence.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KV_STATUSES, TRANSPORT_ERRORS } from '../domain/status';
import { attemptBudget } from './config';
import { requiresMapRefresh } from './retryPolicy';
import type { ScriptedAnswer } from './testkit/scriptedTransport';
import { cfg, harness, mapWith, NO_OWNER, type ConfigOverrides } from './testkit/harness';
import { TransportFailure } from './transport';

const answerArb: fc.Arbitrary<ScriptedAnswer> = fc.oneof(
  fc.record({ reply: fc.record({ status: fc.constantFrom(...KV_STATUSES) }), afterMs: fc.integer({ min: 0, max: 300 }) }),
  fc.record({
    fail: fc.constantFrom(...TRANSPORT_ERRORS.filter((c) => c !== 'Timeout')).map((c) => new TransportFailure(c)),
    afterMs: fc.integer({ min: 0, max: 300 }),
  }),
  fc.constant({ silent: true } as const),
);

const configArb: fc.Arbitrary<ConfigOverrides> = fc.record({
  maxAttempts: fc.integer({ min: 1, max: 6 }),
  backoffMillis: fc.integer({ min: 0, max: 400 }),
  operationTimeoutMs: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: null }),
  disableRetries: fc.boolean(),
  refreshWaitBudgetMs: fc.integer({ min: 0, max: 2000 }),
  refreshDebounceMs: fc.constantFrom(0, 500),
  attemptTimeoutMs: fc.integer({ min: 1, max: 1500 }),
});

const scenarioArb = fc.record({
  config: configArb,
  script: fc.array(answerArb, { minLength: 1, maxLength: 8 }),
  mapLatencyMs: fc.integer({ min: 0, max: 1200 }),
  /** the key's owner in the maps fetched: a node, or none */
  refreshedOwner: fc.constantFrom(0, 1, 2, NO_OWNER),
  mapDown: fc.boolean(),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

function run(s: Scenario) {
  const h = harness({
    config: s.config,
    answer: (_node, _request, index) => s.script[Math.min(index, s.script.length - 1)] as ScriptedAnswer,
    mapOf: (node) => (s.mapDown && node === 0 ? null : mapWith(2, s.refreshedOwner)),
    mapLatencyMs: s.mapLatencyMs,
  });
  h.transport.enforceTimeouts = true;
  let settled = false;
  h.client.get('k').then(
    () => (settled = true),
    () => (settled = true),
  );
  h.sched.runUntilIdle();
  return { ...h, settled: () => settled };
}

const RUNS = Number(process.env.ZARIS_PROPERTY_RUNS ?? '') || 400;
const SEED = Number(process.env.ZARIS_PROPERTY_SEED ?? '') || 20_251_129;
const params = { seed: SEED, numRuns: RUNS } as const;
/** per-test timeout that grows with the run count (a script takes well under 5 ms) */
const TIMEOUT = 10_000 + RUNS * 20;

describe('invariants over random scripts', { timeout: TIMEOUT }, () => {
  it('each operation ends exactly once, within both bounds', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const r = run(s);
        await Promise.resolve();
        await Promise.resolve();
        expect(r.settled()).toBe(true);
        const ends = r.log.of('op.end');
        expect(ends).toHaveLength(1);
        const end = ends[0];
        const c = cfg(s.config);
        const starts = r.log.of('attempt.start');
        expect(starts.length).toBeLessThanOrEqual(attemptBudget(c));
        expect(end?.attempts).toBe(starts.length);
        if (c.operationTimeoutMs !== null) {
          const deadline = c.operationTimeoutMs;
          for (const a of starts) expect(a.t).toBeLessThan(deadline);
          // overrun only by the one bounded wait it was in: an attempt timeout is clamped, so only a refresh wait
          expect(end?.t).toBeLessThanOrEqual(deadline + c.refreshWaitBudgetMs);
          for (const d of r.transport.dataRequests) expect(d.t + d.timeoutMs).toBeLessThanOrEqual(deadline);
        }
      }),
      params,
    );
  });

  it('real answers are never retried; every refresh-first outcome is refreshed once — before the retry, or before the end after the final attempt', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const r = run(s);
        // positions in the log, so that events at the same virtual time keep their order
        const ev = r.log.events;
        const ends = ev.flatMap((e, i) => (e.type === 'attempt.end' ? [{ e, i }] : []));
        const starts = ev.flatMap((e, i) => (e.type === 'attempt.start' ? [i] : []));
        const opEnd = ev.findIndex((e) => e.type === 'op.end');
        ends.forEach(({ e, i }, n) => {
          const next = starts[n + 1];
          if (e.status === 'Ok' || e.status === 'Conflict' || e.status === 'NotFound' || e.error === 'NonRetryable') {
            expect(next).toBeUndefined();
            return;
          }
          const refreshFirst = e.error !== undefined || (e.status !== undefined && requiresMapRefresh(e.status));
          const between = ev.slice(i, next ?? opEnd).filter((q) => q.type === 'refresh.request');
          expect(between.length).toBe(refreshFirst ? 1 : 0);
        });
      }),
      params,
    );
  });

  it('every delay is within the cap and never overshoots the deadline', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const r = run(s);
        const c = cfg(s.config);
        for (const b of r.log.of('backoff')) {
          expect(b.delayMs).toBeGreaterThanOrEqual(0);
          expect(b.delayMs).toBeLessThanOrEqual(2000);
          if (c.operationTimeoutMs !== null) expect(b.t + b.delayMs).toBeLessThanOrEqual(Math.max(b.t, c.operationTimeoutMs));
        }
        // no backoff after the final attempt
        const last = r.log.of('attempt.start').length;
        expect(r.log.of('backoff').every((b) => b.attempt < last || (c.operationTimeoutMs !== null && b.t + b.delayMs >= c.operationTimeoutMs))).toBe(true);
      }),
      params,
    );
  });

  it('is deterministic: the same scenario yields the same event log', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        expect(run(s).log.events).toEqual(run(s).log.events);
      }),
      { ...params, numRuns: Math.max(25, Math.round(RUNS / 4)) },
    );
  });
});

describe('invariants with concurrent operations and refresh bug toggles', { timeout: TIMEOUT }, () => {
  const multiArb = fc.record({
    config: configArb.chain((c) =>
      fc.record({ noRefreshCoalescing: fc.boolean(), noRefreshDebounce: fc.boolean() }).map((bugs) => ({ ...c, bugs })),
    ),
    scripts: fc.array(fc.array(answerArb, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 5 }),
    startsAt: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 5, maxLength: 5 }),
    mapLatencyMs: fc.integer({ min: 0, max: 1200 }),
    refreshedOwner: fc.constantFrom(0, 1, 2, NO_OWNER),
    mapDown: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  });

  it('each op ends once within its bounds; coalescing keeps one refresh in flight', () => {
    fc.assert(
      fc.property(multiArb, (s) => {
        const seen = new Map<number, number>();
        const h = harness({
          config: s.config,
          answer: (_node, request) => {
            const op = request.type === 'data' ? request.op : 0;
            const i = seen.get(op) ?? 0;
            seen.set(op, i + 1);
            const script = s.scripts[(op - 1) % s.scripts.length] as ScriptedAnswer[];
            return script[Math.min(i, script.length - 1)] as ScriptedAnswer;
          },
          mapOf: (node) => (s.mapDown[node] === true ? null : mapWith(2, s.refreshedOwner)),
          mapLatencyMs: s.mapLatencyMs,
        });
        h.transport.enforceTimeouts = true;
        s.scripts.forEach((_, i) => h.sched.at(s.startsAt[i] as number, () => void h.client.get('k').catch(() => undefined)));
        h.sched.runUntilIdle();
        const c = cfg(s.config);
        const opStarts = h.log.of('op.start');
        expect(opStarts).toHaveLength(s.scripts.length);
        for (const st of opStarts) {
          const ends = h.log.of('op.end').filter((e) => e.op === st.op);
          expect(ends).toHaveLength(1);
          const attempts = h.log.of('attempt.start').filter((e) => e.op === st.op);
          expect(attempts.length).toBeLessThanOrEqual(attemptBudget(c));
          if (c.operationTimeoutMs !== null) {
            const deadline = st.t + c.operationTimeoutMs;
            for (const a of attempts) expect(a.t).toBeLessThan(deadline);
            expect(ends[0]?.t).toBeLessThanOrEqual(deadline + c.refreshWaitBudgetMs);
          }
        }
        if (!c.bugs.noRefreshCoalescing) {
          let inFlight = 0;
          for (const e of h.log.events) {
            if (e.type === 'refresh.start') expect(++inFlight).toBe(1);
            if (e.type === 'refresh.end') inFlight--;
          }
        }
      }),
      { ...params, numRuns: Math.max(25, Math.round((RUNS * 3) / 4)) },
    );
  });
});
