/**
 * Page object of the design-review views (Replay and Compare): what a user
 * does — open a link, scrub the cursor, export, import a file, pick a
 * comparison — and what the tests read: data attributes the views publish
 * for this purpose (cursor, timeline counts, metric values), the replay
 * store, and downloads. Records console errors, page errors and failed
 * requests from the start.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Download, Locator, Page } from 'playwright-core';
import { withTimeout } from '../support/capture';

/** what the timeline canvas reports about what it holds and shows */
export interface TimelineStats {
  readonly ops: number;
  readonly segments: number;
  readonly lanes: number;
  readonly refreshes: number;
  readonly t0: number;
  readonly t1: number;
  readonly cursorMs: number | null;
  /** css px */
  readonly width: number;
  readonly height: number;
}

/** a saved download */
export interface Saved {
  readonly path: string;
  readonly name: string;
  readonly bytes: Buffer;
}

/** width and height from a PNG's IHDR chunk */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.length < 24 || bytes.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export class ReplayPage {
  readonly problems: string[] = [];

  private constructor(readonly page: Page) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.problems.push(`console.error: ${m.text()}`);
    });
    page.on('pageerror', (e) => this.problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => this.problems.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? '?'})`));
  }

  static async create(context: BrowserContext, viewport = { width: 1600, height: 3400 }): Promise<ReplayPage> {
    const page = await context.newPage();
    await page.setViewportSize(viewport);
    return new ReplayPage(page);
  }

  async goto(search: string): Promise<void> {
    const base = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:4179/';
    await this.page.goto(`${base}${search}`);
  }

  get url(): string {
    return this.page.url();
  }

  // ---------- replay ----------

  private get view(): Locator {
    return this.page.locator('[data-view=replay]');
  }

  /** waits until the replay has loaded its run and rests (not loading, not playing) */
  async waitReplayReady(timeout = 60_000): Promise<void> {
    await this.view.getByTestId('timeline-canvas').waitFor({ timeout });
    await this.page.waitForFunction(
      () => document.querySelector('[data-view=replay] [data-testid=replay-loading]') === null && document.querySelector('[data-view=replay] [data-testid=replay-clock]')?.getAttribute('data-cursor-ms') !== null,
      null,
      { timeout },
    );
    await this.settle();
  }

  /** waits for the cursor to stop moving and the panels to redraw */
  async settle(): Promise<void> {
    let last = '';
    for (let i = 0; i < 40; i++) {
      await this.page.waitForTimeout(250);
      const now = `${await this.cursorMs()}|${JSON.stringify(await this.timeline())}`;
      if (now === last) break;
      last = now;
    }
    await this.page.waitForTimeout(800); // chart redraws are queued one per frame
  }

  async cursorMs(): Promise<number> {
    return Number(await this.view.getByTestId('replay-clock').getAttribute('data-cursor-ms'));
  }

  async identity(): Promise<{ scenario: string; seed: string }> {
    const id = this.page.locator('[data-view]:not([hidden]) [data-testid=run-identity]').first();
    return { scenario: (await id.getByTestId('identity-scenario').innerText()).trim(), seed: (await id.getByTestId('identity-seed').innerText()).trim() };
  }

  async timeline(testId = 'timeline-canvas', scope: Locator = this.page.locator('[data-view]:not([hidden])')): Promise<TimelineStats> {
    const c = scope.getByTestId(testId).first();
    const a = await c.evaluate((el) => {
      const d = (el as HTMLCanvasElement).dataset;
      return { ops: d.ops, segments: d.segments, lanes: d.lanes, refreshes: d.refreshes, t0: d.t0, t1: d.t1, cursorMs: d.cursorMs, width: el.clientWidth, height: el.clientHeight };
    });
    const n = (s: string | undefined) => Number(s ?? NaN);
    return { ops: n(a.ops), segments: n(a.segments), lanes: n(a.lanes), refreshes: n(a.refreshes), t0: n(a.t0), t1: n(a.t1), cursorMs: a.cursorMs ? Number(a.cursorMs) : null, width: a.width, height: a.height };
  }

  /** clicks the scrubber at `fraction` of its width (the cursor jumps there) */
  async scrubTo(fraction: number): Promise<void> {
    const s = this.view.getByTestId('replay-scrubber');
    const box = await s.boundingBox();
    if (box === null) throw new Error('no scrubber');
    await this.page.mouse.click(box.x + 8 + (box.width - 16) * fraction, box.y + box.height / 2);
    await this.settle();
  }

  /** per panel: its text and where its time cursors are (what "moves" when the cursor moves) */
  async panelFingerprints(): Promise<Record<string, { text: string; cursors: string[] }>> {
    return this.view.evaluate((root) => {
      const out: Record<string, { text: string; cursors: string[] }> = {};
      for (const cell of Array.from(root.querySelectorAll<HTMLElement>('[data-panel]'))) {
        const cursors = Array.from(cell.querySelectorAll('.time-cursor line')).map((l) => l.getAttribute('x1') ?? '');
        out[cell.dataset.panel ?? '?'] = { text: cell.innerText, cursors };
      }
      return out;
    });
  }

  /** the replay store's newest event time (what the panels were fed up to) */
  async replayLastT(): Promise<number> {
    return this.page.evaluate(() => {
      const lab = (window as unknown as { __zarisLab?: { replayStore: { getState(): { snapshot: { totals: { lastT: number } } } } } }).__zarisLab;
      return lab?.replayStore.getState().snapshot.totals.lastT ?? -1;
    });
  }

  private async download(click: () => Promise<void>): Promise<Saved> {
    const [d] = await Promise.all([this.page.waitForEvent('download', { timeout: 120_000 }), click()]);
    return this.save(d);
  }

  /** keeps the download under its suggested name (so it can be opened again as that file) */
  private async save(d: Download): Promise<Saved> {
    const name = d.suggestedFilename();
    const path = join(mkdtempSync(join(tmpdir(), 'zaris-download-')), name);
    await d.saveAs(path);
    return { path, name, bytes: readFileSync(path) };
  }

  exportTimelinePng(scope: Locator = this.view, testId = 'timeline'): Promise<Saved> {
    return this.download(() => scope.getByTestId(`${testId}-export-png`).click());
  }

  exportNdjson(): Promise<Saved> {
    return this.download(() => this.view.getByTestId('replay-export-ndjson').click());
  }

  /** opens a file in the replay (scenario JSON or NDJSON events), as a user picking it would */
  async importFile(path: string): Promise<void> {
    await this.view.getByTestId('replay-open-file').setInputFiles(path);
  }

  async replayError(): Promise<string | null> {
    const e = this.view.getByTestId('replay-error');
    return (await e.count()) === 0 ? null : (await e.innerText()).trim();
  }

  async urlError(): Promise<string | null> {
    const e = this.page.getByTestId('url-error');
    return (await e.count()) === 0 ? null : (await e.innerText()).trim();
  }

  async selectedTab(): Promise<string> {
    return (await this.page.locator('[role=tab][aria-selected=true]').innerText()).trim();
  }

  // ---------- compare ----------

  get compareView(): Locator {
    return this.page.locator('[data-view=compare]');
  }

  async waitCompareDone(timeout = 120_000): Promise<void> {
    await this.page.waitForSelector('[data-view=compare] [data-testid=compare-view][data-phase=done]', { timeout });
    await this.compareView.getByTestId('timeline-b-canvas').waitFor({ timeout });
    await this.page.waitForTimeout(500);
  }

  /** a metric row of the delta table: A and B values */
  async compareMetric(id: string): Promise<{ a: number; b: number }> {
    const row = this.compareView.getByTestId(`compare-metric-${id}`);
    return { a: Number(await row.getAttribute('data-a')), b: Number(await row.getAttribute('data-b')) };
  }

  async compareInvariant(name: string): Promise<{ a: string; b: string }> {
    const row = this.compareView.getByTestId(`compare-inv-${name}`);
    return { a: (await row.getAttribute('data-a')) ?? '', b: (await row.getAttribute('data-b')) ?? '' };
  }

  async close(): Promise<void> {
    await withTimeout(this.page.close(), 20_000, 'closing the page');
  }
}
