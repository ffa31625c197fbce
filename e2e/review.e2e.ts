/**
 * Design reviews, second pass, in a real browser: Compare judges by service
 * (the fixed client is shown serving users better than the storm), the
 * panel / table SVG export is real vector (parsed from the downloaded
 * file), the review report opens offline from file:// with every request
 * blocked, an imported NDJSON file rebuilds the cluster view, and a partly
 * bad link names what it dropped and applies the rest.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/core/sim/runScenario';
import { loadScenario } from '../src/core/sim/scenario';
import { shortenedPreset } from '../src/core/sim/testkit/presetInputs';
import { toNdjsonLine } from '../src/core/telemetry/ndjson';
import type { Page } from 'playwright-core';
import type { ReplayPage } from './pages/replay.page';
import { pngSize, type Saved } from './pages/replay.page';
import { useReplayPages } from './support/replayFixture';
import { capturePage } from './support/capture';

const ARTEFACTS = join(process.cwd(), 'test-results', 'e2e');

async function download(p: ReplayPage, click: () => Promise<void>): Promise<Saved> {
  const [d] = await Promise.all([p.page.waitForEvent('download', { timeout: 120_000 }), click()]);
  const path = join(ARTEFACTS, d.suggestedFilename());
  await d.saveAs(path);
  return { path, name: d.suggestedFilename(), bytes: readFileSync(path) };
}

/** counts of elements in an SVG document, parsed by the browser's XML parser (not by regex) */
interface SvgCounts {
  readonly parseError: number;
  readonly path: number;
  readonly text: number;
  readonly rect: number;
  readonly foreignObject: number;
  readonly image: number;
  readonly style: number;
  readonly texts: string[];
}

async function svgCounts(p: ReplayPage, svg: string): Promise<SvgCounts> {
  return p.page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const n = (sel: string) => doc.getElementsByTagName(sel).length;
    return {
      parseError: n('parsererror'),
      path: n('path'),
      text: n('text'),
      rect: n('rect'),
      foreignObject: n('foreignObject'),
      image: n('image'),
      style: n('style'),
      texts: Array.from(doc.getElementsByTagName('text'), (t) => t.textContent ?? ''),
    };
  }, svg);
}

describe('design reviews: compare, vector exports, report, imports, links', () => {
  const { open, context: browserContext } = useReplayPages(ARTEFACTS);

  /** a saved file in a fresh page, every request other than the file itself refused (offline) */
  async function openOffline(path: string): Promise<{ page: Page; requested: string[]; errors: string[] }> {
    const page = await browserContext().newPage();
    await page.setViewportSize({ width: 1400, height: 1000 });
    const requested: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url === `file://${path}`) return route.continue();
      requested.push(url);
      return route.abort();
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`file://${path}`);
    return { page, requested, errors };
  }

  /** what every report must be, read offline: vector charts (paths, no foreignObject), no script, no request, no error */
  async function expectSelfContainedAndClose({ page, requested, errors }: { page: Page; requested: string[]; errors: string[] }, shot: string): Promise<void> {
    expect(await page.locator('#charts svg path').count()).toBeGreaterThan(10);
    expect(await page.locator('#charts foreignObject').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(0);
    expect(requested).toEqual([]);
    expect(errors).toEqual([]);
    await capturePage(page, join(ARTEFACTS, shot));
    await page.close();
  }

  it('failover, storm off (A) vs on (B): service rows lead, coloured by direction, and the fixed client is shown serving users better', async () => {
    const p = await open('?preset=failover&view=compare', { width: 1280, height: 3600 });
    await p.waitCompareDone();
    const v = p.compareView;
    const status = v.getByTestId('compare-status');
    console.log(`[figure] compare failover: ${(await status.innerText()).trim()}`);
    // rows: service first, then amplification and refresh load
    const groups = await v.locator('table[data-testid=compare-metrics] tr.group-row th').allInnerTexts();
    expect(groups.map((g) => g.trim().toLowerCase())).toEqual(['service', 'writes', 'amplification', 'refresh load', 'recovery']);
    const ids = await v.locator('table[data-testid=compare-metrics] tr[data-testid^=compare-metric-]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')?.replace('compare-metric-', '')));
    expect(ids.slice(0, 5)).toEqual(['servedOps', 'notServedOps', 'healthyOkPerSecondInFaultWindow', 'zeroHealthySeconds', 'p99LatencyMs']);
    expect(ids).toContain('attemptsPerOp');
    expect(ids).toContain('refreshRequestsPerOp');
    expect(ids).toContain('refreshesExecuted');
    expect(ids).toContain('peakRefreshesExecutedPerSecond');
    // every row says which direction is better
    const directions = await v.locator('table[data-testid=compare-metrics] tr[data-testid^=compare-metric-] small.better').allInnerTexts();
    expect(directions).toHaveLength(ids.length);
    // (a rate of rare writes also gives the counts behind it)
    for (const d of directions) expect(d).toMatch(/^(higher|lower) is better( · \d[\d,]* vs \d[\d,]* writes(: too few to tell apart \(uncoloured\))?)?$/);
    // colours: the cell of the better side is green (win), the other red (lose)
    const colours = async (id: string) => {
      const row = v.getByTestId(`compare-metric-${id}`);
      const cls = await row.locator('td.num').evaluateAll((tds) => tds.slice(0, 2).map((td) => (td.classList.contains('win') ? 'win' : td.classList.contains('lose') ? 'lose' : '')));
      const color = await row.locator('td.num').first().evaluate((td) => getComputedStyle(td).color);
      return { cls, color, win: await row.getAttribute('data-win'), a: Number(await row.getAttribute('data-a')), b: Number(await row.getAttribute('data-b')) };
    };
    const served = await colours('servedOps');
    expect(served.a).toBeGreaterThan(served.b);
    expect(served).toMatchObject({ win: 'a', cls: ['win', 'lose'] });
    const notServed = await colours('notServedOps');
    // B's rejected arrivals count: B is worse on "not served" although it failed no operation
    expect(notServed.b).toBeGreaterThan(notServed.a);
    expect(notServed).toMatchObject({ win: 'a', cls: ['win', 'lose'] });
    const rejected = v.getByTestId('compare-part-notServedOps-turned-away-pool-full');
    expect(Number((await rejected.locator('td').nth(1).innerText()).replace(/k$/, '')) || 0).toBeGreaterThan(0);
    const failed = v.getByTestId('compare-part-notServedOps-failed');
    expect((await failed.locator('td').nth(1).innerText()).trim()).toBe('0');
    expect(await colours('zeroHealthySeconds')).toMatchObject({ win: 'a', cls: ['win', 'lose'] });
    expect(await colours('healthyOkPerSecondInFaultWindow')).toMatchObject({ win: 'a', cls: ['win', 'lose'] });
    expect(await colours('attemptsPerOp')).toMatchObject({ win: 'a' });
    // a rate of rare writes is coloured only when its counts tell the sides apart (1 vs 1 ambiguous writes read green vs red)
    const rare = await v.getByTestId('compare-metric-ambiguousWrites').locator('small.better').innerText();
    expect(rare).toBe('lower is better · 1 vs 1 writes: too few to tell apart (uncoloured)');
    expect(await colours('ambiguousWrites')).toMatchObject({ win: '', cls: ['', ''] });
    const green = served.color;
    const red = await v.getByTestId('compare-metric-servedOps').locator('td.num').nth(1).evaluate((td) => getComputedStyle(td).color);
    expect(green).not.toBe(red);
    // the summary line
    const verdict = v.getByTestId('compare-verdict');
    expect(await verdict.getAttribute('data-better')).toBe('a');
    expect(await verdict.innerText()).toMatch(/^A \(fixed client.*\) served users better than B \(.*\): [\d,]+ more operations served \(\+[\d.]+ %\), [\d,]+ fewer not served/);

    // one cursor drives both sides: the timelines and the charts follow it
    await v.getByTestId('compare-cursor').fill('7000');
    await p.page.waitForFunction(() => new URLSearchParams(location.search).get('cursor') === '7000');
    expect(await v.getByTestId('compare-cursor-time').innerText()).toBe('7.00 s');
    await p.page.waitForTimeout(600);
    const a = await p.timeline('timeline-a-canvas', v);
    const b = await p.timeline('timeline-b-canvas', v);
    expect([a.cursorMs, b.cursorMs]).toEqual([7000, 7000]);
    const atB = await v.getByTestId('compare-at-cursor-b').locator('td').allInnerTexts();
    const atA = await v.getByTestId('compare-at-cursor-a').locator('td').allInnerTexts();
    expect(atB[1]).toBe('0'); // the storm: healthy segments serve nothing at 7 s
    // … nor does the side as a whole: both rate cells are marked, not only the healthy one
    expect(atB[0]).toBe('0');
    const marked = await v.getByTestId('compare-at-cursor-b').locator('td').evaluateAll((tds) => tds.map((td) => td.classList.contains('zero')));
    expect(marked.slice(0, 2)).toEqual([true, true]);
    expect(Number(atA[1]?.replace('k', '')) || 0).toBeGreaterThan(0);
    await capturePage(p.page, join(ARTEFACTS, 'compare-failover-1280.png'));
  });

  it('SVG exports are real vector (paths and text, no foreignObject); PNG is 2×', async () => {
    const p = await open('?preset=failover&view=compare', { width: 1600, height: 3400 });
    await p.waitCompareDone();
    const v = p.compareView;
    const charts = await download(p, () => v.getByTestId('panel-compare-charts-svg').click());
    expect(charts.name).toMatch(/^zaris-failover-seed1-compare-charts\.svg$/);
    const c = await svgCounts(p, charts.bytes.toString('utf8'));
    expect(c.parseError).toBe(0);
    expect(c.foreignObject).toBe(0);
    expect(c.image).toBe(0);
    expect(c.style).toBe(0);
    expect(c.path).toBeGreaterThan(10);
    expect(c.text).toBeGreaterThan(20);
    expect(c.texts).toContain('Failover n1');
    expect(c.texts.some((t) => t.startsWith('Zaris Churn Lab — side-by-side charts · failover · seed 1'))).toBe(true);
    console.log(`[figure] compare charts SVG: ${charts.bytes.length} bytes, ${c.path} paths, ${c.text} texts`);

    const table = await download(p, () => v.getByTestId('panel-compare-table-svg').click());
    const t = await svgCounts(p, table.bytes.toString('utf8'));
    expect({ parseError: t.parseError, foreignObject: t.foreignObject }).toEqual({ parseError: 0, foreignObject: 0 });
    expect(t.texts).toContain('operations not served');
    expect(t.texts).toContain('of which turned away (pool full)');

    const png = await download(p, () => v.getByTestId('panel-compare-charts-png').click());
    const box = await v.getByTestId('compare-charts').boundingBox();
    const size = pngSize(png.bytes);
    expect(size.width).toBe(Math.ceil(box?.width ?? 0) * 2);
    expect(size.height).toBeGreaterThan(Math.ceil(box?.height ?? 0) * 2);

    // a Replay panel (Recharts) and the timeline (canvas, drawn again as SVG)
    await p.goto('?preset=failover&view=replay');
    await p.waitReplayReady(120_000);
    const r = p.page.locator('[data-view=replay]');
    const thr = await download(p, () => r.getByTestId('panel-throughput-svg').click());
    const tc = await svgCounts(p, thr.bytes.toString('utf8'));
    expect(tc.foreignObject).toBe(0);
    expect(tc.path).toBeGreaterThan(3);
    expect(tc.texts).toContain('Throughput');
    const tl = await download(p, () => r.getByTestId('timeline-export-svg').click());
    const tlc = await svgCounts(p, tl.bytes.toString('utf8'));
    expect(tlc.foreignObject).toBe(0);
    expect(tlc.rect + tlc.path).toBeGreaterThan(100);
    expect(tlc.text).toBeGreaterThan(5);

    // the file as a browser opens it: shapes and text, nothing missing
    const viewer = await browserContext().newPage();
    await viewer.setViewportSize({ width: 1700, height: 1400 });
    for (const [file, shot] of [
      [charts.path, 'export-compare-charts-svg.png'],
      [thr.path, 'export-throughput-svg.png'],
      [table.path, 'export-compare-table-svg.png'],
      [tl.path, 'export-timeline-svg.png'],
    ] as const) {
      await viewer.goto(`file://${file}`);
      // (not fullPage: Chromium's full-page capture of some SVG documents never returns)
      await viewer.screenshot({ path: join(ARTEFACTS, shot) });
    }
    await viewer.close();
  });

  it('the review report is one file that opens offline: identity, verdict, table and charts, no request leaves it', async () => {
    const p = await open('?preset=failover&view=compare', { width: 1600, height: 3400 });
    await p.waitCompareDone();
    await p.page.waitForSelector('[data-view=compare] [data-testid=compare-view][data-timelines=ready]', { timeout: 120_000 });
    const report = await download(p, () => p.compareView.getByTestId('compare-report').click());
    expect(report.name).toBe('zaris-failover-seed1-review-report.html');
    console.log(`[figure] review report: ${report.bytes.length} bytes`);
    const opened = await openOffline(report.path);
    const page = opened.page;
    expect(await page.title()).toBe('failover · seed 1 · A/B review');
    const identity = await page.locator('#identity').innerText();
    expect(identity).toMatch(/scenario\s+failover/);
    expect(identity).toMatch(/seed\s+1/);
    expect(identity).toContain('deadlineReplacesAttempts');
    expect(identity).toMatch(/client: 3 attempts/);
    expect(await page.locator('#verdict .verdict').innerText()).toMatch(/^A \(fixed client.*\) served users better than B/);
    expect(await page.locator('#delta tr[data-metric=notServedOps]').getAttribute('data-win')).toBe('a');
    expect(await page.locator('#delta tr[data-metric]').count()).toBeGreaterThanOrEqual(10);
    // the four per-operation invariants and, for an engine run, the availability rule
    expect(await page.locator('#invariants tbody tr').count()).toBe(5);
    expect(await page.locator('#invariants').innerText()).toContain('replicatedSegmentsAvailable');
    expect(await page.locator('#invariants').innerText()).toContain('violated — bug toggle on');
    const svgs = await page.locator('#charts figure > svg').count();
    expect(svgs).toBe(3);
    await expectSelfContainedAndClose(opened, 'review-report.png');
  });

  it('the Replay review report is one file that opens offline: identity, both verdicts as the header says them, figures, invariants, the timeline and the charts as inline SVG', async () => {
    const p = await open('?preset=refresh-storm&view=replay&cursor=7500', { width: 1600, height: 3400 });
    await p.waitReplayReady(120_000);
    expect(await p.cursorMs()).toBe(7500);
    const header = {
      cursor: (await p.page.getByTestId('replay-verdict-cursor').locator('.badge').innerText()).trim(),
      run: (await p.page.getByTestId('replay-verdict-run').locator('.badge').innerText()).trim(),
    };
    const report = await download(p, () => p.page.locator('[data-view=replay]').getByTestId('replay-report').click());
    expect(report.name).toBe('zaris-refresh-storm-seed1-replay-report.html');
    console.log(`[figure] replay review report: ${report.bytes.length} bytes`);
    const opened = await openOffline(report.path);
    const page = opened.page;
    expect(await page.title()).toBe('refresh-storm · seed 1 · replay review at 7.50 s');
    const identity = await page.locator('#identity').innerText();
    expect(identity).toMatch(/scenario\s+refresh-storm · preset refresh-storm/);
    expect(identity).toMatch(/seed\s+1/);
    expect(identity).toMatch(/configuration\s+client: \d+ attempts/);
    expect(identity).toMatch(/bug toggles\s+deadlineReplacesAttempts/);
    // the verdicts, labelled, and in the header's words
    const atCursor = page.locator('#verdict [data-verdict=cursor]');
    expect(await atCursor.getAttribute('data-tone')).toBe('expected');
    expect((await atCursor.innerText()).trim()).toBe(`at the cursor (7.50 s): ${header.cursor}`);
    expect((await page.locator('#verdict [data-verdict=run]').innerText()).trim()).toBe(`whole run: ${header.run}`);
    expect(header.cursor).toMatch(/operations beyond their attempt budget \([\d,]+ of them in flight\)/);
    expect(await page.locator('#figures tr').count()).toBeGreaterThanOrEqual(8);
    const invariants = await page.locator('#invariants').innerText();
    // the same five as Compare's report: the recording watched the availability rule on the engine's cluster
    for (const name of ['noLostAckedWrites', 'noRetriedRealAnswers', 'attemptBudgetKept', 'deadlineKept', 'replicatedSegmentsAvailable']) expect(invariants).toContain(name);
    expect(await page.locator('#invariants tbody tr').count()).toBe(5);
    // the timeline first, then every chart panel; real vector with text
    const titles = await page.locator('#charts figcaption').allInnerTexts();
    expect(titles[0]).toBe('Timeline (as on screen)');
    expect(titles).toEqual(expect.arrayContaining(['Throughput', 'Map refresh coalescing']));
    expect(await page.locator('#charts figure > svg').count()).toBe(titles.length);
    expect(titles.length).toBeGreaterThanOrEqual(5);
    expect(await page.locator('#charts svg text').count()).toBeGreaterThan(50);
    await expectSelfContainedAndClose(opened, 'replay-review-report.png');
  });

  it('an imported NDJSON file rebuilds the cluster view from its topology events; a file without them says what it lacks', async () => {
    // a failover run written by the engine, as the CLI's --events would
    const lines: string[] = [];
    runScenario(loadScenario(shortenedPreset('failover', 10_000, 0.2)), { sinks: [{ emit: (e) => lines.push(toNdjsonLine(e)) }] });
    const full = join(ARTEFACTS, 'import-failover.ndjson');
    writeFileSync(full, `${lines.join('\n')}\n`);
    const bare = join(ARTEFACTS, 'import-no-topology.ndjson');
    writeFileSync(bare, `${lines.filter((l) => !l.includes('"type":"topology"')).join('\n')}\n`);

    const p = await open('?preset=steady&view=replay', { width: 1600, height: 2600 });
    await p.waitReplayReady(120_000);
    // the longest main-thread task while the file is read and parsed (a figure, not a bound)
    await p.page.evaluate(() => {
      const w = window as unknown as { __longest: number };
      w.__longest = 0;
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
      }).observe({ type: 'longtask' });
    });
    await p.importFile(full);
    await p.page.waitForFunction(() => document.querySelector('[data-view=replay] [data-testid=identity-scenario]')?.textContent === 'import-failover.ndjson', null, { timeout: 120_000 });
    await p.waitReplayReady(120_000);
    console.log(`[figure] import of ${lines.length} events: longest main-thread task ${await p.page.evaluate(() => (window as unknown as { __longest: number }).__longest)} ms (parse in the import worker; the rest is the panels folding the events)`);
    const cluster = p.page.locator('[data-view=replay] [data-panel=cluster]');
    expect(await cluster.getByTestId('cluster-note').innerText()).toMatch(/rebuilt from the file's topology events/);
    expect(await cluster.locator('[aria-label^="node "]').count()).toBe(3);
    expect(await cluster.locator('[aria-label="node 1 down"]').count()).toBe(1);
    expect(await cluster.locator('[role=img]').getAttribute('aria-label')).toMatch(/^64 segments/);
    expect(await cluster.locator('.panel-foot').innerText()).toMatch(/does not carry the client's map/);
    // nor its routes or the replica sets: unknown, not 0
    for (const card of await cluster.locator('.node-card .node-stats').allInnerTexts()) expect(card).toMatch(/replica of — · client routes —/);
    await cluster.screenshot({ path: join(ARTEFACTS, 'import-cluster-view.png') });

    await p.importFile(bare);
    await p.page.waitForFunction(() => document.querySelector('[data-view=replay] [data-testid=identity-scenario]')?.textContent === 'import-no-topology.ndjson', null, { timeout: 120_000 });
    await p.waitReplayReady(120_000);
    expect(await cluster.locator('.empty').innerText()).toMatch(/lacks the "topology" event with change "initial".*it has fault events but not the initial layout/);
  });

  it('a partly bad link applies what it can and names what it dropped', async () => {
    const p = await open('?preset=failover&view=compare&cmpA=noRefreshDebounce&seed=2', { width: 1600, height: 2400 });
    const banner = p.page.getByTestId('url-error');
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/cmpB was missing, the rest of the link applies/);
    expect(await banner.innerText()).toMatch(/cmpB missing: .*run B keeps the scenario's suggested side/);
    await p.waitCompareDone();
    const v = p.compareView;
    expect(await v.getByTestId('identity-seed').innerText()).toBe('2');
    expect(await v.getByTestId('compare-side-a').locator('h3').innerText()).toBe('bug on: no refresh debounce');
    expect(await v.getByTestId('compare-side-b').locator('h3').innerText()).toBe('bug on: deadline replaces attempts');
    const bad = await open('?preset=failover&view=compare&cmpA=none&cmpB=oops&backoffMillis=250', { width: 1600, height: 2400 });
    await bad.page.getByTestId('url-error').waitFor();
    expect(await bad.page.getByTestId('url-error').innerText()).toMatch(/cmpB was ignored, the rest of the link applies[\s\S]*unknown bug toggle\(s\) "oops"/);
    await bad.waitCompareDone();
    expect(await bad.compareView.getByTestId('compare-side-a').locator('h3').innerText()).toBe('fixed client, no bug toggles');
    expect(bad.url).toContain('backoffMillis=250');
  });

  it("Compare's invariant table at 1280 px: both sides' violated badges stay inside the panel, and a visit to Replay leaves its columns alone", async () => {
    // both sides run the storm's toggle, so both carry the long "violated — bug toggle on · 2k×" badge
    const p = await open('?preset=refresh-storm&view=compare&cmpA=deadlineReplacesAttempts&cmpB=deadlineReplacesAttempts,noRefreshCoalescing', { width: 1280, height: 800 });
    await p.waitCompareDone();
    const table = p.compareView.getByTestId('compare-invariants');
    const layout = () =>
      table.evaluate((t) => {
        const panel = (t.closest('section') ?? t.parentElement ?? t).getBoundingClientRect();
        const heads = Array.from(t.querySelectorAll('thead th'), (h) => h.getBoundingClientRect());
        const firstRow = Array.from(t.querySelectorAll('tbody tr:first-child > *'), (c) => c.getBoundingClientRect());
        return {
          display: getComputedStyle(t).display,
          badgesPastPanel: Array.from(t.querySelectorAll('.badge'))
            .filter((b) => b.getBoundingClientRect().right > panel.right)
            .map((b) => b.textContent ?? ''),
          // each heading stands over its column: the same left edge as the first row's cell
          headsOverColumns: heads.length === 3 && heads.every((h, i) => Math.abs(h.left - (firstRow[i]?.left ?? -99)) <= 1),
        };
      });
    expect(await p.compareView.getByTestId('compare-inv-attemptBudgetKept').getAttribute('data-b')).toBe('expected');
    expect(await p.compareView.getByTestId('compare-inv-attemptBudgetKept').getAttribute('data-a')).toBe('expected');
    expect(await layout(), 'Compare opened first').toEqual({ display: 'table', badgesPastPanel: [], headsOverColumns: true });
    await p.page.getByRole('tab', { name: 'Replay' }).click();
    await p.page.getByTestId('replay-memory').filter({ hasText: /^recorded once/ }).waitFor({ timeout: 120_000 });
    await p.page.getByRole('tab', { name: 'Compare' }).click();
    await table.waitFor();
    expect(await layout(), 'after a visit to Replay').toEqual({ display: 'table', badgesPastPanel: [], headsOverColumns: true });
  });

  it('Compare at 1920 px', async () => {
    const p = await open('?preset=failover&view=compare', { width: 1920, height: 3200 });
    await p.waitCompareDone();
    console.log(`[figure] compare failover (second page): ${(await p.compareView.getByTestId('compare-status').innerText()).trim()}`);
    await capturePage(p.page, join(ARTEFACTS, 'compare-failover-1920.png'));
  });
});
