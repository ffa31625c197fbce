/**
 * Screenshots that cannot hang a test run. Headless Chromium now and then
 * never answers a full-page capture (`Page.captureScreenshot` with
 * `captureBeyondViewport`): once in CI the real-engine test's capture waited
 * its 30 s and the failure hook then waited on requestAnimationFrame until
 * the hook's 120 s ran out. Here every wait is bounded: the frame waits fall
 * through after a second, the full-page capture gets 20 s, and if it stalls
 * the page is captured a second way (the viewport set to the document's
 * height, a plain viewport capture, the viewport restored). A full-page
 * capture is a review artefact: if it fails both ways while the page still
 * answers scripts (its test's assertions stand), the run goes on with a loud
 * "[e2e] NO SCREENSHOT" line naming both errors; if the page no longer
 * answers, the test fails.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Page } from 'playwright-core';

const CAPTURE_TIMEOUT_MS = 20_000;
/** Chromium refuses captures taller than this many pixels */
const MAX_CAPTURE_HEIGHT = 16_000;

/** resolves with `p`, or rejects naming `what` after `ms` */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** two animation frames and 50 ms, so React has committed; falls through after 1 s if the page draws no frame */
export async function settleFrames(page: Page): Promise<void> {
  await withTimeout(
    page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const done = () => setTimeout(resolve, 50);
          const fallback = setTimeout(done, 1_000);
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              clearTimeout(fallback);
              done();
            }),
          );
        }),
    ),
    10_000,
    'waiting for the page to draw',
  );
}

/** whether the page's main thread answers a script within 5 s */
function answers(page: Page): Promise<boolean> {
  return withTimeout(page.evaluate(() => document.readyState), 5_000, 'a script').then(
    () => true,
    () => false,
  );
}

/**
 * A screenshot of the whole page (or the viewport) at `path`; bounded, with one fallback for a
 * stalled full-page capture. Returns the path, or null when a full-page capture could not be
 * taken although the page still runs (see above).
 */
export async function capturePage(page: Page, path: string, fullPage = true): Promise<string | null> {
  mkdirSync(dirname(path), { recursive: true });
  // a full page is drawn from its top: scrolled, the sticky control bar would be drawn mid-page
  if (fullPage) await withTimeout(page.evaluate(() => window.scrollTo(0, 0)), 5_000, 'scrolling to the top').catch(() => undefined);
  try {
    await page.screenshot({ path, fullPage, timeout: CAPTURE_TIMEOUT_MS });
    return path;
  } catch (first) {
    if (!fullPage) throw first;
    const reason = first instanceof Error ? first.message.split('\n')[0] : String(first);
    // for the next reader of a CI log: is the page's main thread alive, or only its frames stalled?
    const alive = (await answers(page)) ? 'the page still answers scripts' : 'the page does not answer scripts within 5 s';
    console.warn(`[e2e] full-page capture of ${path} stalled (${reason}; ${alive}); capturing with the viewport set to the page's height`);
    const viewport = page.viewportSize();
    try {
      const height = await withTimeout(
        page.evaluate(() => Math.ceil(document.documentElement.scrollHeight)),
        10_000,
        'reading the page height',
      );
      if (viewport !== null) await page.setViewportSize({ width: viewport.width, height: Math.min(height, MAX_CAPTURE_HEIGHT) });
      await settleFrames(page);
      await page.screenshot({ path, timeout: CAPTURE_TIMEOUT_MS });
      return path;
    } catch (second) {
      const why = second instanceof Error ? second.message.split('\n')[0] : String(second);
      const what = `${path}: the full-page capture failed (${reason}) and so did the tall-viewport one (${why})`;
      if (!(await answers(page))) throw new Error(`could not capture ${what}; the page no longer answers scripts`, { cause: second });
      console.warn(`[e2e] NO SCREENSHOT: ${what}; the page still answers scripts, so the test goes on without this artefact`);
      return null;
    } finally {
      if (viewport !== null) await withTimeout(page.setViewportSize(viewport), 10_000, 'restoring the viewport').catch(() => undefined);
    }
  }
}
