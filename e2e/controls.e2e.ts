/**
 * (e) Refused input: an invalid value in a control form is never sent to the
 * session; a visible message names the field and the values it allows, the
 * field is marked invalid, the configuration in effect is unchanged, and the
 * running session keeps serving operations.
 */
import { describe, expect, it } from 'vitest';
import type { DashboardPage } from './pages/dashboard.page';
import { useDashboard } from './support/fixture';

/** waits until at least `n` more operations ended than in `from` */
async function opsKeepFlowing(d: DashboardPage, from: number, n = 2_000): Promise<void> {
  await d.waitForStore((s) => s.running && s.totals.opsEnded >= from + n, 30_000, `${n} more operations after the refusal`);
}

describe('control validation', () => {
  const lab = useDashboard();

  it('refuses an invalid maxAttempts with a message naming the field and the allowed values; the session keeps running', async () => {
    const d = await lab.open();
    await d.start();
    const form = d.clientForm();
    const alert = form.getByRole('alert');
    const maxAttempts = form.getByLabel('Max attempts');

    // 0 is out of range
    let at = (await d.storeState()).totals.opsEnded;
    await d.setClientConfig({ maxAttempts: '0' });
    const refused = await d.waitForStore((s) => s.formErrors.client.length > 0, 15_000, 'the client form to be refused');
    expect(refused.formErrors.client.map((i) => i.path)).toContain('maxAttempts');
    expect(refused.clientConfig.maxAttempts, 'the configuration in effect is unchanged').toBe(3);
    const msg0 = await d.waitForText(alert, 'maxAttempts');
    expect(msg0).toMatch(/Client configuration refused/);
    expect(msg0).toMatch(/whole number 1–1000/);
    await expect(maxAttempts.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(alert.isVisible()).resolves.toBe(true);
    await opsKeepFlowing(d, at);
    await d.screenshot('e-invalid-max-attempts');

    // not a number
    at = (await d.storeState()).totals.opsEnded;
    await d.setClientConfig({ maxAttempts: 'abc' });
    const msgAbc = await d.waitForText(alert, '"abc" is not a number');
    expect(msgAbc).toMatch(/maxAttempts/);
    expect(msgAbc).toMatch(/whole number 1–1000/);
    await opsKeepFlowing(d, at);
    await expect(d.page.locator('.control-bar .state').textContent()).resolves.toMatch(/^running/);

    // a valid value is applied and clears the message
    await d.setClientConfig({ maxAttempts: '5' });
    const applied = await d.waitForStore((s) => s.clientConfig.maxAttempts === 5 && s.formErrors.client.length === 0, 15_000, 'maxAttempts 5 to be applied');
    expect(applied.running).toBe(true);
    await d.until(() => alert.count(), (n) => n === 0, 10_000, 'the refusal message to go away');
    await d.waitForText(d.page.getByLabel('Session', { exact: true }), '5 attempts');

    // the workload form refuses too, naming its field
    at = (await d.storeState()).totals.opsEnded;
    await d.setWorkload({ ratePerSec: '-5' });
    const wl = await d.waitForStore((s) => s.formErrors.workload.length > 0, 15_000, 'the workload form to be refused');
    expect(wl.formErrors.workload.map((i) => i.path)).toContain('ratePerSec');
    const msgWl = await d.waitForText(d.workloadForm().getByRole('alert'), 'ratePerSec');
    expect(msgWl).toMatch(/Workload refused/);
    expect(msgWl).toMatch(/0–10000000 per s/);
    expect(wl.workload.ratePerSec).toBe(5000);
    await opsKeepFlowing(d, at);
  });
});
