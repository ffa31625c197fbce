/**
 * Charts true to time (issue 9, part 3), read from the DOM and compared with
 * the store in one page task (every panel is brought to the latest snapshot,
 * then the picture and the snapshot are read together):
 *
 * - no series moves before the fault marker that caused it: the paths are
 *   straight segments (no smoothing), every step drawn before the fault's
 *   bucket is at the store's pre-fault value, and the first change can only
 *   be drawn from the fault's bucket on;
 * - fault labels never overlap each other, the reference labels or the tick
 *   labels, and none is cut at the chart's edge, at 1280 and 1920 px; panel
 *   headers (badges, export buttons) stay inside their panels;
 * - a full-page screenshot shows every panel at the same, latest snapshot.
 */
import { describe, expect, it } from 'vitest';
import { BUCKET_MS, METRICS, METRIC_WIDTH, PHASES, type Metric } from '../src/ui/store/layout';
import { selectParked, selectThroughputSplit, selectTimeDomain, type StepPlan, type TimeRow } from '../src/ui/store/selectors';
import type { TelemetrySnapshot } from '../src/ui/store/snapshot';
import { MIN_STEP_MS, stepBucketsFor } from '../src/ui/panels/chart/scale';
import type { DashboardPage } from './pages/dashboard.page';
import { useDashboard } from './support/fixture';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Rect {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

interface ChartRead {
  readonly panel: string;
  readonly box: Rect;
  /** data-plot, data-x, data-y, data-scale */
  readonly plot: readonly number[];
  readonly x: readonly number[];
  readonly y: readonly number[];
  readonly scale: string;
  /** `d` of each series' stroke (`.recharts-area-curve`) and fill (`.recharts-area-area`), in series order */
  readonly curves: readonly string[];
  readonly fills: readonly string[];
  readonly markers: readonly { readonly t: number; readonly x: number }[];
  /** fault labels: their box, how many faults each names (lines that coincide share one) and their text */
  readonly labels: readonly (Rect & { readonly faults: number; readonly text: string })[];
  readonly refLabels: readonly Rect[];
  readonly ticks: readonly Rect[];
}

interface PageRead {
  readonly version: number;
  readonly cells: readonly { readonly panel: string; readonly snapshot: string | null }[];
  readonly charts: readonly ChartRead[];
  readonly heads: readonly { readonly panel: string; readonly section: Rect; readonly parts: readonly Rect[] }[];
  readonly window: { readonly firstBucket: number; readonly length: number; readonly cols: Readonly<Record<string, readonly number[]>> };
  readonly markers: readonly { readonly t: number }[];
}

/** brings every panel to the latest snapshot and reads the picture and the store in the same task */
function readPage(d: DashboardPage): Promise<PageRead> {
  return d.page.evaluate(async (metrics: readonly string[]) => {
    interface Lab {
      store: { getState(): { faultMarkers: { t: number }[]; snapshot: { version: number; window: { firstBucket: number; length: number; cols: Record<string, Float64Array> } } } };
      refreshPanels(): Promise<void>;
    }
    const lab = (window as unknown as { __zarisLab: Lab }).__zarisLab;
    await lab.refreshPanels();
    const s = lab.store.getState();
    const rect = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    const nums = (e: Element, a: string) => (e.getAttribute(a) ?? '').split(',').map(Number);
    const charts = Array.from(document.querySelectorAll('[data-panel] .tc-box')).map((c) => ({
      panel: c.closest<HTMLElement>('[data-panel]')?.dataset.panel ?? '?',
      box: rect(c),
      plot: nums(c, 'data-plot'),
      x: nums(c, 'data-x'),
      y: nums(c, 'data-y'),
      scale: c.getAttribute('data-scale') ?? '',
      curves: Array.from(c.querySelectorAll('.recharts-area-curve')).map((p) => p.getAttribute('d') ?? ''),
      fills: Array.from(c.querySelectorAll('.recharts-area-area')).map((p) => p.getAttribute('d') ?? ''),
      markers: Array.from(c.querySelectorAll('.fault-marker')).map((m) => ({ t: Number(m.getAttribute('data-t')), x: Number(m.getAttribute('x1')) })),
      labels: Array.from(c.querySelectorAll('text.marker-label')).map((l) => ({ ...rect(l), faults: Number(l.getAttribute('data-faults')), text: l.textContent ?? '' })),
      refLabels: Array.from(c.querySelectorAll('text.ref-label')).map(rect),
      ticks: Array.from(c.querySelectorAll('.tc-tick')).map(rect),
    }));
    const heads = Array.from(document.querySelectorAll('[data-panel] section.panel')).map((sec) => ({
      panel: sec.closest<HTMLElement>('[data-panel]')?.dataset.panel ?? '?',
      section: rect(sec),
      parts: Array.from(sec.querySelectorAll('.panel-head *')).map(rect),
    }));
    const cols: Record<string, number[]> = {};
    for (const m of metrics) cols[m] = Array.from(s.snapshot.window.cols[m] ?? []);
    return {
      version: s.snapshot.version,
      cells: Array.from(document.querySelectorAll<HTMLElement>('[data-panel]')).map((c) => ({ panel: c.dataset.panel ?? '?', snapshot: c.getAttribute('data-snapshot') })),
      charts,
      heads,
      window: { firstBucket: s.snapshot.window.firstBucket, length: s.snapshot.window.length, cols },
      markers: s.faultMarkers.map((m) => ({ t: m.t })),
    };
  }, ['opsBySplit', 'segments', 'parked', 'opsByOutcome'] as const);
}

/**
 * The store's window as a snapshot for the product's selectors (metrics not read are zero). It must
 * carry every column the selectors read: the served split begins at the first bucket with an
 * operation parked **or ended** (`parked`, `opsByOutcome`); without `opsByOutcome` a run whose first
 * operations all ended inside one bucket put the test's first step one bucket later than the page's.
 */
function snapshotOf(r: PageRead): TelemetrySnapshot {
  const cols = {} as Record<Metric, Float64Array>;
  for (const m of METRICS) cols[m] = r.window.cols[m] !== undefined ? Float64Array.from(r.window.cols[m] as number[]) : new Float64Array(r.window.length * METRIC_WIDTH[m]);
  const zero = { events: 0, opsEnded: 0, opsOk: 0, opsFailed: 0, attempts: 0, retries: 0, refreshRequested: 0, refreshExecuted: 0, maxAttemptsPerOp: 0, overBudgetOps: 0, rejected: 0, lastT: 0 };
  return { version: r.version, bucketMs: BUCKET_MS, window: { firstBucket: r.window.firstBucket, length: r.window.length, cols }, session: null, parkedNow: { attempt: 0, refreshWait: 0, backoff: 0 }, stalledNow: 0, overBudgetInFlight: 0, evidence: [], events: [], invariants: null, affectedSegments: [], totals: zero };
}

/** the step plan the panels use (see useTimeWindow) */
function planOf(r: PageRead): StepPlan {
  return { stepBuckets: stepBucketsFor(r.window.length, MIN_STEP_MS / BUCKET_MS), breaks: r.markers.map((m) => Math.floor(m.t / BUCKET_MS)) };
}

/** a path's vertices; throws on anything but straight segments (M / L) */
function vertices(d: string): [number, number][] {
  const cmds = d.match(/[A-Za-z][^A-Za-z]*/g) ?? [];
  return cmds.flatMap((c) => {
    const op = c[0] as string;
    if (op !== 'M' && op !== 'L' && op !== 'Z') throw new Error(`path command ${op}: not a straight segment (${d.slice(0, 80)}…)`);
    const n = c.slice(1).trim().split(/[\s,]+/).filter(Boolean).map(Number);
    const out: [number, number][] = [];
    for (let i = 0; i + 1 < n.length; i += 2) out.push([n[i] as number, n[i + 1] as number]);
    return out;
  });
}

/** an area's upper edge: its vertices until the path turns back along the baseline */
function upperEdge(d: string): [number, number][] {
  const v = vertices(d);
  const out: [number, number][] = [];
  for (const p of v) {
    const prev = out[out.length - 1];
    if (prev !== undefined && p[0] < prev[0] - 1e-6) break;
    out.push(p);
  }
  return out;
}

/** the chart's px mapping, from its data attributes */
function mapping(c: ChartRead) {
  const [left, right, top, bottom] = c.plot as [number, number, number, number];
  const [d0, d1] = c.x as [number, number];
  const [lo, hi] = c.y as [number, number];
  return {
    xOf: (sec: number) => left + ((sec - d0) / (d1 - d0)) * (right - left),
    yOf: (v: number) => bottom - ((v - lo) / (hi - lo)) * (bottom - top),
    pxPerSec: (right - left) / (d1 - d0),
    bottom,
  };
}

const near = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;

/**
 * Checks one drawn series against the store's rows: every step that ends at or before the fault's
 * bucket is drawn flat at its store value, a step begins exactly at the fault's bucket, and that
 * bucket begins at most one bucket before the marker. Returns how far (px) the series moves after it.
 */
function checkSeries(c: ChartRead, edge: readonly [number, number][], rows: readonly TimeRow[], value: (r: TimeRow) => number | null, faultT: number, what: string): number {
  const { xOf, yOf, pxPerSec } = mapping(c);
  const marker = c.markers.find((m) => m.t === faultT);
  expect(marker, `${what}: the fault marker is drawn`).toBeDefined();
  const markerX = (marker as { x: number }).x;
  expect(near(markerX, xOf(faultT / 1000), 0.5), `${what}: the marker sits at the fault's time`).toBe(true);
  const faultBucketSec = (Math.floor(faultT / BUCKET_MS) * BUCKET_MS) / 1000;
  const xb = xOf(faultBucketSec);
  expect(markerX - xb, `${what}: the fault's bucket begins at most one bucket before the marker`).toBeLessThanOrEqual((pxPerSec * BUCKET_MS) / 1000 + 0.5);
  const has = (x: number, y: number) => edge.some(([vx, vy]) => near(vx, x, 0.75) && near(vy, y, 0.75));
  expect(edge.some(([vx]) => near(vx, xb, 0.75)), `${what}: a step begins at the fault's bucket (x ${xb.toFixed(1)})`).toBe(true);
  let checked = 0;
  for (let i = 0; i + 1 < rows.length; i++) {
    const r = rows[i] as TimeRow;
    const next = rows[i + 1] as TimeRow;
    if (next.t > faultBucketSec + 1e-9 || r.t < (c.x[0] as number)) continue;
    // no value: nothing is drawn there (the served line begins at Start, not at the session's boot)
    const v = value(r);
    if (v === null) continue;
    const y = yOf(v);
    expect(has(xOf(r.t), y) && has(xOf(next.t), y), `${what}: the step ${r.t.toFixed(1)}–${next.t.toFixed(1)} s (before the fault) is drawn flat at the store's ${v.toFixed(0)}`).toBe(true);
    checked++;
  }
  expect(checked, `${what}: pre-fault steps checked`).toBeGreaterThan(3);
  // no vertex strictly between the last pre-fault boundary and the fault's bucket moves off the pre-fault level
  const before = edge.filter(([vx]) => vx < xb - 0.75);
  const level = before[before.length - 1]?.[1];
  for (const [vx, vy] of edge) if (vx > xb - 0.75 && vx < xb - 0.25) expect(vy).toBeCloseTo(level as number, 0);
  const after = edge.filter(([vx]) => vx >= xb - 0.75).map(([, vy]) => vy);
  return level === undefined ? 0 : Math.max(0, ...after.map((vy) => Math.abs(vy - level)));
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
}

const inside = (r: Rect, box: Rect) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;

describe('charts are true to time', () => {
  const lab = useDashboard();

  it('no series moves before the fault marker that caused it (DOM paths vs the store)', async () => {
    const d = await lab.open();
    const started = await d.start();
    await d.waitForStore((s) => s.totals.lastT >= started.totals.lastT + 4_000, 30_000, '4 s of healthy traffic');
    const faulted = await d.failover(1);
    const faultT = faulted.faultMarkers.at(-1)?.t as number;
    await d.waitForStore((s) => s.totals.lastT >= faultT + 3_000, 30_000, '3 s after the failover');
    const r = await readPage(d);
    const snap = snapshotOf(r);
    const plan = planOf(r);
    console.info(`[charts] failover at ${(faultT / 1000).toFixed(3)} s (bucket ${Math.floor(faultT / BUCKET_MS)}, steps of ${plan.stepBuckets} buckets: ${Math.floor(faultT / BUCKET_MS) % plan.stepBuckets === 0 ? 'on' : 'inside'} a step boundary)`);

    // throughput per segment, healthy vs affected: two unstacked lines; no segment is affected
    // before the fault, so that line has no value there and begins at the fault's bucket
    const split = r.charts.filter((c) => c.panel === 'throughput')[1] as ChartRead;
    expect(split.curves).toHaveLength(2);
    const splitRows = selectThroughputSplit(snap, plan);
    // drawn affected first, healthy on top (SPLIT_SERIES)
    checkSeries(split, vertices(split.curves[1] as string), splitRows, (row) => row.healthy as number | null, faultT, 'throughput per segment, healthy');
    const affected = vertices(split.curves[0] as string);
    const { xOf } = mapping(split);
    const faultBucketX = xOf((Math.floor(faultT / BUCKET_MS) * BUCKET_MS) / 1000);
    expect(splitRows.filter((row) => row.t * 1000 < Math.floor(faultT / BUCKET_MS) * BUCKET_MS).every((row) => row.affected === null), 'no affected value before the fault').toBe(true);
    expect(affected.length, 'the affected line is drawn after the fault (the check is not vacuous)').toBeGreaterThan(3);
    expect(Math.min(...affected.map(([x]) => x)), 'the affected line begins at the fault\'s bucket').toBeGreaterThanOrEqual(faultBucketX - 0.75);

    // parked operations: stacked areas, the top layer's upper edge is the total in flight
    const parked = r.charts.find((c) => c.panel === 'parked') as ChartRead;
    expect(parked.fills).toHaveLength(PHASES.length);
    const parkedRows = selectParked(snap, plan);
    const total = (row: TimeRow) => PHASES.reduce((n, p) => n + (row[p] as number), 0);
    const parkedMoved = checkSeries(parked, upperEdge(parked.fills[PHASES.length - 1] as string), parkedRows, total, faultT, 'parked (total in flight)');
    expect(parkedMoved).toBeGreaterThan(3);

    // no chart on the page draws a curve (the old monotone smoothing started changes before their bucket)
    for (const c of r.charts) for (const p of [...c.curves, ...c.fills]) expect(p).not.toMatch(/[CQSTA]/);
  });

  it('fault labels never overlap and are never cut, at 1280 and 1920 px; every panel is at the latest snapshot', async () => {
    const d = await lab.open();
    const started = await d.start();
    await d.waitForStore((s) => s.totals.lastT >= started.totals.lastT + 2_000, 30_000, '2 s of traffic');
    // three faults within a few seconds: their labels compete for the same place (then two at once)
    await d.failover(1);
    await sleep(1_200);
    await d.scaleOut();
    await sleep(1_200);
    await d.failback(1);
    await sleep(1_200);
    // two scale-outs at one instant: one line on screen, so one label naming both
    await d.faultButton('scaleOut').evaluate((b: HTMLButtonElement) => {
      b.click();
      b.click();
    });
    const last = await d.waitForStore((s) => s.faultMarkers.length === 5, 30_000, 'the two scale-outs');
    await d.waitForStore((s) => s.totals.lastT >= (last.faultMarkers.at(-1)?.t ?? 0) + 1_500, 30_000, '1.5 s after the scale-outs');
    for (const width of [1280, 1920]) {
      await d.page.setViewportSize({ width, height: 1000 });
      await sleep(800); // the charts re-measure their width (ResizeObserver) and redraw
      const r = await readPage(d);
      // a fault card's facts flow in two columns: none is split between them
      const split = await d.page.evaluate(() => Array.from(document.querySelectorAll('.evidence-card li')).filter((li) => li.getClientRects().length > 1).map((li) => li.textContent));
      expect(split, `${width} px: card facts split across columns`).toEqual([]);
      // a colour names one series per panel: two charts side by side never share a swatch colour (Ok's green was once 'healthy segments' too)
      const clashes = await d.page.evaluate(() =>
        Array.from(document.querySelectorAll('section.panel')).flatMap((panel) => {
          const seen = new Map<string, string>();
          const out: string[] = [];
          for (const li of Array.from(panel.querySelectorAll('.legend li'))) {
            const swatch = li.querySelector<HTMLElement>('.swatch');
            if (swatch === null) continue;
            const colour = getComputedStyle(swatch).backgroundColor;
            const label = li.textContent ?? '';
            const first = seen.get(colour);
            if (first !== undefined) out.push(`${panel.querySelector('h2')?.textContent}: "${first}" and "${label}" are both ${colour}`);
            else seen.set(colour, label);
          }
          return out;
        }),
      );
      expect(clashes, `${width} px: legend colours shared within a panel`).toEqual([]);
      const charts = r.charts.filter((c) => c.markers.length > 0);
      expect(charts.length, `${width} px: charts with fault markers`).toBeGreaterThanOrEqual(9);
      for (const c of charts) {
        const where = `${width} px, ${c.panel} chart at x ${c.box.left.toFixed(0)}`;
        expect(c.markers.length, where).toBe(5);
        expect(c.labels.map((l) => l.text), `${where}: the simultaneous scale-outs' label`).toContain('Scale out ×2');
        // a label per line, or one naming every fault of lines that coincide on screen; an older label is
        // left out only when all three lanes are taken (five faults in 5 s on a 285 px chart); the newest is always shown
        const named = c.labels.reduce((n, l) => n + l.faults, 0);
        const lanes = new Set(c.labels.map((l) => Math.round(l.top))).size;
        if (named < c.markers.length) expect(lanes, `${where}: a fault lost its label with a lane free`).toBe(3);
        for (const l of c.labels) expect(inside(l, c.box), `${where}: label ${JSON.stringify(l)} inside the chart ${JSON.stringify(c.box)}`).toBe(true);
        for (let i = 0; i < c.labels.length; i++) {
          for (let j = i + 1; j < c.labels.length; j++) expect(overlaps(c.labels[i] as Rect, c.labels[j] as Rect), `${where}: labels ${i} and ${j} overlap`).toBe(false);
          for (const other of [...c.refLabels, ...c.ticks]) expect(overlaps(c.labels[i] as Rect, other), `${where}: label ${i} over a reference or tick label`).toBe(false);
        }
        for (const l of c.refLabels) expect(inside(l, c.box), `${where}: reference label inside`).toBe(true);
      }
      // panel headers (titles, badges, PNG/SVG buttons) stay inside their panels
      for (const h of r.heads) for (const p of h.parts) expect(inside(p, h.section), `${width} px: the ${h.panel} panel's header runs out of it`).toBe(true);
      // every panel drew the latest snapshot, and every time chart ends where the store's window ends
      const cells = r.cells.filter((c) => c.snapshot !== null);
      expect(cells.length).toBeGreaterThanOrEqual(8);
      for (const c of cells) expect(c.snapshot, `${c.panel} panel`).toBe(String(r.version));
      const end = selectTimeDomain(snapshotOf(r))[1];
      for (const c of r.charts) expect(c.x[1], `${c.panel} chart`).toBeCloseTo(end, 6);
      await d.screenshot(`charts-${width}`);
    }
  });
});
