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

  it('a fault card counts its own span exactly, past the 50 writes the audit lists: the client worker notes the writes known before each fault', async () => {
    const d = await lab.open();
    await d.start();
    const first = await d.fault('lostAck', 0);
    const t1 = first.faultMarkers.at(-1)?.t as number;
    await d.waitForStore((s) => (s.writeAudit?.total ?? 0) > 80, 30_000, 'more ambiguous writes than the audit lists');
    const second = await d.failover(1);
    const t2 = second.faultMarkers.at(-1)?.t as number;
    const marked = await d.waitForStore((s) => (s.writeAudit?.knownBefore.length ?? 0) >= 2, 30_000, 'both faults noted by the audit');
    const marks = marked.writeAudit?.knownBefore ?? [];
    // the marks sit at the faults' own times (the fault events'), so the cards' spans meet them exactly
    expect(marks.map((m) => m.t)).toEqual([t1, t2]);
    expect(marks.every((m) => m.exact)).toBe(true);
    const inFirstSpan = (marks[1]?.count ?? 0) - (marks[0]?.count ?? 0);
    console.info(`[ambiguous] lost ack at ${t1.toFixed(0)} ms, failover at ${t2.toFixed(0)} ms: ${inFirstSpan} ambiguous writes between them, ${marked.writeAudit?.total} in the session`);
    expect(inFirstSpan, 'more than the list holds, so only the mark makes it exact').toBeGreaterThan(50);
    // the lost-ack card (the older one, listed second) says that count, with no "at least"
    // by its title: the failover's card names the lost acks too ("took over from the lost acknowledgements …")
    const lostAckCard = d.evidenceCards().filter({ has: d.page.locator('h3', { hasText: /^lost acknowledgements/ }) });
    await d.waitForText(lostAckCard, new RegExp(`(?<![\\d,])${inFirstSpan.toLocaleString('en-US')} ambiguous writes, applied but the caller could not know: `));
    for (const text of await d.evidenceCards().allInnerTexts()) expect(text).not.toMatch(/at least \d+ of the session/);
    await d.screenshot('f-two-fault-cards');
  });

  it("a hung replica makes writes slow, not ambiguous: its owner gives up on the ack (900 ms) before the client's attempt timeout (1 s), as in the engine", async () => {
    const d = await lab.open();
    const started = await d.start();
    await d.waitForStore((s) => s.totals.lastT >= started.totals.lastT + 2_000, 30_000, '2 s of traffic');
    // node 1 is the replica of node 0's segments (and owns its own: those time out, unapplied)
    const hung = await d.fault('hang', 1);
    const tHang = hung.faultMarkers.at(-1)?.t as number;
    const after = await d.waitForStore((s) => s.totals.lastT >= tHang + 3_000, 30_000, '3 s after the hang');
    const audit = after.writeAudit;
    console.info(`[ambiguous] replica hang: ${audit?.audited} writes audited, ${audit?.total} ambiguous ${JSON.stringify(audit?.byCase)}`);
    expect(audit?.audited ?? 0).toBeGreaterThan(1_000);
    // with the two timeouts equal (1 s each) 60-233 such writes were applied twice or failed on their own condition
    expect(audit?.total ?? Infinity, `ambiguous writes after a replica hang: ${JSON.stringify(audit?.byCase)}`).toBeLessThanOrEqual(10);
  });
});
