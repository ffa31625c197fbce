import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { withTimeout } from './capture';

/** Debian's Chromium, headless, with no background networking (the machine has no internet). */
export async function launchBrowser(): Promise<{ browser: Browser; context: BrowserContext }> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'zaris-e2e-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1600, height: 1000 },
    acceptDownloads: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // e.g. --remote-debugging-port for bench/workerProfile.ts (raw CDP to the workers)
      ...(process.env.CHROMIUM_EXTRA_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
  });
  const browser = context.browser() as Browser;
  return { browser, context };
}

/** closes what launchBrowser opened; a hung renderer cannot stall the file's teardown (the context gets 30 s, then the browser process is closed) */
export async function closeBrowser(context: BrowserContext | null, browser: Browser | null): Promise<void> {
  if (context !== null) await withTimeout(context.close(), 30_000, 'closing the browser context').catch(() => undefined);
  await browser?.close().catch(() => undefined);
}
