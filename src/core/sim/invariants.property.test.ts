/**
 * Property tests (fast-check): random fault schedules on small clusters
 * with bugs off keep every SPEC §11 invariant. 300 schedules by default;
 * ZARIS_PROPERTY_RUNS=N runs more (or fewer), ZARIS_PROPERTY_SEED=S
 * replays another sequence. A failure prints the scenario as JSON: save it
 * to a file and run `npm run sim -- that.json` to replay it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attemptBudget } from '../client/config';
import type { TelemetrySink, ZarisEvent } from '../telemetry/events';
import { runScenario } from './runScenario';
import { clientConfigsOf, loadScenario } from './scenario';
import { scenarioArb, toSchedule, type GeneratedScenario } from './testkit/faultSchedules';

const RUNS = Number(process.env.ZARIS_PROPERTY_RUNS ?? '') || 300;
const SEED = Number(process.env.ZARIS_PROPERTY_SEED ?? '') || 20_251_130;
/** generous per-test timeout that grows with the run count (≈ 40 ms per schedule, ×4 headroom) */
const timeoutFor = (runs: number): number => 20_000 + runs * 160;

function replayHint(s: GeneratedScenario): string {
  return `scenario (save as JSON and run \`npm run sim -- file.json\`):\n${JSON.stringify(s)}`;
}

/** the most attempts any finished operation made, and its budget */
class BudgetWatch implements TelemetrySink {
  worst = 0;
  readonly overBudget: number[] = [];
  private readonly budgets = new Map<number, number>();
  emit(e: ZarisEvent): void {
    if (e.type === 'op.start') this.budgets.set(e.op, e.budget ?? Infinity);
    else if (e.type === 'op.end') {
      const budget = this.budgets.get(e.op) ?? Infinity;
      this.budgets.delete(e.op);
      this.worst = Math.max(this.worst, e.attempts);
      if (e.attempts > budget && this.overBudget.length < 5) this.overBudget.push(e.op);
    }
  }
}

describe('generated schedules are valid scenarios', { timeout: 30_000 }, () => {
  it('every generated scenario passes validation, and nodes exist at their time', () => {
    fc.assert(
      fc.property(scenarioArb({ maxFaults: 12 }), (s) => {
        const loaded = loadScenario(s, 'generated');
        let members = s.cluster.nodes;
        for (const f of loaded.faults) {
          if (f.node !== undefined) expect(f.node).toBeLessThan(members);
          if (f.action === 'scaleOut') members++;
          expect(f.atMs).toBeLessThan(s.durationMs);
        }
        expect(loaded.cluster.replicas).toBeLessThan(loaded.cluster.nodes);
      }),
      { numRuns: 500, seed: SEED },
    );
  });

  it('the generator draws every workload and schedule shape: open-loop rates, zipf keys, configuration changes, pauses', () => {
    const seen = { open: 0, closed: 0, both: 0, zipf: 0, changes: 0, pauses: 0, workloadChanges: 0 };
    fc.assert(
      fc.property(scenarioArb({ varyBudget: true }), (s) => {
        const w = loadScenario(s, 'generated').workload;
        if (w.ratePerSec > 0 && w.concurrency > 0) seen.both++;
        else if (w.ratePerSec > 0) seen.open++;
        else seen.closed++;
        if (w.distribution === 'zipf') seen.zipf++;
        if ((s.changes ?? []).length > 0) seen.changes++;
        if ((s.changes ?? []).some((c) => c.paused !== undefined)) seen.pauses++;
        if ((s.changes ?? []).some((c) => c.workload !== undefined)) seen.workloadChanges++;
      }),
      { numRuns: 300, seed: SEED },
    );
    for (const [shape, n] of Object.entries(seen)) expect(n, shape).toBeGreaterThan(30);
  });

  it('toSchedule tracks scaleOuts: a node added by a scaleOut can be targeted after it', () => {
    const raw = [
      { at: 0.1, action: 'scaleOut' as const, pick: 0, omitNode: false, durationMs: undefined, factor: 1, probability: 0 },
      { at: 0.2, action: 'failover' as const, pick: 2, omitNode: false, durationMs: undefined, factor: 1, probability: 0 },
      { at: 0.05, action: 'hang' as const, pick: 2, omitNode: false, durationMs: 5, factor: 1, probability: 0 },
    ];
    expect(toSchedule(raw, 2, 1000)).toEqual([
      { atMs: 50, action: 'hang', node: 0, durationMs: 5 },
      { atMs: 100, action: 'scaleOut' },
      { atMs: 200, action: 'failover', node: 2 },
    ]);
  });

  it('toSchedule: a fault drawn with follow comes that many ms after the previous drawn fault (a burst); one past the end is left out', () => {
    const raw = [
      { at: 0.5, action: 'hang' as const, pick: 0, omitNode: false, durationMs: undefined, factor: 1, probability: 0 },
      { at: 0.1, action: 'failover' as const, pick: 0, omitNode: false, durationMs: undefined, factor: 1, probability: 0, follow: 30 },
      { at: 0.0, action: 'scaleOut' as const, pick: 0, omitNode: false, durationMs: undefined, factor: 1, probability: 0, follow: 1000 },
    ];
    expect(toSchedule(raw, 2, 1000)).toEqual([
      { atMs: 500, action: 'hang', node: 0 },
      { atMs: 530, action: 'failover', node: 0 },
    ]);
  });
});

describe('SPEC §11 invariants under random churn (bugs off)', () => {
  it(
    `hold for ${RUNS} random fault schedules`,
    () => {
      let withFaults = 0;
      let opsTotal = 0;
      fc.assert(
        fc.property(scenarioArb(), (s) => {
          const { summary } = runScenario(loadScenario(s, 'generated'));
          opsTotal += summary.ops.total;
          if (s.faults.length > 0) withFaults++;
          if (!summary.invariants.ok) {
            const failed = summary.invariants.checks.filter((c) => !c.ok);
            throw new Error(`invariants violated: ${JSON.stringify(failed)}\n${replayHint(s)}`);
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
      // the generator really exercised churn and traffic
      expect(withFaults).toBeGreaterThan(RUNS / 2);
      expect(opsTotal / RUNS).toBeGreaterThan(500);
    },
    timeoutFor(RUNS),
  );

  const budgetRuns = Math.max(50, Math.round(RUNS / 3));
  it(
    `with deadlineReplacesAttempts off, no operation exceeds its attempt budget (${budgetRuns} schedules, other bug toggles random)`,
    () => {
      fc.assert(
        fc.property(scenarioArb({ varyBudget: true, bugs: ['noRefreshCoalescing', 'noRefreshDebounce', 'unclampedBackoff', 'retryConflict'] }), (s) => {
          const scenario = loadScenario(s, 'generated');
          expect(scenario.client.bugs.deadlineReplacesAttempts).toBe(false);
          const watch = new BudgetWatch();
          const { summary } = runScenario(scenario, { sinks: [watch] });
          const check = summary.invariants.checks.find((c) => c.name === 'attemptBudgetKept');
          // the largest budget any configuration of the run allows (a change may raise maxAttempts)
          const budget = Math.max(...clientConfigsOf(scenario).map(attemptBudget));
          if (!check?.ok || watch.overBudget.length > 0 || summary.attempts.maxPerOp > budget) {
            throw new Error(
              `attempt budget ${budget} exceeded: maxPerOp ${summary.attempts.maxPerOp}, ops ${watch.overBudget.join(', ')}; check ${JSON.stringify(check)}\n${replayHint(s)}`,
            );
          }
          expect(watch.worst).toBe(summary.attempts.maxPerOp);
        }),
        { numRuns: budgetRuns, seed: SEED + 1 },
      );
    },
    timeoutFor(budgetRuns),
  );

  it('the checker is not blind: with the storm toggle on, the same kind of run reports over-budget operations', { timeout: 30_000 }, () => {
    const s = loadScenario({
      name: 'storm-small',
      seed: 3,
      durationMs: 3000,
      cluster: { nodes: 3, segments: 8, replicas: 0, heartbeatMs: 100, failureTimeoutMs: 1000 },
      client: { maxAttempts: 2, backoffMillis: 10, operationTimeoutMs: 1500 },
      bugs: { deadlineReplacesAttempts: true },
      workload: { concurrency: 8, thinkMs: 2, keys: 50 },
      faults: [{ atMs: 500, action: 'failover', node: 1 }],
    });
    const { summary } = runScenario(s);
    const check = summary.invariants.checks.find((c) => c.name === 'attemptBudgetKept');
    expect(summary.attempts.maxPerOp).toBeGreaterThan(2);
    expect(check).toMatchObject({ ok: false, expected: true });
    expect(check?.violations).toBeGreaterThan(0);
  });
});
