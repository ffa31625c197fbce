/**
 * One browser per file and a fresh Replay page per call of `open` — the
 * replay, seek and review suites' fixture. After each test every page it
 * opened must have logged no console error, thrown no page error and failed
 * no request; then the pages close.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { ReplayPage } from '../pages/replay.page';
import { closeBrowser, launchBrowser } from './browser';

export type OpenReplay = (search: string, viewport?: { width: number; height: number }) => Promise<ReplayPage>;

/** registers the hooks (call inside `describe`); `artefacts` is created for screenshots and downloads */
export function useReplayPages(artefacts: string): { open: OpenReplay; context: () => BrowserContext } {
  let browser: Browser | null = null;
  let context: BrowserContext | null = null;
  const pages: ReplayPage[] = [];

  beforeAll(async () => {
    ({ browser, context } = await launchBrowser());
    mkdirSync(artefacts, { recursive: true });
  });

  afterEach(async () => {
    const open = pages.splice(0);
    const problems = open.flatMap((p) => p.problems);
    for (const p of open) await p.close();
    expect(problems, 'console errors, page errors or failed requests').toEqual([]);
  });

  afterAll(async () => {
    await closeBrowser(context, browser);
  });

  const ctx = (): BrowserContext => {
    if (context === null) throw new Error('the browser did not start');
    return context;
  };
  return {
    context: ctx,
    open: async (search, viewport) => {
      const p = await ReplayPage.create(ctx(), viewport);
      pages.push(p);
      await p.goto(search);
      return p;
    },
  };
}
