/**
 * Pure helpers behind every time chart: nice y ticks that cover the data,
 * how many buckets one drawn step holds (decimation to the chart's pixels),
 * which fault lines share a label (they coincide on screen), and where
 * fault-marker labels go so none overlaps another or leaves the chart.
 * Pure and unit-tested (`scale.test.ts`); `TimeChart` only draws.
 */

/** y ticks from 0: a nice step (1, 2 or 5 × 10^k) and a top that covers `max` */
export interface YTicks {
  readonly top: number;
  readonly ticks: readonly number[];
}

/** the smallest of 1, 2, 5 × 10^k that is ≥ raw */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const exp = Math.floor(Math.log10(raw));
  const base = 10 ** exp;
  for (const m of [1, 2, 5, 10]) {
    // the float product can land a hair under raw (e.g. 0.1 × 3): compare with a relative tolerance
    const step = m * base;
    if (step >= raw * (1 - 1e-9)) return +step.toPrecision(12);
  }
  return 10 * base;
}

/** linear ticks 0, s, 2s, … up to the first multiple of s at or above `max`, with at most `target` + 1 ticks */
export function niceTicks(max: number, target = 4): YTicks {
  if (!(max > 0) || !Number.isFinite(max)) return { top: 1, ticks: [0, 1] };
  const step = niceStep(max / target);
  const n = Math.max(1, Math.ceil(max / step - 1e-9));
  const ticks: number[] = [];
  for (let i = 0; i <= n; i++) ticks.push(+(i * step).toPrecision(12));
  return { top: ticks[n] as number, ticks };
}

/** log ticks: the powers of ten from below `min` to at or above `max` (both > 0), at least one decade */
export function logTicks(min: number, max: number): { readonly domain: readonly [number, number]; readonly ticks: readonly number[] } {
  const lo = min > 0 && Number.isFinite(min) ? Math.floor(Math.log10(min) + 1e-9) : 0;
  const hiRaw = max > 0 && Number.isFinite(max) ? Math.ceil(Math.log10(max) - 1e-9) : lo + 1;
  const hi = Math.max(lo + 1, hiRaw);
  const ticks: number[] = [];
  for (let e = lo; e <= hi; e++) ticks.push(+(10 ** e).toPrecision(12));
  return { domain: [ticks[0] as number, ticks[ticks.length - 1] as number], ticks };
}

/** a row of a time chart: `t` in seconds, then one value per series */
export type ChartRow = { readonly t: number } & Readonly<Record<string, number | null>>;

/**
 * The largest value drawn: per row the sum of each stack's series (a stacked
 * area's top) or the series alone, and horizontal reference lines.
 */
export function dataMax(rows: readonly ChartRow[], series: readonly { readonly key: string; readonly stack?: string | undefined }[], refs: readonly number[] = []): number {
  let max = 0;
  for (const r of refs) if (r > max) max = r;
  const stacks = new Map<string, number>();
  for (const row of rows) {
    stacks.clear();
    for (const s of series) {
      const v = row[s.key];
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      if (s.stack === undefined) {
        if (v > max) max = v;
      } else {
        const sum = (stacks.get(s.stack) ?? 0) + v;
        stacks.set(s.stack, sum);
        if (sum > max) max = sum;
      }
    }
  }
  return max;
}

/** the smallest positive value drawn (log scales), or null */
export function dataMinPositive(rows: readonly ChartRow[], keys: readonly string[]): number | null {
  let min = Infinity;
  for (const row of rows)
    for (const k of keys) {
      const v = row[k];
      if (typeof v === 'number' && v > 0 && v < min) min = v;
    }
  return min === Infinity ? null : min;
}

/**
 * A chart with nothing to show but zeros and gaps draws the same picture whatever its time range:
 * per series '0' (some zero, no other value) or '-' (only gaps); null when any series has a value.
 */
export function blankSignature(rows: readonly ChartRow[], series: readonly { readonly key: string }[]): string | null {
  let sig = '';
  for (const s of series) {
    let zero = false;
    for (const r of rows) {
      const v = r[s.key];
      if (v === 0) zero = true;
      else if (v !== null && v !== undefined) return null;
    }
    sig += zero ? '0' : '-';
  }
  return sig;
}

/** steps a chart draws at most over its window: ≥ 3 px per step on a half-width chart at 1280 px, and a bounded Recharts cost */
export const MAX_STEPS = 120;

/** the shortest step drawn, ms: a 100 ms bucket holds a few client batches, so its rate is mostly batching noise */
export const MIN_STEP_MS = 500;

/**
 * Buckets per drawn step: at least `minBuckets`, and enough that a window of `windowBuckets` draws
 * at most `maxSteps` steps (a longer window is decimated, never drawn point per bucket).
 */
export function stepBucketsFor(windowBuckets: number, minBuckets = 1, maxSteps = MAX_STEPS): number {
  return Math.max(1, Math.ceil(minBuckets), Math.ceil(Math.max(0, windowBuckets) / Math.max(1, maxSteps)));
}

/** lines closer than this (px) read as one line: their faults share one label */
export const SAME_LINE_PX = 3;

/** one label for the fault lines that coincide on screen */
export interface MarkerGroup {
  /** index of the group's first marker (its line carries the label) */
  readonly first: number;
  /** markers in the group */
  readonly count: number;
  /** the label's parts, one per distinct text ("Scale out ×2"), each with the index of a marker that has it (for its colour) */
  readonly parts: readonly { readonly text: string; readonly marker: number }[];
  /** the whole label: the parts joined by {@link PART_SEPARATOR} */
  readonly text: string;
}

export const PART_SEPARATOR = ' + ';

/**
 * Groups markers (in time order, at px `xs`) whose lines fall within
 * {@link SAME_LINE_PX} of the group's first line, so two faults at one
 * instant get one label naming both ("Failover n1 + Scale out", "Scale out
 * ×2") instead of two labels stacked over one line, or none once the lanes
 * are full.
 */
export function groupMarkers(xs: readonly number[], texts: readonly string[], samePx = SAME_LINE_PX): MarkerGroup[] {
  const out: MarkerGroup[] = [];
  for (let i = 0; i < xs.length; ) {
    const x0 = xs[i] as number;
    let j = i + 1;
    while (j < xs.length && (xs[j] as number) - x0 <= samePx) j++;
    const seen = new Map<string, { marker: number; n: number }>();
    for (let k = i; k < j; k++) {
      const t = texts[k] as string;
      const had = seen.get(t);
      if (had === undefined) seen.set(t, { marker: k, n: 1 });
      else had.n++;
    }
    const parts = [...seen].map(([t, { marker, n }]) => ({ text: n > 1 ? `${t} ×${n}` : t, marker }));
    out.push({ first: i, count: j - i, parts, text: parts.map((p) => p.text).join(PART_SEPARATOR) });
    i = j;
  }
  return out;
}

/** a fault marker's label, laid out */
export interface PlacedLabel {
  /** x of the text's start, px in the chart's SVG */
  readonly x: number;
  /** 0 = the top lane */
  readonly lane: number;
  /** false: no room in any lane (the line is drawn, its label left out) */
  readonly shown: boolean;
  /** the label's horizontal extent, px */
  readonly left: number;
  readonly right: number;
}

/** px between a marker line and its label, and between two labels in a lane */
const PAD = 4;
const GAP = 6;

/** search steps before the label layout settles for the best placement found so far */
const LAYOUT_BUDGET = 20_000;

/**
 * Places each marker's label (markers in time order) beside its line inside
 * [plotLeft, chartRight]: to the right of the line, else ending at the line,
 * in a lane where it touches no other label — never drawn over another,
 * across its own line or cut at an edge (a label wider than the room on both
 * sides starts at the plot's left). As many labels as fit are shown: the
 * layout is searched, not greedy, so a newer label taking the lane an older
 * one needed (the failover's label left out beside three later faults) moves
 * to where both fit. Among layouts showing equally many, the first in the
 * order newest first, right of the line before left, the top lane first
 * wins (in a live chart the fault just pressed sits at the right edge, and
 * its label matters most); when not every label fits, an older one is left
 * out (`shown: false`) before a newer.
 */
export function layoutMarkerLabels(items: readonly { readonly x: number; readonly width: number }[], plotLeft: number, chartRight: number, maxLanes = 3): PlacedLabel[] {
  const n = items.length;
  const options: { left: number; right: number }[][] = items.map(({ x, width }) => {
    const lefts: number[] = [];
    if (x + PAD + width <= chartRight) lefts.push(x + PAD);
    if (x - PAD - width >= plotLeft) lefts.push(x - PAD - width);
    if (lefts.length === 0 && plotLeft + width <= chartRight) lefts.push(plotLeft);
    return lefts.map((left) => ({ left, right: left + width }));
  });
  const lanes: { left: number; right: number }[][] = Array.from({ length: maxLanes }, () => []);
  const free = (lane: number, left: number, right: number) => lanes[lane]!.every((o) => right + GAP <= o.left || o.right + GAP <= left);
  const choice: (PlacedLabel | null)[] = new Array(n).fill(null);
  let best: (PlacedLabel | null)[] = [];
  let bestShown = -1;
  let bestKey = '';
  let steps = 0;
  // newest first: i runs from n - 1 down to 0; `shown` counts the labels placed so far
  const search = (i: number, shown: number): void => {
    if (steps++ > LAYOUT_BUDGET || shown + i + 1 < bestShown) return;
    if (i < 0) {
      // equal counts: the layout showing the newer labels wins (their hidden flags read newest first)
      const key = choice.map((c) => (c === null ? '0' : '1')).reverse().join('');
      if (shown > bestShown || (shown === bestShown && key > bestKey)) {
        best = choice.slice();
        bestShown = shown;
        bestKey = key;
      }
      return;
    }
    for (const o of options[i]!) {
      for (let l = 0; l < maxLanes; l++) {
        if (!free(l, o.left, o.right)) continue;
        lanes[l]!.push(o);
        choice[i] = { x: o.left, lane: l, shown: true, left: o.left, right: o.right };
        search(i - 1, shown + 1);
        lanes[l]!.pop();
        choice[i] = null;
        if (bestShown === n) return;
      }
    }
    search(i - 1, shown);
  };
  search(n - 1, 0);
  return items.map(({ width }, i) => {
    const placed = best[i];
    if (placed) return placed;
    const left = options[i]![0]?.left ?? plotLeft;
    return { x: left, lane: 0, shown: false, left, right: left + width };
  });
}
