/**
 * (f) The page explains itself and its numbers stay true around the session's
 * turns: before Start (idle: no clock, no lit recording dot, the guide says
 * what to do), running (tiles = what the store's snapshot implies, each with
 * its window), after Pause (rates 0 and "paused", the clock and the dot stop),
 * after a scenario change (the bug toggle kept and the change named, the
 * tiles still the store's), and the charts' time window (whole session).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUG_HELP } from '../src/ui/controls/BugToggles';
import { useDashboard } from './support/fixture';
import { tilesMatchingStore } from './support/tiles';

const FITS = { buttonsOnOneLine: true, clearOfTabs: true, insideBar: true };

/** the Live tab's recording bar: its buttons as tall as "Copy link" (one line), its text right of the tabs, all of it inside the tab bar */
function recordingBar(page: Page): Promise<typeof FITS & { detail: string }> {
  return page
    .evaluate(() => {
      const box = (el: Element | null) => el?.getBoundingClientRect() ?? new DOMRect();
      const bar = box(document.querySelector('.shell-bar'));
      const tabs = box(document.querySelector('.shell-bar [role="tablist"]'));
      const text = box(document.querySelector('.live-recording .rec-text'));
      const copy = box(document.querySelector('[data-testid="copy-link"]'));
      const buttons = Array.from(document.querySelectorAll('.live-recording button')).map((b) => b.getBoundingClientRect());
      return {
        buttonsOnOneLine: buttons.length === 2 && buttons.every((b) => Math.abs(b.height - copy.height) <= 1),
        clearOfTabs: text.left >= tabs.right,
        insideBar: [text, ...buttons].every((r) => r.top >= bar.top && r.bottom <= bar.bottom),
        detail: JSON.stringify({ bar: [bar.top, bar.bottom], tabsRight: tabs.right, text: [text.left, text.top, text.bottom], copyH: copy.height, buttons: buttons.map((b) => [b.height, b.top, b.bottom]) }),
      };
    })
    .then((r) => {
      if (!(r.buttonsOnOneLine && r.clearOfTabs && r.insideBar)) console.log(`[story] recording bar: ${r.detail}`);
      return r;
    });
}

describe('the first screen', () => {
  const lab = useDashboard();

  it('idle → running → paused → a scenario change: the status line, the tiles and the clock follow, and the toggles are kept', async () => {
    const d = await lab.open();
    // the title once; what to do first
    await expect(d.page.getByText('Zaris Churn Lab', { exact: true }).count()).resolves.toBe(1);
    await expect(d.statusLine().getAttribute('data-state')).resolves.toBe('idle');
    await d.waitForText(d.statusLine(), 'Press Start');
    await expect(d.page.locator('.guide-steps li').allTextContents()).resolves.toEqual([
      '1Start',
      '2Failover: the fixed client recovers',
      `3“${BUG_HELP.deadlineReplacesAttempts.label}” on (left), Failover again: the storm`,
    ]);
    await d.waitForText(d.page.locator('.control-bar .state'), /^not started$/);
    await expect(d.page.locator('.rec-dot.on').count()).resolves.toBe(0);
    await d.waitForText(d.page.locator('.live-recording .rec-text'), /^not recording yet/);
    await expect(d.kpi('ops / s served').locator('xpath=following-sibling::dd').textContent()).resolves.toBe('real answers · not started');

    await d.start();
    await d.until(() => d.statusLine().getAttribute('data-state'), (v) => v === 'healthy', 20_000, 'the status line to say running healthy');
    await expect(d.page.locator('.rec-dot.on').count()).resolves.toBe(1);
    // (the first second after Start may still hold a slow warm-up operation: wait for a healthy window)
    const running = await d.until(() => tilesMatchingStore(d), (r) => r.dom.find((t) => t.label === 'served')?.tone === 'ok', 20_000, 'a healthy served tile');
    expect(running.dom.filter((t) => !t.label.startsWith('stale ')).every((t) => /· last 1 s$|^now/.test(t.caption)), JSON.stringify(running.dom)).toBe(true);
    // the charts name their window
    await d.waitForText(d.panel('Throughput').locator('.units').first(), 'last 60 s · 500 ms steps');

    await d.pause();
    await d.until(() => d.statusLine().getAttribute('data-state'), (v) => v === 'paused', 20_000, 'the status line to say paused');
    const paused = await tilesMatchingStore(d);
    expect(paused.instant.running).toBe(false);
    expect(paused.dom.find((t) => t.label === 'ops / s served')).toMatchObject({ value: '0', caption: 'real answers · paused' });
    expect(paused.dom.find((t) => t.label === 'p99 latency')?.value).toBe('—');
    await expect(d.page.locator('.rec-dot.on').count()).resolves.toBe(0);
    const clock = await d.page.locator('.control-bar .state').textContent();
    expect(clock).toMatch(/^paused · t = [\d.]+ s$/);
    await d.page.waitForTimeout(1500);
    await expect(d.page.locator('.control-bar .state').textContent(), 'the clock stands still while paused').resolves.toBe(clock);

    // the recording bar at 1280 px, paused with a control change (its longest line): its buttons keep one
    // line and its text stays off the tabs — also after a visit to Replay, whose stylesheet once restyled it
    await d.page.setViewportSize({ width: 1280, height: 800 });
    expect(await recordingBar(d.page), 'the recording bar, paused, at 1280 px').toMatchObject(FITS);
    await d.page.getByRole('tab', { name: 'Replay' }).click();
    await d.page.getByTestId('replay-memory').filter({ hasText: /^recorded once/ }).waitFor({ timeout: 60_000 });
    await d.page.getByRole('tab', { name: 'Live' }).click();
    await d.statusLine().waitFor();
    expect(await recordingBar(d.page), 'the recording bar after a visit to Replay').toMatchObject(FITS);

    // a scenario change keeps the storm toggle and says what it changed
    await d.toggleBug('deadlineReplacesAttempts', true);
    await d.page.getByRole('combobox', { name: 'Scenario preset' }).selectOption('scale-out');
    const changed = await d.waitForStore((s) => s.presetId === 'scale-out', 30_000, 'the scale-out scenario to load');
    expect(changed.clientConfig.bugs.deadlineReplacesAttempts, 'the toggle survives the scenario change').toBe(true);
    await expect(d.bugCheckbox('deadlineReplacesAttempts').isChecked()).resolves.toBe(true);
    await d.waitForText(d.page.getByRole('status', { name: 'Scenario change' }).locator('span'), /^Loaded scenario "Scale out": kept bug toggle Deadline replaces attempts; .*charts cleared\.$/);
    await d.waitForText(d.page.locator('.app-header .toggles'), 'bug on: Deadline replaces attempts');
    // with the storm's toggle on, step 2 says what it takes to see the fixed client
    await d.waitForText(d.page.locator('.guide-steps li').nth(1), `Failover: the fixed client recovers (turn “${BUG_HELP.deadlineReplacesAttempts.label}” off first)`);
    await d.start();
    await tilesMatchingStore(d);

    // the whole session, from the coarse ring
    await d.page.getByRole('radio', { name: 'whole session' }).click();
    await d.waitForText(d.panel('Throughput').locator('.units').first(), /^ops \/ s · whole session · \d+ s steps$/);
    await d.screenshot('f-story-after-scenario-change');
  });
});
