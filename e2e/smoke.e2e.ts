import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowser, launchBrowser } from './support/browser';
import { capturePage } from './support/capture';

let context: BrowserContext;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  ({ context, browser } = await launchBrowser());
  page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
});

afterAll(async () => {
  await closeBrowser(context ?? null, browser ?? null);
});

test('the dashboard loads, starts the live workers and shows operations flowing', async () => {
  await page.goto(process.env.E2E_BASE_URL as string);
  await page.getByRole('button', { name: /Start/ }).click();
  await page.waitForFunction(
    () => {
      const lab = (window as unknown as { __zarisLab?: { store: { getState(): { snapshot?: { totals?: { opsEnded?: number } } } } } }).__zarisLab;
      const text = document.body.innerText;
      return lab !== undefined && /ops \/ s/.test(text) && !/ops \/ s\s*0\b/.test(text);
    },
    null,
    { timeout: 30_000 },
  );
  await capturePage(page, 'test-results/e2e/smoke.png');
  expect(problems).toEqual([]);
});
