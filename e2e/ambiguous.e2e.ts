/**
 * (f) Lost acknowledgements on the Live tab: the node commits writes and drops
 * their answers; the client times out (or retries) and cannot know. The
 * client worker's audit holds its operations against the nodes' apply
 * notices, and the Ambiguous writes panel names those writes by op id, with
 * what their condition makes of them. Read from the store and checked in the DOM.
 */
import { describe, expect, it } from 'vitest';
import { useDashboard } from './support/fixture';

describe('ambiguous writes on the live playground', () => {
  const lab = useDashboard();

  it('a lost-ack fault makes the audit name writes applied although the caller heard otherwise', async () => {
    const d = await lab.open();
    const started = await d.start();
    // the audit runs from the start: writes are checked, none is ambiguous on a healthy cluster
    const healthy = await d.waitForStore((s) => (s.writeAudit?.audited ?? 0) > 500 && s.totals.lastT >= started.totals.lastT + 2_000, 30_000, 'a healthy audit of 500 writes');
    expect(healthy.writeAudit?.total, 'no ambiguous write before any fault').toBe(0);
    await d.waitForText(d.panel('Ambiguous writes').locator('.panel-aside .badge'), /^none$/);

    await d.fault('lostAck', 0);
    const found = await d.waitForStore((s) => (s.writeAudit?.total ?? 0) >= 5, 30_000, 'five ambiguous writes after the lost-ack fault');
    const audit = found.writeAudit;
    console.info(`[ambiguous] audited ${audit?.audited}, ambiguous ${audit?.total}: ${JSON.stringify(audit?.byCase)}; first ops ${audit?.ops.slice(0, 5).join(', ')}`);
    expect((audit?.byCase.appliedReportedFailed ?? 0) + (audit?.byCase.ownConflict ?? 0) + (audit?.byCase.appliedTwice ?? 0)).toBe(audit?.total);
    const panel = d.panel('Ambiguous writes');
    await d.waitForText(panel.locator('.panel-aside .badge'), /^\d+ ambiguous$/);
    const firstOp = audit?.ops[0];
    await d.waitForText(panel, new RegExp(`op ${firstOp}(?!\\d)`));
    for (const width of [1280, 1920]) {
      await d.page.setViewportSize({ width, height: 1000 });
      await d.screenshot(`f-lost-ack-ambiguous-${width}`);
    }
  });
});
