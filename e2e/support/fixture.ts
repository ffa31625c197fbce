/**
 * Per-file browser, per-test page: `const lab = useDashboard()` in a describe
 * block launches Debian's Chromium once for the file, gives every test a fresh
 * page (`await lab.open()`), and after each test asserts that the page logged
 * no console error, threw no uncaught error, failed no request and shows no
 * session error, then closes it (its workers end with it); and that no page or
 * worker violated the Content-Security-Policy (reports to the server). A failed test's
 * page is saved as test-results/e2e/FAILED-<test name>.png first.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { DashboardPage } from '../pages/dashboard.page';
import { closeBrowser, launchBrowser } from './browser';
import { withTimeout } from './capture';
import { cspReportReader } from './cspReports';

export interface DashboardFixture {
  /** a fresh dashboard page for this test */
  open(search?: string): Promise<DashboardPage>;
}

export function useDashboard(): DashboardFixture {
  let browser: Browser | null = null;
  let context: BrowserContext | null = null;
  const pages: DashboardPage[] = [];
  const cspViolations = cspReportReader();

  beforeAll(async () => {
    ({ browser, context } = await launchBrowser());
  });

  afterEach(async (ctx) => {
    const open = pages.splice(0);
    const problems = open.flatMap((p) => p.problems);
    problems.push(...cspViolations());
    const sessionErrors: string[] = [];
    const failed = ctx.task.result?.state === 'fail';
    for (const [i, p] of open.entries()) {
      if (!p.page.isClosed()) {
        // a failed test leaves its page as an artefact
        if (failed) {
          const name = `FAILED-${ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}${open.length > 1 ? `-${i}` : ''}`;
          await withTimeout(p.screenshot(name), 45_000, `the ${name} screenshot`).catch(() => undefined);
        }
        const s = await withTimeout(p.storeState(), 10_000, 'reading the store').catch(() => null);
        if (s?.sessionError) sessionErrors.push(`session error shown: ${s.sessionError}`);
      }
      await p.close().catch((e: unknown) => problems.push(`the page did not close: ${e instanceof Error ? e.message : String(e)}`));
    }
    expect([...problems, ...sessionErrors], 'console errors, page errors, failed requests, CSP violations or session errors').toEqual([]);
  });

  afterAll(async () => {
    await closeBrowser(context, browser);
  });

  return {
    async open(search = '') {
      if (context === null) throw new Error('the browser did not start');
      const page = await DashboardPage.create(context);
      pages.push(page);
      await page.goto(search);
      return page;
    },
  };
}
