/**
 * README's first command serves the page: the real `npm start` (vite build,
 * then src/server/start.ts) in its own process group on a free port (0), read
 * its printed URL, load the production build in Chromium and run the live
 * session: title and heading, operations flowing, no console error, no CSP
 * violation (the page's own events, and the server's report log, which also
 * covers the workers), no test hook on window. Then SIGTERM to the group:
 * every process of it ends and the URL stops answering.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { launchBrowser } from './support/browser';

/** pids still in the process group (pgrep exits 1 when there are none) */
const groupMembers = (pgid: number): string[] => {
  const r = spawnSync('pgrep', ['-g', String(pgid)], { encoding: 'utf8' });
  return r.stdout.split('\n').filter((l) => l !== '');
};

async function until<T>(read: () => T | null | Promise<T | null>, timeoutMs: number, what: () => string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('npm start', () => {
  let child: ChildProcess | null = null;
  let context: BrowserContext | null = null;

  afterAll(async () => {
    await context?.close();
    if (child?.pid !== undefined && groupMembers(child.pid).length > 0) process.kill(-child.pid, 'SIGKILL');
  });

  it('builds, prints its URL and serves the production build under the CSP; the group ends on SIGTERM', async () => {
    // vitest runs tests with NODE_ENV=test; npm start must give the production build regardless
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
    delete env.PORT;
    const proc = spawn('npm', ['start', '--', '--port', '0'], { detached: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    const pgid = proc.pid as number;
    let out = '';
    let err = '';
    proc.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c));
    proc.stderr?.setEncoding('utf8').on('data', (c: string) => (err += c));
    const url = await until(() => /served at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1] ?? null, 120_000, () => `the URL; stdout: ${out}; stderr: ${err}`);

    ({ context } = await launchBrowser());
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
      // React's development bundle announces itself: npm start must serve the production one
      if (m.text().includes('React DevTools')) problems.push(`development build: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
    // the console does not show CSP violations to playwright: the page reports its own
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`)),
    );
    const res = await page.goto(url, { waitUntil: 'load' });
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(await page.title()).toBe('Zaris Churn Lab');
    await page.getByRole('heading', { level: 1, name: 'Zaris Churn Lab' }).waitFor({ timeout: 30_000 });
    // the production build exposes nothing for tests
    expect(await page.evaluate(() => '__zarisLab' in window)).toBe(false);

    // the live workers run under the policy: operations flow
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const ops = page.locator('.kpis .kpi').filter({ has: page.locator('dt', { hasText: /^ops/ }) }).locator('dd').first();
    await until(async () => {
      const n = Number((await ops.textContent())?.replace(/[^\d.k]/g, '').replace(/k$/, 'e3') ?? '0');
      return n > 0 ? n : null;
    }, 30_000, () => 'operations to flow (the ops tile above 0)');
    await page.close();

    expect(problems).toEqual([]);
    expect(err).not.toMatch(/CSP violation/);

    process.kill(-pgid, 'SIGTERM');
    await until(() => (groupMembers(pgid).length === 0 ? true : null), 20_000, () => `the process group to end: ${groupMembers(pgid).join(', ')}`);
    await expect(fetch(url)).rejects.toThrow();
    expect(out).toContain('SIGTERM: stopping the server');
    expect(out).toMatch(/built dist\/ in \d+\.\d s/);
  }, 240_000);
});
