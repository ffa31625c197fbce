/**
 * A live session records itself: configuration changes, fault presses and
 * pauses become an editable scenario (faults + the `changes` schedule) that
 * "Save as scenario" downloads and "Replay in engine" runs deterministically.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../src/core/sim/scenario';
import { useDashboard } from './support/fixture';

describe('live session recording', () => {
  const lab = useDashboard();

  it('saves control changes, faults and the pause as a scenario and replays it in the engine', async () => {
    const d = await lab.open();
    await d.start();
    await d.setClientConfig({ maxAttempts: '5' });
    await d.waitForStore((s) => s.clientConfig.maxAttempts === 5, 15_000, 'maxAttempts 5 to be applied');
    await d.failover(1);
    await d.waitForStore((s) => s.totals.opsEnded > 3_000, 30_000, 'operations after the failover');
    await d.pause();

    const [download] = await Promise.all([d.page.waitForEvent('download'), d.page.getByTestId('save-scenario').click()]);
    const file = await download.path();
    const input = JSON.parse(readFileSync(file, 'utf8')) as {
      name: string;
      faults: { atMs: number; action: string; node?: number }[];
      changes: { atMs: number; client?: { maxAttempts?: number }; paused?: boolean }[];
    };
    const scenario = loadScenario(input, download.suggestedFilename()); // a valid SPEC §10 file as saved
    expect(input.name).toMatch(/-recorded$/);
    const change = input.changes.find((c) => c.client?.maxAttempts === 5);
    const failover = input.faults.find((f) => f.action === 'failover' && f.node === 1);
    expect(change, 'the maxAttempts change is in the schedule').toBeDefined();
    expect(failover, 'the failover press is in the faults').toBeDefined();
    expect(failover?.atMs ?? 0).toBeGreaterThan(change?.atMs ?? Infinity);
    expect(input.changes[input.changes.length - 1]).toMatchObject({ paused: true });
    expect(scenario.durationMs).toBeGreaterThan(failover?.atMs ?? Infinity);

    await d.page.getByTestId('replay-recording').click();
    const replay = d.page.locator('[data-view=replay]');
    await replay.getByTestId('timeline-canvas').waitFor({ timeout: 60_000 });
    await d.page.waitForFunction(
      (name) => document.querySelector('[data-view=replay] [data-testid=identity-scenario]')?.textContent === name,
      input.name,
      { timeout: 60_000 },
    );
    await d.page.waitForFunction(() => document.querySelector('[data-view=replay] [data-testid=replay-loading]') === null, null, { timeout: 120_000 });
    const ops = Number(await replay.getByTestId('timeline-canvas').getAttribute('data-ops'));
    expect(ops, 'operations in the replayed timeline').toBeGreaterThan(1_000);
    const identity = await replay.getByTestId('run-identity').innerText();
    expect(identity).toMatch(new RegExp(`${input.changes.length} scheduled changes?: `));
    // the cursor is at the end: the settings then (maxAttempts 5 from the recorded change), not the start's 3
    expect(identity).toMatch(/^5 attempts · /m);
    await d.screenshot('recording-replayed');
    // the cursor is at the end, after the recorded pause: the tiles read 0 and "paused", as Live did then
    const served = replay.locator('.kpis .kpi').filter({ hasText: /^ops \/ s served/ });
    expect(await served.locator('dd.kpi-value').innerText()).toBe('0');
    expect(await served.locator('dd.kpi-win').innerText()).toMatch(/paused$/);
  });
});
