/**
 * (f) The page explains itself and its numbers stay true around the session's
 * turns: before Start (idle: no clock, no lit recording dot, the guide says
 * what to do), running (tiles = what the store's snapshot implies, each with
 * its window), after Pause (rates 0 and "paused", the clock and the dot stop),
 * after a scenario change (the bug toggle kept and the change named, the
 * tiles still the store's), and the charts' time window (whole session).
 */
import { describe, expect, it } from 'vitest';
import { BUG_HELP } from '../src/ui/controls/BugToggles';
import { useDashboard } from './support/fixture';
import { tilesMatchingStore } from './support/tiles';

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
    await d.waitForText(d.page.locator('.recording .rec-text'), /^not recording yet/);
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
