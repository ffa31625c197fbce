/**
 * (d) The refresh storm (SPEC §8): with "deadline replaces attempts" on, a
 * failover makes dead-segment operations retry past the attempt budget (3),
 * asking for a map refresh on every attempt; the request pool fills with
 * parked operations and throughput — healthy segments included — collapses
 * until the replicas are promoted. The invariants panel reports the broken
 * attempt budget as expected (explained by the toggle).
 */
import { describe, expect, it } from 'vitest';
import { selectAttemptsPerOp, selectInvariantRows } from '../src/ui/store/selectors';
import type { DashboardPage } from './pages/dashboard.page';
import { useDashboard } from './support/fixture';
import { describeState, opsPerSec, toSnapshot, windowSum, type StoreState } from './support/storeProbe';
import { REFRESH_KINDS } from '../src/ui/store/layout';

const BUDGET = 3;
const REQUESTED = REFRESH_KINDS.indexOf('requested');
const node = (s: StoreState, id: number) => s.cluster?.nodes.find((n) => n.id === id);
/** refresh requests per second between two event times */
const refreshRequestsPerSec = (s: StoreState, from: number, to: number) => (to > from ? windowSum(s, 'refresh', REQUESTED, from, to) / ((to - from) / 1000) : 0);

interface OutageFigures {
  readonly preOps: number;
  readonly outageOps: number;
  readonly preRefreshReq: number;
  readonly outageRefreshReq: number;
  readonly maxAttempts: number;
  readonly overBudgetOps: number;
  readonly outageMs: number;
  readonly final: StoreState;
}

/** Start, 3 s of baseline, Failover node 1, wait until it is declared dead and the stuck operations ended; figures from the store */
async function failoverRun(d: DashboardPage, storm: boolean): Promise<OutageFigures> {
  const started = await d.start();
  if (storm) await d.toggleBug('deadlineReplacesAttempts', true);
  await d.waitForStore((s) => s.totals.lastT >= started.totals.lastT + 3_000, 30_000, '3 s of healthy traffic');
  const faulted = await d.failover(1);
  const tFault = faulted.faultMarkers.at(-1)?.t ?? faulted.totals.lastT;
  const dead = await d.waitForStore((s) => node(s, 1)?.declaredDead === true, 25_000, 'node 1 to be declared dead');
  const tDead = dead.totals.lastT;
  // with the storm the parked operations finish once the client has the promoted map
  const final = await d.waitForStore(
    (s) => s.totals.lastT >= tDead + 2_000 && (!storm || s.totals.maxAttemptsPerOp > BUDGET),
    30_000,
    storm ? 'an operation that made more than 3 attempts' : '2 s after the promotion',
  );
  const perOp = selectAttemptsPerOp(toSnapshot(final));
  return {
    preOps: opsPerSec(final, tFault - 2_000, tFault),
    outageOps: opsPerSec(final, tFault + 1_000, tDead),
    preRefreshReq: refreshRequestsPerSec(final, tFault - 2_000, tFault),
    outageRefreshReq: refreshRequestsPerSec(final, tFault, tDead),
    maxAttempts: final.totals.maxAttemptsPerOp,
    overBudgetOps: perOp.filter((b) => b.low > BUDGET).reduce((n, b) => n + b.ops, 0),
    outageMs: tDead - tFault,
    final,
  };
}

const line = (f: OutageFigures) =>
  `ops/s before ${f.preOps.toFixed(0)}, in the outage ${f.outageOps.toFixed(0)} (${((100 * f.outageOps) / Math.max(1, f.preOps)).toFixed(0)} %); ` +
  `refresh requests/s before ${f.preRefreshReq.toFixed(0)}, in the outage ${f.outageRefreshReq.toFixed(0)}; max attempts/op ${f.maxAttempts}; ops over budget ${f.overBudgetOps}; outage ${(f.outageMs / 1000).toFixed(1)} s`;

describe('refresh storm', () => {
  const lab = useDashboard();

  it('with "deadline replaces attempts" a failover exceeds the attempt budget, raises refresh requests and collapses throughput', async () => {
    const d = await lab.open();
    const f = await failoverRun(d, true);
    console.info(`[storm] bug on: ${line(f)}`);

    // an operation above the budget, in the store totals and in the attempts-per-op histogram
    expect(f.maxAttempts, describeState(f.final)).toBeGreaterThan(BUDGET);
    expect(f.overBudgetOps).toBeGreaterThan(0);
    // every failing attempt asks for a refresh: the request rate rises during the outage
    expect(f.outageRefreshReq).toBeGreaterThan(f.preRefreshReq);
    expect(f.outageRefreshReq).toBeGreaterThan(100);
    // the pool fills with parked dead-segment operations: throughput falls well below the baseline
    expect(f.outageOps).toBeLessThan(0.5 * f.preOps);

    // invariants: the attempt budget is broken, as the toggle explains — never reported as an unexplained violation
    const rows = selectInvariantRows(f.final.invariants);
    expect(rows.rows.find((r) => r.name === 'attemptBudgetKept')?.verdict).toBe('expected');
    expect(rows.verdict).toBe('expected');
    await d.waitForText(d.invariantRow('attemptBudgetKept').locator('.badge'), /^expected$/);
    await d.waitForText(d.invariantsBadge(), /explained by a bug toggle/);
    await d.waitForText(d.page.locator('.app-header .toggles'), 'bug on: Deadline replaces attempts');
    // the histogram draws the budget line before bin 4 and counts operations beyond it
    const bins = await d.until(
      () => d.attemptsHistogram(),
      (h) => {
        const i = h.findIndex((b) => b.mark === `budget ${BUDGET}`);
        return i >= 0 && h.slice(i).some((b) => b.value !== '');
      },
      15_000,
      'the attempts-per-operation histogram to show operations over the budget',
    );
    expect(bins.find((b) => b.mark !== null)?.label).toBe(String(BUDGET + 1));
    await d.screenshot('d-refresh-storm');
  });

  it('the same failover without the toggle keeps 3 attempts and most of the throughput (comparison)', async () => {
    const d = await lab.open();
    const f = await failoverRun(d, false);
    console.info(`[storm] bug off: ${line(f)}`);
    expect(f.maxAttempts).toBeLessThanOrEqual(BUDGET);
    expect(f.overBudgetOps).toBe(0);
    expect(f.outageOps).toBeGreaterThan(0.5 * f.preOps);
    expect(selectInvariantRows(f.final.invariants).verdict).toBe('ok');
    await d.waitForText(d.invariantsBadge(), /^bounds kept$/);
  });
});
