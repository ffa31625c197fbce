/**
 * The timeline's scene, pure: what is visible in the viewport (lanes from
 * the recorder's window query, refresh spans, fault bands, ticks) and where
 * it goes on a plot of a given size. The renderer draws it and the pointer
 * hit-tests against it, so both agree on the geometry.
 */
import type { Lane, LaneMode, RefreshSpan, TimelineAt } from '../../core/replay/opStory';
import { epochChanges, faultBands, type FaultBand } from './faultBands';
import type { PauseSpan } from '../store/snapshot';
import { laneOfStory, type RetriedQuery } from './retriedIndex';
import { niceTicks, timeToX, type Viewport } from './viewport';

/** What the scene reads from a recording (a TimelineRecorder fits). */
export type TimelineQuery = TimelineAt;

export type LaneFilter = 'all' | 'retried';

export interface Layout {
  readonly width: number;
  readonly height: number;
  /** the lane label column, px */
  readonly labelW: number;
  readonly axisH: number;
  /** the strip with fault labels */
  readonly faultH: number;
  readonly refreshH: number;
  readonly rowH: number;
  readonly scrollbarW: number;
}

export const DEFAULT_LAYOUT: Omit<Layout, 'width' | 'height'> = { labelW: 196, axisH: 24, faultH: 18, refreshH: 30, rowH: 18, scrollbarW: 8 };

export interface SceneOptions {
  readonly viewport: Viewport;
  readonly mode: LaneMode;
  readonly filter: LaneFilter;
  /** first lane shown */
  readonly laneOffset: number;
  readonly width: number;
  readonly height: number;
  readonly cursorMs: number | null;
  readonly selectedOp: number | null;
  readonly hoverOp: number | null;
  /** the time the recording is shown as of (a replay's cursor, `TimelineFeed.cursorMs`); absent: all of it */
  readonly asOfMs?: number;
  /** the workload's pauses (shaded across the lanes); absent: none */
  readonly pauses?: readonly PauseSpan[];
}

export interface LaneRow {
  readonly lane: Lane;
  /** top of the row, px */
  readonly y: number;
}

export interface Scene {
  readonly layout: Layout;
  readonly viewport: Viewport;
  readonly mode: LaneMode;
  readonly filter: LaneFilter;
  readonly rows: readonly LaneRow[];
  /** lanes with something in the window (after the filter) */
  readonly totalLanes: number;
  /** the filter looked at only the first `scanned` lanes of the window (null: all) */
  readonly scanLimited: boolean;
  readonly laneOffset: number;
  readonly visibleRows: number;
  readonly spans: readonly RefreshSpan[];
  readonly bands: readonly FaultBand[];
  /** the workload's pauses, ms (an open one runs to the window's end) */
  readonly pauses: readonly PauseSpan[];
  readonly epochs: readonly { readonly t: number; readonly epoch: number }[];
  readonly ticks: { readonly step: number; readonly ticks: readonly number[] };
  readonly cursorMs: number | null;
  readonly selectedOp: number | null;
  readonly hoverOp: number | null;
  /** one op in `sampling` is shown */
  readonly sampling: number;
  /** the recording is shown as of this time (Infinity: all of it) */
  readonly asOfMs: number;
}

/**
 * What an empty lane area says. A replay shows the run as at its cursor, so past the cursor the
 * window holds nothing yet — "none in this window" would deny the operations the overview shows there.
 */
export function emptyLanesMessage(s: Pick<Scene, 'filter' | 'viewport' | 'asOfMs'>): string {
  const what = s.filter === 'retried' ? 'No retried operations' : 'No operations';
  if (s.asOfMs >= s.viewport.t1) return `${what} in this window`;
  const at = `${(s.asOfMs / 1000).toFixed(2)} s`;
  if (s.asOfMs < s.viewport.t0) return `Nothing yet: the cursor (${at}) is before this window`;
  if (s.asOfMs === s.viewport.t0) return `Nothing yet: the cursor (${at}) is at the start of this window`;
  return `${what} up to the cursor (${at}): the timeline shows the run as it stood then`;
}

/** lanes the "retried only" filter scans in a window */
export const RETRIED_SCAN_LANES = 4000;

/** the y of the first lane row */
export const rowsTop = (l: Layout): number => l.axisH + l.faultH + l.refreshH;
/** the plot's x range */
export const plotX = (l: Layout): { readonly x0: number; readonly w: number } => ({ x0: l.labelW, w: Math.max(1, l.width - l.labelW - l.scrollbarW) });
/** lane rows that fit */
export const visibleRowsOf = (l: Layout): number => Math.max(0, Math.floor((l.height - rowsTop(l)) / l.rowH));

const wasRetried = (lane: Lane): boolean => lane.bars.some((b) => b.attempt > 1) || lane.waits.length > 0;

/** the "retried only" lanes of an op-mode window, from the retried index (op stories) */
function retriedLanes(q: TimelineQuery, index: RetriedQuery, o: SceneOptions, visibleRows: number): { lanes: Lane[]; total: number; offset: number } {
  const ops = index.opsIn(o.viewport.t0, o.viewport.t1);
  const offset = Math.max(0, Math.min(o.laneOffset, ops.length - visibleRows));
  const now = q.timeRange().endMs;
  const lanes: Lane[] = [];
  for (const op of ops.slice(offset, offset + visibleRows)) {
    const st = q.story(op);
    if (st !== null) lanes.push(laneOfStory(st, now));
  }
  return { lanes, total: ops.length, offset };
}

export function buildScene(q: TimelineQuery, o: SceneOptions, retried: RetriedQuery | null = null, base: Omit<Layout, 'width' | 'height'> = DEFAULT_LAYOUT): Scene {
  const layout: Layout = { ...base, width: o.width, height: o.height };
  const visibleRows = visibleRowsOf(layout);
  const { t0, t1 } = o.viewport;
  let rows: LaneRow[];
  let totalLanes: number;
  let laneOffset = o.laneOffset;
  let scanLimited = false;
  let sampling: number;
  const top = rowsTop(layout);
  if (o.filter === 'retried' && o.mode === 'op' && retried !== null) {
    const r = retriedLanes(q, retried, o, visibleRows);
    totalLanes = r.total;
    laneOffset = r.offset;
    sampling = q.sampling.factor;
    rows = r.lanes.map((lane, i) => ({ lane, y: top + i * layout.rowH }));
  } else if (o.filter === 'retried') {
    const r = q.lanes(o.mode, t0, t1, RETRIED_SCAN_LANES);
    sampling = r.sampling;
    const kept = r.lanes.filter(wasRetried);
    scanLimited = r.totalLanes > RETRIED_SCAN_LANES;
    totalLanes = kept.length;
    laneOffset = Math.max(0, Math.min(laneOffset, totalLanes - visibleRows));
    rows = kept.slice(laneOffset, laneOffset + visibleRows).map((lane, i) => ({ lane, y: top + i * layout.rowH }));
  } else {
    const probe = q.lanes(o.mode, t0, t1, laneOffset + visibleRows);
    totalLanes = probe.totalLanes;
    sampling = probe.sampling;
    const clamped = Math.max(0, Math.min(laneOffset, totalLanes - visibleRows));
    const r = clamped === laneOffset ? probe : q.lanes(o.mode, t0, t1, clamped + visibleRows);
    laneOffset = clamped;
    rows = r.lanes.slice(laneOffset).map((lane, i) => ({ lane, y: top + i * layout.rowH }));
  }
  const plot = plotX(layout);
  const faults = q.faults();
  return {
    layout,
    viewport: o.viewport,
    mode: o.mode,
    filter: o.filter,
    rows,
    totalLanes,
    scanLimited,
    laneOffset,
    visibleRows,
    spans: q.refreshSpans(t0, t1),
    bands: faultBands(faults),
    pauses: o.pauses ?? [],
    epochs: epochChanges(faults),
    ticks: niceTicks(o.viewport, Math.max(2, Math.floor(plot.w / 110))),
    cursorMs: o.cursorMs,
    selectedOp: o.selectedOp,
    hoverOp: o.hoverOp,
    sampling,
    asOfMs: o.asOfMs ?? Infinity,
  };
}

/** x of time `t` on the scene's plot */
export function xOf(s: Scene, t: number): number {
  const p = plotX(s.layout);
  return timeToX(s.viewport, t, p.x0, p.w);
}

export type Hit =
  | { readonly kind: 'bar'; readonly op: number; readonly index: number; readonly lane: Lane }
  | { readonly kind: 'gap'; readonly op: number; readonly index: number; readonly lane: Lane }
  | { readonly kind: 'wait'; readonly op: number; readonly index: number; readonly lane: Lane }
  | { readonly kind: 'op'; readonly op: number; readonly lane: Lane }
  | { readonly kind: 'refresh'; readonly span: RefreshSpan }
  | { readonly kind: 'band'; readonly band: FaultBand };

/** what is under (x, y): an attempt, backoff, wait, op envelope, refresh span or fault band */
export function hitTest(s: Scene, x: number, y: number): Hit | null {
  const l = s.layout;
  const p = plotX(l);
  if (x < p.x0 || x > p.x0 + p.w) {
    const row = s.rows.find((r) => y >= r.y && y < r.y + l.rowH);
    const first = row?.lane.ops[0];
    return row && first ? { kind: 'op', op: first.op, lane: row.lane } : null;
  }
  const near = (a: number, b: number, slop: number): boolean => {
    const xa = xOf(s, a);
    const xb = Math.max(xOf(s, b), xa + 1);
    return x >= xa - slop && x <= xb + slop;
  };
  const pick = <T extends { readonly t0: number; readonly t1: number }>(xs: readonly T[]): number => {
    const exact = xs.findIndex((v) => near(v.t0, v.t1, 0));
    return exact >= 0 ? exact : xs.findIndex((v) => near(v.t0, v.t1, 3));
  };
  const refreshY = l.axisH + l.faultH;
  if (y >= refreshY && y < refreshY + l.refreshH) {
    const span = s.spans[pick(s.spans)];
    return span ? { kind: 'refresh', span } : null;
  }
  if (y >= l.axisH && y < refreshY) {
    const band = s.bands[pick(s.bands)];
    return band ? { kind: 'band', band } : null;
  }
  const row = s.rows.find((r) => y >= r.y && y < r.y + l.rowH);
  if (row === undefined) return null;
  const lane = row.lane;
  const bar = pick(lane.bars);
  if (bar >= 0) return { kind: 'bar', op: (lane.bars[bar] as Lane['bars'][number]).op, index: bar, lane };
  const wait = pick(lane.waits);
  if (wait >= 0) return { kind: 'wait', op: (lane.waits[wait] as Lane['waits'][number]).op, index: wait, lane };
  const gap = pick(lane.gaps);
  if (gap >= 0) return { kind: 'gap', op: (lane.gaps[gap] as Lane['gaps'][number]).op, index: gap, lane };
  const env = lane.ops[pick(lane.ops)];
  return env ? { kind: 'op', op: env.op, lane } : null;
}
