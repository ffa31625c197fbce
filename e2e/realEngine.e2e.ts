/**
 * The dashboard on the real engine: the Live tab's engine choice set to
 * "Redis Cluster on this machine", Start (the server's bridge builds a Redis
 * Cluster and the Zaris client runs over RESP), operations flowing, Failover
 * of the master serving the first slots (kill -9), the client seeing
 * NodeUnavailable/Socket/Unavailable/Moved attempts and refreshing its map,
 * Redis promoting the replica, throughput recovering; Pause; switching back
 * to the simulated engine ends the session, and pgrep shows none of the
 * run's redis-servers left. Needs redis-server (CI installs it).
 */
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { selectRefreshTotals } from '../src/ui/store/selectors';
import { useDashboard } from './support/fixture';
import { attemptOutcomes, completeUntilMs, describeState, opsPerSec, toSnapshot, type StoreState } from './support/storeProbe';

/** redis-server processes listening on one of `ports` (their title is "redis-server 127.0.0.1:<port> [cluster]") */
function serversOn(ports: readonly number[]): string[] {
  let out: string;
  try {
    out = execFileSync('pgrep', ['-a', 'redis-server'], { encoding: 'utf8' });
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
  return out.split('\n').filter((line) => ports.some((p) => new RegExp(`:${p}\\b`).test(line)));
}

/** who serves the first cell of slots: in the cluster's view and in the client's map (the store probe carries no owners) */
function firstCellOwners(page: Page): Promise<{ cluster: number; client: number }> {
  return page.evaluate(() => {
    const lab = (window as unknown as { __zarisLab: { store: { getState(): { cluster: { owners: number[] } | null; client: { owners: number[] } | null } } } }).__zarisLab;
    const s = lab.store.getState();
    return { cluster: s.cluster?.owners[0] ?? -1, client: s.client?.owners[0] ?? -1 };
  });
}

const failures = (s: StoreState) => {
  const o = attemptOutcomes(s);
  return o.NodeUnavailable + o.Socket + o.Timeout + o.Unavailable + o.Moved;
};

describe('the real engine (Redis Cluster) in the dashboard', () => {
  const lab = useDashboard();

  it('runs a real failover live: kill -9 of a master, retries and refreshes, promotion, recovery, and no server left', async () => {
    const d = await lab.open('?preset=steady');
    const page = d.page;
    const redis = page.getByRole('radio', { name: 'Redis Cluster on this machine' });
    await expect.poll(() => redis.isEnabled(), { timeout: 15_000 }).toBe(true);
    await redis.check();
    await d.waitForText(page.locator('.engine-choice .engine-note'), /press Start/);
    // faults Redis cannot do are disabled, with why
    for (const label of ['Slow link', 'Lost ack']) {
      const b = page.getByRole('button', { name: label, exact: true });
      if ((await b.count()) === 0) continue;
      expect(await b.isDisabled(), `${label} disabled`).toBe(true);
      expect(await b.getAttribute('title')).toMatch(/^Not on the real engine: /);
    }
    expect(await d.faultButton('failover').isDisabled()).toBe(false);

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await d.waitForStore((s) => s.running, 90_000, 'the real cluster to be built and the workload started');
    const note = await d.waitForText(page.locator('.engine-choice .engine-note'), /Redis Cluster on ports [\d, ]+/, 30_000);
    const ports = [...note.matchAll(/\d{2,5}/g)].map((m) => Number(m[0]));
    expect(ports.length).toBe(6);
    expect(serversOn(ports), 'six redis-servers run').toHaveLength(6);
    const flowing = await d.waitForStore((s) => s.totals.opsEnded > 500 && (s.client?.epoch ?? 0) > 0 && s.cluster !== null, 30_000, 'operations to flow on the real cluster');
    // the header and the cluster panel name Redis's own unit, not the scenario's 64 segments
    await d.waitForText(page.locator('header .identity'), /6 nodes · 16,384 hash slots/);
    await d.waitForText(d.panel('Cluster'), /16,384 hash slots in 64 cells/);
    await d.waitForText(d.panel('Throughput'), /Served: healthy vs affected, per hash slot/);
    await d.waitForText(page.locator('.kpis'), /stale cells/);
    await d.waitForText(d.panel('Invariants'), /Replicated segments stay available: not checked here/);
    const base = await d.waitForStore((s) => s.totals.lastT >= flowing.totals.lastT + 3_000, 30_000, '3 s of healthy traffic');
    expect(base.totals.opsFailed, describeState(base)).toBe(0);

    // the master serving the first slots
    const victim = (await firstCellOwners(page)).cluster;
    expect(victim).toBeGreaterThanOrEqual(0);
    const refreshesBefore = base.totals.refreshExecuted;
    const faulted = await d.failover(victim);
    const tFault = faulted.faultMarkers.at(-1)?.t ?? faulted.totals.lastT;

    const hit = await d.waitForStore(
      (s) => s.cluster?.nodes.find((n) => n.id === victim)?.status === 'down' && failures(s) > 0 && s.totals.refreshExecuted > refreshesBefore,
      20_000,
      'NodeUnavailable/Socket/Unavailable/Moved attempts and a map refresh after kill -9',
    );
    await d.waitForText(d.nodeCard(victim).locator('.pill'), /^down$/);

    // Redis marks the node failed after cluster-node-timeout and promotes its replica: the first cell changes owner
    const owner = await d.until(() => firstCellOwners(page), (o) => o.cluster >= 0 && o.cluster !== victim, 60_000, 'the replica of the killed master to be promoted');
    const tPromoted = (await d.storeState()).totals.lastT;
    await d.until(() => firstCellOwners(page), (o) => o.client === owner.cluster, 30_000, "the client's map to route the first slots to the promoted replica");
    const recovered = await d.waitForStore(
      (s) => {
        const end = completeUntilMs(s);
        return end >= tPromoted + 2_000 && opsPerSec(s, end - 2_000, end) > 0.5 * opsPerSec(s, tFault - 2_000, tFault);
      },
      40_000,
      'throughput over the last 2 s to exceed half of the pre-failover rate',
    );
    const end = completeUntilMs(recovered);
    const o = attemptOutcomes(recovered);
    const refresh = selectRefreshTotals(toSnapshot(recovered));
    console.info(
      `[real engine] node ${victim} killed at ${(tFault / 1000).toFixed(1)} s, replica promoted ≤ ${((tPromoted - tFault) / 1000).toFixed(1)} s later; ` +
        `ops/s before ${opsPerSec(recovered, tFault - 2_000, tFault).toFixed(0)}, after ${opsPerSec(recovered, end - 2_000, end).toFixed(0)}; ` +
        `NodeUnavailable ${o.NodeUnavailable}, Socket ${o.Socket}, Timeout ${o.Timeout}, Unavailable ${o.Unavailable}, Moved ${o.Moved}; ` +
        `refreshes requested ${refresh.requested}, executed ${refresh.executed} (first failures seen at ${(hit.totals.lastT / 1000).toFixed(1)} s)`,
    );
    expect(refresh.executed).toBeGreaterThan(0);
    await d.waitForText(d.panel('Attempt statuses').locator('.legend'), /NodeUnavailable|Socket|Unavailable|Moved/);

    // the screenshot at 1280 px during the real failover's aftermath
    await page.setViewportSize({ width: 1280, height: 1000 });
    await d.screenshot('real-engine-failover');

    await d.pause();
    // leaving the real engine ends its session: the bridge stops every redis-server it started
    await page.getByRole('radio', { name: 'simulated in the browser' }).check();
    await expect.poll(() => serversOn(ports).length, { timeout: 30_000, interval: 250 }).toBe(0);
  });
});
