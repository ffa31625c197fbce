/**
 * (a) The page loads cleanly: no console errors, the header, the controls and
 * every panel render, and the store is there before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { useDashboard } from './support/fixture';

/** panel titles the dashboard shows (src/ui/panels/registry.ts) */
const PANELS = ['Throughput', 'Invariants', 'Map refresh coalescing', 'Where operations are parked', 'Retries', 'Attempt statuses', 'Cluster', 'Latency', 'Event log'];

describe('dashboard page', () => {
  const lab = useDashboard();

  it('loads without console errors and renders the header, controls and panels', async () => {
    const d = await lab.open();
    const page = d.page;

    await expect(page.title()).resolves.toBe('Zaris Churn Lab');
    // header: product name, session identity and headline figures
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Zaris Churn Lab');
    const identity = await page.getByLabel('Session', { exact: true }).textContent();
    expect(identity).toMatch(/scenario\s*steady/);
    expect(identity).toMatch(/3 nodes · 64 segments/);
    expect(identity).toMatch(/no bug toggles on/);
    await expect(d.kpi('ops / s').textContent()).resolves.toBeTruthy();

    // controls
    await expect(page.getByRole('button', { name: 'Start', exact: true }).isVisible()).resolves.toBe(true);
    for (const name of ['Failover', 'Scale out', 'Failback', 'Hang', 'Resume', 'Slow link', 'Lost ack']) {
      await expect(page.getByRole('button', { name, exact: true }).count()).resolves.toBe(1);
    }
    await expect(page.getByRole('combobox', { name: 'Target node' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('combobox', { name: 'Scenario preset' }).inputValue()).resolves.toBe('steady');
    await expect(d.clientForm().isVisible()).resolves.toBe(true);
    await expect(d.workloadForm().isVisible()).resolves.toBe(true);
    await expect(page.getByRole('group', { name: /Bug toggles/ }).getByRole('checkbox').count()).resolves.toBe(5);

    // every panel is there with its heading
    for (const title of PANELS) {
      const panel = d.panel(title);
      await expect(panel.count(), `panel "${title}"`).resolves.toBe(1);
      await expect(panel.isVisible(), `panel "${title}" visible`).resolves.toBe(true);
    }
    // before Start the session clock does not run
    await expect(page.locator('.control-bar .state').textContent()).resolves.toBe('not started');
    // the cluster panel draws the booted cluster: three node cards, all up, 64 segments
    for (const id of [0, 1, 2]) await expect(d.nodeCard(id).getAttribute('aria-label')).resolves.toBe(`node ${id} up`);
    await expect(d.panel('Cluster').locator('.segment-grid .seg').count()).resolves.toBe(64);
    // the client has fetched no map yet: nothing to compare with, no routes to count
    await d.waitForText(d.panel('Cluster').locator('.panel-foot'), /^No client map yet to compare with\.$/);
    await d.waitForText(d.nodeCard(0), /client routes —/);

    const s = await d.storeState();
    expect(s.running).toBe(false);
    expect(s.presetId).toBe('steady');
    expect(s.totals.opsEnded).toBe(0);
    expect(s.cluster?.nodes.map((n) => n.status)).toEqual(['up', 'up', 'up']);

    await d.screenshot('a-loaded');
  });
});
