/**
 * Timeline viewport math, pure: which time range [t0, t1] (ms since run
 * start) the plot shows, and how wheel, drag, keys and the overview brush
 * move it. Every result is clamped to the run's bounds and a minimum span.
 */

export interface Viewport {
  /** ms since run start at the plot's left edge */
  readonly t0: number;
  /** ms at the right edge */
  readonly t1: number;
}

export interface Bounds {
  /** earliest time the viewport may show, ms */
  readonly min: number;
  /** latest time, ms */
  readonly max: number;
}

/** narrowest span one can zoom to, ms (sub-ms attempts stay visible at this zoom) */
export const MIN_SPAN_MS = 2;
/** zoom factor of one wheel notch / key press */
export const ZOOM_STEP = 1.25;
/** fraction of the span one pan key press moves */
export const PAN_STEP = 0.15;

/** the viewport moved inside the bounds, keeping its span (shrunk to fit) */
export function clampViewport(v: Viewport, b: Bounds): Viewport {
  const full = Math.max(MIN_SPAN_MS, b.max - b.min);
  const span = Math.min(full, Math.max(MIN_SPAN_MS, v.t1 - v.t0));
  let t0 = Number.isFinite(v.t0) ? v.t0 : b.min;
  if (t0 < b.min) t0 = b.min;
  if (t0 + span > b.min + full) t0 = b.min + full - span;
  return { t0, t1: t0 + span };
}

/** the whole run */
export function fullViewport(b: Bounds): Viewport {
  return { t0: b.min, t1: b.min + Math.max(MIN_SPAN_MS, b.max - b.min) };
}

/** zooms by `factor` (> 1 zooms in) keeping the time under `anchor` (0..1 across the plot) in place */
export function zoomAt(v: Viewport, factor: number, anchor: number, b: Bounds): Viewport {
  const a = Math.min(1, Math.max(0, anchor));
  const span = v.t1 - v.t0;
  const at = v.t0 + a * span;
  const next = Math.max(MIN_SPAN_MS, span / factor);
  return clampViewport({ t0: at - a * next, t1: at - a * next + next }, b);
}

/** pans by `fraction` of the span (negative = back in time) */
export function panBy(v: Viewport, fraction: number, b: Bounds): Viewport {
  const d = (v.t1 - v.t0) * fraction;
  return clampViewport({ t0: v.t0 + d, t1: v.t1 + d }, b);
}

/** pans by a pixel drag of `dx` over a plot `width` px wide (drag right = back in time) */
export function panByPixels(v: Viewport, dx: number, width: number, b: Bounds): Viewport {
  return width <= 0 ? v : panBy(v, -dx / width, b);
}

/** the viewport centred on `t`, same span */
export function centerOn(v: Viewport, t: number, b: Bounds): Viewport {
  const half = (v.t1 - v.t0) / 2;
  return clampViewport({ t0: t - half, t1: t + half }, b);
}

/** a brush from a to b (either order) on the overview */
export function fromBrush(a: number, c: number, b: Bounds): Viewport {
  const lo = Math.min(a, c);
  const hi = Math.max(a, c);
  const span = Math.max(MIN_SPAN_MS, hi - lo);
  const mid = (lo + hi) / 2;
  return clampViewport({ t0: mid - span / 2, t1: mid + span / 2 }, b);
}

/** time → x px in a plot starting at `x0`, `width` px wide */
export function timeToX(v: Viewport, t: number, x0: number, width: number): number {
  return x0 + ((t - v.t0) / (v.t1 - v.t0)) * width;
}

/** x px → time */
export function xToTime(v: Viewport, x: number, x0: number, width: number): number {
  return v.t0 + ((x - x0) / Math.max(1, width)) * (v.t1 - v.t0);
}

/** zoom factor for a wheel delta (pixels; negative = zoom in) */
export function wheelZoomFactor(deltaY: number): number {
  const notches = Math.max(-10, Math.min(10, deltaY / 100));
  return ZOOM_STEP ** -notches;
}

export type ViewportKey = 'zoomIn' | 'zoomOut' | 'panLeft' | 'panRight' | 'reset';

/** the viewport action of a key (W/S/A/D as in trace viewers, +/-, arrows, 0/Home) or null */
export function keyAction(key: string): ViewportKey | null {
  switch (key) {
    case 'w':
    case 'W':
    case '+':
    case '=':
      return 'zoomIn';
    case 's':
    case 'S':
    case '-':
    case '_':
      return 'zoomOut';
    case 'a':
    case 'A':
    case 'ArrowLeft':
      return 'panLeft';
    case 'd':
    case 'D':
    case 'ArrowRight':
      return 'panRight';
    case '0':
    case 'Home':
      return 'reset';
    default:
      return null;
  }
}

/** applies a key action (zooms around the centre) */
export function applyKey(v: Viewport, action: ViewportKey, b: Bounds): Viewport {
  switch (action) {
    case 'zoomIn':
      return zoomAt(v, ZOOM_STEP, 0.5, b);
    case 'zoomOut':
      return zoomAt(v, 1 / ZOOM_STEP, 0.5, b);
    case 'panLeft':
      return panBy(v, -PAN_STEP, b);
    case 'panRight':
      return panBy(v, PAN_STEP, b);
    case 'reset':
      return fullViewport(b);
  }
}

/** first lane index after scrolling by `delta` lanes, clamped so the last page stays full */
export function scrollLanes(offset: number, delta: number, total: number, visible: number): number {
  const max = Math.max(0, total - visible);
  return Math.min(max, Math.max(0, Math.round(offset + delta)));
}

const NICE = [1, 2, 5];

/** tick times at a "nice" step (1, 2, 5 × 10^k ms) for about `count` ticks across the viewport */
export function niceTicks(v: Viewport, count: number): { readonly step: number; readonly ticks: readonly number[] } {
  const span = v.t1 - v.t0;
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-6)));
  let step = mag * 10;
  for (const n of NICE) {
    if (n * mag >= raw) {
      step = n * mag;
      break;
    }
  }
  const ticks: number[] = [];
  for (let t = Math.ceil(v.t0 / step) * step; t <= v.t1 + 1e-9 && ticks.length < 1000; t += step) ticks.push(Math.round(t * 1e6) / 1e6);
  return { step, ticks };
}

/** a tick label: seconds for steps ≥ 100 ms, else ms with decimals as the step needs */
export function formatTick(t: number, step: number): string {
  if (step >= 1000) return `${+(t / 1000).toFixed(0)} s`;
  if (step >= 100) return `${+(t / 1000).toFixed(1)} s`;
  if (step >= 1) return `${+t.toFixed(0)} ms`;
  const digits = Math.min(3, Math.ceil(-Math.log10(step)));
  return `${t.toFixed(digits)} ms`;
}

/** a duration for labels: "820 µs", "12 ms", "1.25 s" */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 10) return `${+ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${+(ms / 1000).toFixed(2)} s`;
}

/** a window around `t`: `before` ms earlier to `after` ms later, inside the bounds */
export function around(t: number, before: number, after: number, b: Bounds): Viewport {
  return clampViewport({ t0: t - before, t1: t + after }, b);
}
