/**
 * The replay phase of `npm run bench:ui -- --phase replay [--replay-minutes N]`:
 * the built page records one long run once (the refresh storm stretched to N
 * minutes, default 10, 5,000 ops/s offered) and then
 *
 * - seeks: random targets, alternately forward and backward of the cursor,
 *   one every --seek-gap-ms (default 1500: isolated moves, not a drag); latency = the scrubber's
 *   input event → the replay store holds the frame at the new time, and →
 *   the next animation frame after it (painted);
 * - drags the scrubber with the mouse back and forth (≈ 60 moves/s) and
 *   plays at 1× through the storm, reading every rAF interval;
 * - reads what the recording holds (the index's own figures: tape,
 *   buckets, checkpoints) and the page's JS heap after a forced GC;
 * - opens Compare for `failover` and for `refresh-storm` (--compare-reps
 *   times each, fresh pages) and times, from navigation start (page load and
 *   lazy chunks included), until both runs are complete — the first frame
 *   painted after the page holds both summaries (both side cards), the
 *   "What changed" table and the verdict line — and until both timelines
 *   hold all their events (they fill in after the table).
 *
 * `--compare-only` skips the recording, the seeks and the playing.
 * Wall-clock figures: on a shared machine they move with the load.
 */
import { writeFileSync } from 'node:fs';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { findPreset } from '../src/core/sim/presets';
import { frameStats, INIT_SCRIPT, readFrames, type FrameStats } from './uiProbe';

export interface ReplayPhaseArgs {
  readonly context: BrowserContext;
  readonly base: string;
  readonly minutes: number;
  readonly seeks: number;
  /** wall ms between two seeks (the panels redraw in between) */
  readonly seekGapMs: number;
  readonly out: string;
  readonly log: (m: string) => void;
  /** only the Compare figures (no recording, seeks or playing) */
  readonly compareOnly: boolean;
  /** page opens per Compare preset */
  readonly compareReps: number;
}

interface Quantiles {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

/** one Compare page open, ms from navigation start */
export interface CompareOpen {
  /** both summaries, the delta table and the verdict painted */
  readonly bothRunsMs: number;
  /** both timelines hold all their events */
  readonly timelinesMs: number;
  /** when the page asked for the runs (ms from navigation start: the early start at page load) */
  readonly requestAtMs: number;
  /** the page's status line (request → both summaries in, each engine run, the timelines) */
  readonly status: string;
}

export interface CompareFigures {
  readonly preset: string;
  readonly opens: readonly CompareOpen[];
}

export interface ReplayPhaseResult {
  readonly scenario: string;
  readonly runMinutes: number;
  readonly events: number;
  readonly loadSec: number;
  readonly memory: Record<string, number>;
  readonly mainHeapMb: number;
  readonly seekForwardMs: Quantiles;
  readonly seekBackwardMs: Quantiles;
  readonly seekPaintedMs: Quantiles;
  readonly workerSeekMs: Quantiles;
  readonly drag: FrameStats & { readonly moves: number };
  readonly play1x: FrameStats;
  readonly compare: readonly CompareFigures[];
}

const quantiles = (xs: readonly number[]): Quantiles => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return { n: s.length, p50: q(0.5), p95: q(0.95), max: s.at(-1) ?? NaN };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** moves the scrubber to `target` ms as an input event would, and times it into the store and onto the screen */
const SEEK = `async (target) => {
  const input = document.querySelector('[data-view=replay] [data-testid=replay-scrubber]');
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const store = window.__zarisLab.replayStore;
  const v0 = store.getState().snapshot.version;
  const t0 = performance.now();
  setter.call(input, String(target));
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((res) => { const un = store.subscribe((s) => { if (s.snapshot.version !== v0) { un(); res(); } }); });
  const t1 = performance.now();
  await new Promise((r) => requestAnimationFrame(() => r()));
  const mem = document.querySelector('[data-view=replay] [data-testid=replay-memory]');
  return { storeMs: t1 - t0, paintMs: performance.now() - t0, lastT: store.getState().snapshot.totals.lastT, worker: Number(mem && mem.getAttribute('data-seek-ms')) };
}`;

async function frameCount(page: Page): Promise<number> {
  return (await page.evaluate('window.__uiBench.frameCount')) as number;
}

async function heapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const h = await cdp.send('Runtime.getHeapUsage');
  return h.usedSize / 1e6;
}

/**
 * Records, in the page from its first script on, the moment "both runs
 * complete" holds (the first animation frame after the DOM has the phase
 * done, the verdict, the table and both side cards' summary figures) and the
 * moment both timelines are filled, on the page's clock (0 = navigation start).
 */
const COMPARE_MARKS = `(() => {
  const m = {}; window.__compareMarks = m;
  const has = (sel) => document.querySelector('[data-view=compare] ' + sel) !== null;
  const check = () => {
    if (m.complete === undefined && m.seen === undefined && has('[data-testid=compare-view][data-phase=done]') && has('[data-testid=compare-verdict]') && has('[data-testid=compare-metrics]') && has('[data-testid=compare-max-attempts-a]') && has('[data-testid=compare-max-attempts-b]')) {
      m.seen = performance.now();
      requestAnimationFrame(() => { m.complete = performance.now(); });
    }
    if (m.timelines === undefined && has('[data-testid=compare-view][data-timelines=ready]')) requestAnimationFrame(() => { m.timelines = performance.now(); });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase', 'data-timelines'] });
})()`;

async function openCompare(context: BrowserContext, base: string, preset: string): Promise<CompareOpen> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.addInitScript({ content: COMPARE_MARKS });
  await page.goto(`${base}?preset=${preset}&view=compare`);
  await page.waitForFunction(() => {
    const m = (window as unknown as { __compareMarks?: { complete?: number; timelines?: number } }).__compareMarks;
    return m?.complete !== undefined && m.timelines !== undefined;
  }, null, { timeout: 300_000, polling: 100 });
  const m = (await page.evaluate('window.__compareMarks')) as { complete: number; timelines: number };
  const line = page.locator('[data-view=compare] [data-testid=compare-status]');
  const status = (await line.innerText()).trim();
  const requestAtMs = Number(await line.getAttribute('data-request-at-ms'));
  await page.close();
  return { bothRunsMs: m.complete, timelinesMs: m.timelines, requestAtMs, status };
}

/** Compare's time to both runs, for each preset, `reps` fresh page opens each (alternating presets) */
export async function measureCompare(context: BrowserContext, base: string, reps: number, log: (m: string) => void): Promise<CompareFigures[]> {
  const presets = ['failover', 'refresh-storm'];
  const opens = new Map<string, CompareOpen[]>(presets.map((p) => [p, []]));
  for (let i = 0; i < reps; i++)
    for (const p of presets) {
      const o = await openCompare(context, base, p);
      opens.get(p)?.push(o);
      log(`compare ${p}: both runs complete ${o.bothRunsMs.toFixed(0)} ms after navigation start (runs asked for at ${o.requestAtMs.toFixed(0)} ms), timelines ${o.timelinesMs.toFixed(0)} ms · ${o.status}`);
    }
  return presets.map((preset) => ({ preset, opens: opens.get(preset) ?? [] }));
}

export async function runReplayPhase(a: ReplayPhaseArgs): Promise<ReplayPhaseResult> {
  if (a.compareOnly) {
    const compare = await measureCompare(a.context, a.base, a.compareReps, a.log);
    const none = quantiles([]);
    const noFrames: FrameStats = frameStats([], 1000 / 60);
    return { scenario: '(--compare-only)', runMinutes: 0, events: NaN, loadSec: NaN, memory: {}, mainHeapMb: NaN, seekForwardMs: none, seekBackwardMs: none, seekPaintedMs: none, workerSeekMs: none, drag: { ...noFrames, moves: 0 }, play1x: noFrames, compare };
  }
  const storm = findPreset('refresh-storm');
  if (storm === undefined) throw new Error('no refresh-storm preset');
  const durationMs = Math.round(a.minutes * 60_000);
  const name = `refresh-storm-${a.minutes}min`;
  const file = `.tmp/${name}.json`;
  writeFileSync(file, JSON.stringify({ ...(storm.input as object), name, durationMs }));

  const page = await a.context.newPage();
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.addInitScript({ content: INIT_SCRIPT });
  const cdp = await a.context.newCDPSession(page);
  await page.goto(`${a.base}?preset=steady&view=replay`);
  await page.locator('[data-view=replay] [data-testid=timeline-canvas]').waitFor({ timeout: 120_000 });
  await page.waitForFunction(() => document.querySelector('[data-view=replay] [data-testid=replay-loading]') === null, null, { timeout: 120_000 });

  a.log(`replay: recording ${name} (${durationMs / 1000} s virtual) once…`);
  const t0 = Date.now();
  await page.locator('[data-view=replay] [data-testid=replay-open-file]').setInputFiles(file);
  await page.waitForFunction((n) => document.querySelector('[data-view=replay] [data-testid=identity-scenario]')?.textContent === n, name, { timeout: 600_000 });
  await page.waitForFunction(() => document.querySelector('[data-view=replay] [data-testid=replay-loading]') === null && Number(document.querySelector('[data-view=replay] [data-testid=replay-memory]')?.getAttribute('data-bytes')) > 0, null, {
    timeout: 1_800_000,
    polling: 500,
  });
  const loadSec = (Date.now() - t0) / 1000;
  await sleep(3000);
  const memory = (await page.evaluate(() => JSON.parse(document.querySelector('[data-view=replay] [data-testid=replay-memory]')?.getAttribute('data-memory') ?? '{}'))) as Record<string, number>;
  const mainHeapMb = await heapMb(cdp);
  a.log(`replay: recorded in ${loadSec.toFixed(1)} s: ${memory.events ?? '?'} events, index ${((memory.totalBytes ?? 0) / 1e6).toFixed(0)} MB; main-thread heap ${mainHeapMb.toFixed(0)} MB`);

  // ── seeks ──
  const fwd: number[] = [];
  const back: number[] = [];
  const painted: number[] = [];
  const worker: number[] = [];
  let cursor = Number(await page.locator('[data-view=replay] [data-testid=replay-clock]').getAttribute('data-cursor-ms'));
  let x = 0x9e3779b9;
  const rnd = () => ((x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
  for (let i = 0; i < a.seeks; i++) {
    // alternately behind and ahead of the cursor, anywhere in the run
    const behind = i % 2 === 0;
    const target = Math.round((behind ? rnd() * cursor : cursor + rnd() * (durationMs - cursor)) / 10) * 10;
    if (target === cursor) continue;
    const r = (await page.evaluate(`(${SEEK})(${target})`)) as { storeMs: number; paintMs: number; worker: number };
    (target < cursor ? back : fwd).push(r.storeMs);
    painted.push(r.paintMs);
    if (Number.isFinite(r.worker)) worker.push(r.worker);
    cursor = target;
    await sleep(a.seekGapMs);
  }
  a.log(`replay: ${fwd.length} forward / ${back.length} backward seeks`);

  // ── drag ──
  const scrub = page.locator('[data-view=replay] [data-testid=replay-scrubber]');
  const box = await scrub.boundingBox();
  if (box === null) throw new Error('no scrubber');
  await sleep(1000);
  const y = box.y + box.height / 2;
  const xAt = (f: number) => box.x + 8 + (box.width - 16) * f;
  await page.mouse.move(xAt(0.45), y);
  await page.mouse.down();
  const d0 = await frameCount(page);
  let moves = 0;
  for (let pass = 0; pass < 4; pass++) {
    for (let k = 0; k <= 60; k++) {
      const f = pass % 2 === 0 ? 0.45 - 0.4 * (k / 60) : 0.05 + 0.4 * (k / 60);
      await page.mouse.move(xAt(f), y);
      moves++;
      await sleep(16);
    }
  }
  const d1 = await frameCount(page);
  await page.mouse.up();
  const drag = { ...frameStats(await readFrames(page, d0, d1), 1000 / 60), moves };
  await sleep(1500);

  // ── play at 1× through the storm (from 4 s) ──
  await page.evaluate(`(${SEEK})(4000)`);
  await sleep(800);
  const p0 = await frameCount(page);
  await page.locator('[data-view=replay] [data-testid=replay-play]').click();
  await sleep(10_000);
  const p1 = await frameCount(page);
  await page.locator('[data-view=replay] [data-testid=replay-play]').click();
  const play1x = frameStats(await readFrames(page, p0, p1), 1000 / 60);
  await page.close();

  // ── Compare ──
  const compare = await measureCompare(a.context, a.base, a.compareReps, a.log);

  return {
    scenario: name,
    runMinutes: a.minutes,
    events: memory.events ?? NaN,
    loadSec,
    memory,
    mainHeapMb,
    seekForwardMs: quantiles(fwd),
    seekBackwardMs: quantiles(back),
    seekPaintedMs: quantiles(painted),
    workerSeekMs: quantiles(worker),
    drag,
    play1x,
    compare,
  };
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '—');

/** the phase's table */
export function replayTable(r: ReplayPhaseResult): string[][] {
  const q = (x: Quantiles) => `${f1(x.p50)} / ${f1(x.p95)} / ${f1(x.max)} ms (n = ${x.n})`;
  const fr = (x: FrameStats) => `${f1(x.p50Ms)} / ${f1(x.p95Ms)} / ${f1(x.maxMs)} ms; ${x.over20Pct.toFixed(1)} % over 20 ms (${x.frames} frames)`;
  const mb = (k: string) => `${((r.memory[k] ?? NaN) / 1e6).toFixed(0)} MB`;
  return [
    ['figure', 'measured', 'target'],
    [`run: ${r.scenario}`, `${(r.events / 1e6).toFixed(2)} M events, recorded + indexed + timeline in ${r.loadSec.toFixed(1)} s`, 'once'],
    ['seek forward p50 / p95 / max (input → store)', q(r.seekForwardMs), '≤ 50 ms'],
    ['seek backward p50 / p95 / max (input → store)', q(r.seekBackwardMs), '≤ 50 ms'],
    ['seek → next frame painted', q(r.seekPaintedMs), ''],
    ['  of which in the worker (frame computed)', q(r.workerSeekMs), ''],
    [`frames while dragging (${r.drag.moves} moves) p50 / p95 / max`, fr(r.drag), '16.7 ms'],
    ['frames while playing at 1× p50 / p95 / max', fr(r.play1x), '16.7 ms'],
    ['memory in the replay worker', `${mb('totalBytes')} (tape ${mb('tapeBytes')}, buckets ${mb('bucketBytes')}, ${r.memory.checkpoints ?? '?'} checkpoints ${mb('checkpointBytes')})`, 'bounded, reported'],
    ['main-thread JS heap after GC', `${r.mainHeapMb.toFixed(0)} MB`, ''],
    ...r.compare.flatMap((c) => {
      const ms = (xs: readonly number[]) => {
        const q = quantiles(xs);
        return `median ${f0(q.p50)} ms, max ${f0(q.max)} ms (${xs.map(f0).join(' / ')})`;
      };
      return [
        [`Compare ${c.preset}: navigation start → both runs complete (summaries, table, verdict painted)`, ms(c.opens.map((o) => o.bothRunsMs)), '≤ 1 s'],
        [`Compare ${c.preset}: navigation start → both timelines filled`, ms(c.opens.map((o) => o.timelinesMs)), ''],
      ];
    }),
  ];
}

/** the replay table without the rows a --compare-only run did not measure */
export function compareOnlyTable(r: ReplayPhaseResult): string[][] {
  return replayTable(r).filter((row, i) => i === 0 || row[0]?.startsWith('Compare'));
}
