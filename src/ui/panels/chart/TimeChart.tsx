/**
 * The one time-series chart: session seconds on x, fault markers as
 * vertical lines on every time chart, live-friendly settings (no animation,
 * no dots), series styled from the one series config.
 *
 * True to time: rows are steps (`t` = the step's start, see
 * `store/seriesSelectors.ts`) drawn as steps — never a smoothed curve, which
 * would start a change before the bucket it happened in; a series with gaps
 * (no data in a step) is drawn as explicit flat segments, so a lone step
 * shows and a gap draws nothing. Areas have no outline: a zero draws
 * nothing. y ticks are nice (1, 2, 5 × 10^k) and the axis covers the data
 * (`scale.ts`); fault labels sit in a band above the plot, laid out so none
 * overlaps another or leaves the chart.
 *
 * Recharts draws the series (and the tooltip); the grid, the axes, the
 * fault markers, horizontal references and the replay cursor are plain SVG
 * layers in the same px box (`Grid`, `Overlay`): Recharts' axis and
 * reference-line components were most of a chart's redraw cost.
 *
 * Redraws are staggered per chart: a new set of props is adopted in its own
 * job of the redraw queue (one per animation frame), so a panel with three
 * charts never costs one frame three Recharts passes.
 */
import { memo, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { Area, ComposedChart, Tooltip, XAxis, YAxis } from 'recharts';
import { pauseLabel, type FaultMarker, type PauseSpan } from '../../store/snapshot';
import { usePauseSpans } from '../../store/StoreContext';
import type { TimeRow } from '../../store/selectors';
import { CHART_THEME, FAULT_STYLE } from '../../theme/statusColors';
import { useTimeCursor } from '../timeCursor';
import { enqueueRedraw } from '../updateQueue';
import { usePanelVisible } from '../visibility';
import { formatNumber, tooltipProps } from './format';
import { blankSignature, dataMax, dataMinPositive, groupMarkers, layoutMarkerLabels, logTicks, niceTicks, PART_SEPARATOR, type MarkerGroup, type PlacedLabel } from './scale';

export interface TimeSeries {
  readonly key: string;
  readonly label: string;
  readonly color: string;
  /** stacked areas share a stack id; lines are drawn over them */
  readonly kind: 'area' | 'line';
  readonly stack?: string;
  readonly dashed?: boolean;
}

export interface HorizontalRef {
  readonly y: number;
  readonly label: string;
  readonly color: string;
}

export interface TimeChartProps {
  readonly rows: readonly TimeRow[];
  readonly series: readonly TimeSeries[];
  readonly domain: readonly [number, number];
  readonly markers: readonly (FaultMarker & { readonly sec: number })[];
  /** unit shown in the tooltip, e.g. "ops/s" */
  readonly unit: string;
  readonly height?: number;
  readonly log?: boolean;
  readonly refs?: readonly HorizontalRef[];
  /** replay time cursor, seconds (undefined: the view's time cursor, if any; null: none) */
  readonly cursor?: number | null;
  /** fixed y maximum (e.g. one scale for two charts side by side) */
  readonly yMax?: number;
}

/** fault labels: font, lane height, and the band above the plot they sit in */
const LABEL_FONT_PX = 11;
const LANE_PX = 13;
const MAX_LANES = 3;
const Y_AXIS_PX = 52;
/** the x axis's tick labels under the plot */
const X_AXIS_PX = 24;

let measureCtx: CanvasRenderingContext2D | null | undefined;
/** a label's width in px (canvas text metrics in the page's font; a per-character estimate without a canvas) */
function labelWidth(text: string): number {
  if (measureCtx === undefined) {
    measureCtx = typeof document !== 'undefined' ? (document.createElement('canvas').getContext('2d') ?? null) : null;
    if (measureCtx !== null) measureCtx.font = `600 ${LABEL_FONT_PX}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  }
  // + the 3 px halo stroke on each side
  return Math.ceil((measureCtx?.measureText(text).width ?? text.length * 6.6) + 3);
}

function markerText(m: FaultMarker): string {
  return `${FAULT_STYLE[m.action].label}${m.action === 'scaleOut' ? '' : ` n${m.node}`}`;
}

// Props that never change are hoisted, and the rest memoized: Recharts 3 compares axis and
// tooltip props shallowly and re-dispatches its internal settings (a full extra pass over its
// selectors) when an inline object or arrow makes them look new on every redraw.
const MARGIN_RIGHT = 12;
const secondsTick = (s: number) => `${Math.round(s)}s`;
const numberTick = (v: number) => formatNumber(v);
const tLabel = (t: unknown) => `t = ${Number(t).toFixed(1)} s`;
const NO_REFS: readonly HorizontalRef[] = [];
/** share of a lines-only chart's height below 0, so a line at 0 clears the x axis */
const LINE_FLOOR_SHARE = 0.03;

/** x tick spacings, seconds: the smallest giving ≤ 8 ticks over the domain is used */
const TICK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];

/**
 * x ticks at round seconds (explicit, so Recharts does not measure tick labels to thin them out
 * on every redraw)
 */
export function secondTicks(from: number, to: number): number[] {
  const span = Math.max(1e-9, to - from);
  const step = TICK_STEPS.find((s) => span / s <= 8) ?? Math.ceil(span / 8 / 3600) * 3600;
  const out: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to + 1e-9; t += step) out.push(t);
  return out;
}

/**
 * Step rows as explicit flat segments: each row at its start and again at the next row's start
 * (drawn with straight lines). For series with gaps: a step curve drops a lone step between two
 * gaps (one point draws nothing); two points per step draw it.
 */
export function expandSteps(rows: readonly TimeRow[]): TimeRow[] {
  const out: TimeRow[] = [];
  for (let i = 0; i + 1 < rows.length; i++) {
    const r = rows[i] as TimeRow;
    out.push(r, { ...r, t: (rows[i + 1] as TimeRow).t });
  }
  return out;
}

/** the same array as last time when the numbers are the same (Recharts compares props by identity) */
function useStableNumbers(next: readonly number[]): number[] {
  const key = next.join(',');
  return useMemo(() => key.split(',').map(Number), [key]);
}

/** the element's content width, px (0 until measured) */
function useWidth(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    setWidth(Math.floor(el.clientWidth));
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

function shallowEqual(a: object, b: object): boolean {
  const ka = Object.keys(a) as (keyof typeof a)[];
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** the plot's box inside the chart, px */
interface Plot {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** the y axis's tick labels and the horizontal grid under the series (plain SVG: it changes only with the ticks) */
const Grid = memo(function Grid({ plot, ys, labels, width, height }: { readonly plot: Plot; readonly ys: readonly number[]; readonly labels: readonly string[]; readonly width: number; readonly height: number }) {
  return (
    <svg className="tc-under" width={width} height={height} aria-hidden="true">
      {ys.map((y, i) => (
        <g key={i}>
          <line x1={plot.left} x2={plot.right} y1={y} y2={y} stroke={CHART_THEME.grid} strokeDasharray="3 3" />
          <text x={plot.left - 6} y={y} dy="0.32em" textAnchor="end" className="tc-tick">
            {labels[i]}
          </text>
        </g>
      ))}
      <line x1={plot.left} x2={plot.left} y1={plot.top} y2={plot.bottom} stroke={CHART_THEME.axis} />
    </svg>
  );
});

/**
 * The chart's own layer over the series: paused spans of the workload (shaded, "paused": their
 * zeros are not an outage), the x axis, fault markers and their labels, horizontal references and
 * the replay cursor — plain SVG in the same px space Recharts plots in (both map
 * the same domains linearly onto the same box), at a fraction of the cost of Recharts' axis and
 * reference-line components.
 */
function Overlay({
  plot,
  width,
  height,
  xTicks,
  xOf,
  yOf,
  markers,
  lineXs,
  groups,
  placed,
  refs,
  cursorSec,
  pauses,
}: {
  readonly plot: Plot;
  readonly width: number;
  readonly height: number;
  readonly xTicks: readonly number[];
  readonly xOf: (sec: number) => number;
  readonly yOf: (v: number) => number;
  readonly markers: readonly (FaultMarker & { readonly sec: number })[];
  readonly lineXs: readonly number[];
  /** the labels: one per group of coinciding lines, laid out in `placed` */
  readonly groups: readonly MarkerGroup[];
  readonly placed: readonly PlacedLabel[];
  readonly refs: readonly HorizontalRef[];
  readonly cursorSec: number | null;
  readonly pauses: readonly ShownPause[];
}) {
  return (
    <svg className="tc-over" width={width} height={height} aria-hidden="true">
      {pauses.map((p) => (
        <g key={p.from} className="paused-span" data-from={p.from}>
          <rect x={p.x0} y={plot.top} width={Math.max(1, p.x1 - p.x0)} height={plot.bottom - plot.top} fill={CHART_THEME.paused} fillOpacity={0.16} />
          {p.x1 - p.x0 >= labelWidth(p.label) + 8 ? (
            // mid-height: the top is where reference labels ("ceiling 2/s") and fault labels sit, and a pause draws zeros below
            <text className="paused-label" x={p.x0 + 4} y={(plot.top + plot.bottom) / 2} style={{ fill: CHART_THEME.paused }} fontSize={LABEL_FONT_PX} fontStyle="italic">
              {p.label}
            </text>
          ) : null}
        </g>
      ))}
      <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} stroke={CHART_THEME.axis} />
      {xTicks.map((t) => {
        const x = xOf(t);
        const text = secondsTick(t);
        // the last label would run past the chart's right edge: end it at its tick
        const anchor = x + labelWidth(text) / 2 > width ? 'end' : 'middle';
        return (
          <g key={t}>
            <line x1={x} x2={x} y1={plot.bottom} y2={plot.bottom + 5} stroke={CHART_THEME.axis} />
            <text x={x} y={plot.bottom + 17} textAnchor={anchor} className="tc-tick">
              {text}
            </text>
          </g>
        );
      })}
      {refs.map((r) => {
        const y = yOf(r.y);
        return (
          <g key={r.label} className="tc-ref">
            <line x1={plot.left} x2={plot.right} y1={y} y2={y} stroke={r.color} strokeDasharray="6 4" />
            <text className="ref-label" x={plot.right - 4} y={y + 12} textAnchor="end" style={{ fill: r.color }} fontSize={LABEL_FONT_PX} paintOrder="stroke" stroke="#111a2e" strokeWidth={3}>
              {r.label}
            </text>
          </g>
        );
      })}
      {markers.map((m, i) => (
        <line key={`${i}-${m.t}-${m.action}-${m.node}`} className="fault-marker" data-t={m.t} x1={lineXs[i]} x2={lineXs[i]} y1={plot.top} y2={plot.bottom} stroke={FAULT_STYLE[m.action].color} strokeWidth={1.5} strokeDasharray="4 3" />
      ))}
      {groups.map((g, i) => {
        const p = placed[i] as PlacedLabel;
        if (!p.shown) return null;
        const first = markers[g.first] as FaultMarker;
        return (
          <text key={`${g.first}-${first.t}`} className="marker-label" data-faults={g.count} x={p.x} y={plot.top - 3 - p.lane * LANE_PX} fontSize={LABEL_FONT_PX} fontWeight={600} paintOrder="stroke" stroke="#111a2e" strokeWidth={3}>
            {g.parts.map((part, k) => (
              <tspan key={part.text} style={{ fill: FAULT_STYLE[(markers[part.marker] as FaultMarker).action].color }}>
                {k > 0 ? PART_SEPARATOR : ''}
                {part.text}
              </tspan>
            ))}
          </text>
        );
      })}
      {cursorSec !== null ? <Cursor x={xOf(cursorSec)} plot={plot} text={`${cursorSec.toFixed(1)} s`} flip={xOf(cursorSec) > plot.left + (plot.right - plot.left) * 0.85} /> : null}
    </svg>
  );
}

/** a pause drawn in a chart: its px span (clipped to the plot) and its start (a key) */
interface ShownPause {
  readonly from: number;
  readonly x0: number;
  readonly x1: number;
  /** "paused", or "not started" before the first Start */
  readonly label: string;
}

/** the pauses inside the x domain `[d0, d1]` (seconds), in px; an open pause runs to the domain's end */
function shownPauses(spans: readonly PauseSpan[], d0: number, d1: number, xOf: (sec: number) => number): ShownPause[] {
  const out: ShownPause[] = [];
  for (const s of spans) {
    const a = Math.max(d0, s.from / 1000);
    const b = Math.min(d1, s.to === null ? d1 : s.to / 1000);
    if (b > a) out.push({ from: s.from, x0: xOf(a), x1: xOf(b), label: pauseLabel(s) });
  }
  return out;
}

/** the replay cursor: a line with a notch on the plot's top edge, its time at the bottom (clear of the fault labels at the top) */
function Cursor({ x, plot, text, flip }: { readonly x: number; readonly plot: Plot; readonly text: string; readonly flip: boolean }) {
  return (
    <g className="time-cursor">
      <line x1={x} x2={x} y1={plot.top} y2={plot.bottom} stroke={CHART_THEME.reference} strokeWidth={1.5} />
      <polygon points={`${x - 5},${plot.top - 6} ${x + 5},${plot.top - 6} ${x},${plot.top}`} fill={CHART_THEME.reference} />
      <text x={flip ? x - 6 : x + 6} y={plot.bottom - 4} textAnchor={flip ? 'end' : 'start'} fill={CHART_THEME.reference} fontSize={11} fontWeight={700} paintOrder="stroke" stroke="#111a2e" strokeWidth={3}>
        {text}
      </text>
    </g>
  );
}

/** the two rows that draw a series of zeros ('0') or gaps ('-') edge to edge, keyed by series */
const BLANK_DOMAIN: [number, number] = [0, 1];

function blankRows(sig: string, series: readonly { readonly key: string }[]): TimeRow[] {
  const row: Record<string, number | null> = {};
  series.forEach((s, i) => (row[s.key] = sig[i] === '0' ? 0 : null));
  return [
    { ...row, t: 0 },
    { ...row, t: 1 },
  ] as TimeRow[];
}

type SeriesLayerProps = {
  readonly width: number;
  readonly height: number;
  readonly data: TimeRow[];
  readonly margin: { readonly top: number; readonly right: number; readonly bottom: number; readonly left: number };
  readonly xDomain: [number, number];
  readonly yDomain: [number, number];
  readonly log: boolean;
  readonly series: readonly TimeSeries[];
  readonly curve: 'linear' | 'stepAfter';
  readonly hover: boolean;
  readonly tooltip: ReturnType<typeof tooltipProps>;
};

/** what Recharts draws: the series (and the tooltip while hovered); memoized, so an unchanged picture costs nothing */
const SeriesLayer = memo(function SeriesLayer({ width, height, data, margin, xDomain, yDomain, log, series, curve, hover, tooltip }: SeriesLayerProps) {
  return (
    <ComposedChart width={width} height={height} data={data} margin={margin}>
        <XAxis dataKey="t" type="number" domain={xDomain} allowDataOverflow hide niceTicks="none" />
        <YAxis hide scale={log ? 'log' : 'linear'} domain={yDomain} allowDataOverflow niceTicks="none" />
        {hover ? <Tooltip {...tooltip} /> : null}
        {series.map((s) =>
          s.kind === 'area' ? (
            <Area
              key={s.key}
              dataKey={s.key}
              name={s.label}
              type={curve}
              stackId={s.stack}
              stroke="none"
              fill={s.color}
              fillOpacity={0.7}
              isAnimationActive={false}
              dot={false}
              activeDot={false}
            />
          ) : (
            // a line is an unfilled, unstacked Area: Recharts' Line measures its path (getTotalLength, a forced layout) on every redraw
            <Area
              key={s.key}
              dataKey={s.key}
              name={s.label}
              type={curve}
              stroke={s.color}
              strokeWidth={1.75}
              strokeDasharray={s.dashed ? '5 4' : undefined}
              fill="none"
              isAnimationActive={false}
              dot={false}
              activeDot={false}
              connectNulls={false}
            />
          ),
        )}
    </ComposedChart>
  );
});

function ChartBodyImpl({ rows, series, domain, markers, unit, height = 210, log = false, refs = NO_REFS, cursor, yMax, width }: TimeChartProps & { readonly width: number }) {
  const viewCursor = useTimeCursor();
  const cursorSec = cursor === undefined ? (viewCursor?.cursorSec ?? null) : cursor;
  const [d0, d1] = domain;
  const xDomain = useMemo(() => [d0, d1] as [number, number], [d0, d1]);
  const xTicks = useMemo(() => secondTicks(d0, d1), [d0, d1]);
  const tooltip = useMemo(() => tooltipProps(unit, tLabel), [unit]);
  // the tooltip machinery (a dozen store subscriptions per chart) is mounted only while the pointer is over the chart
  const [hover, setHover] = useState(false);
  const gappy = useMemo(() => rows.some((r) => series.some((s) => r[s.key] === null)), [rows, series]);
  const data = useMemo(() => (gappy ? expandSteps(rows) : (rows as TimeRow[])), [gappy, rows]);
  const y = useMemo(() => {
    if (log) {
      const keys = series.map((s) => s.key);
      const lo = dataMinPositive(rows, keys);
      return logTicks(lo ?? 1, dataMax(rows, series.map((s) => ({ key: s.key }))));
    }
    const t = niceTicks(Math.max(dataMax(rows, series, refs.map((r) => r.y)), yMax ?? 0));
    // with a line: the domain begins a little below 0, so a line at 0 (affected segments served nothing, no
    // refresh failed) is drawn above the x axis instead of under it (an area beside it fills from 0, not from
    // the axis); stacked areas alone keep 0 on the axis
    const floor = series.some((s) => s.kind === 'line') ? -LINE_FLOOR_SHARE * t.top : 0;
    return { domain: [floor, t.top] as const, ticks: t.ticks };
  }, [log, rows, series, refs, yMax]);
  const yDomain = useStableNumbers(y.domain) as [number, number];
  const yTicks = useStableNumbers(y.ticks);
  // fault labels: laid out in px beside their lines, in lanes of a band above the plot
  const shownMarkers = useMemo(() => markers.filter((m) => m.sec >= d0 && m.sec <= d1), [markers, d0, d1]);
  const left = Y_AXIS_PX;
  const right = width - MARGIN_RIGHT;
  const xOf = useMemo(() => (sec: number) => left + ((sec - d0) / Math.max(1e-9, d1 - d0)) * (right - left), [left, right, d0, d1]);
  const lineXs = useMemo(() => shownMarkers.map((m) => xOf(m.sec)), [shownMarkers, xOf]);
  const spans = usePauseSpans();
  const pauses = useMemo(() => shownPauses(spans, d0, d1, xOf), [spans, d0, d1, xOf]);
  // lines that coincide on screen (two faults at one instant) share one label naming both
  const groups = useMemo(() => groupMarkers(lineXs, shownMarkers.map(markerText)), [lineXs, shownMarkers]);
  const placed = useMemo(() => layoutMarkerLabels(groups.map((g) => ({ x: lineXs[g.first] as number, width: labelWidth(g.text) })), left, width - 1, MAX_LANES), [groups, lineXs, left, width]);
  const lanes = placed.reduce((n, p) => (p.shown ? Math.max(n, p.lane + 1) : n), 0);
  const top = 8 + lanes * LANE_PX;
  const bottom = height - X_AXIS_PX;
  const plot = useMemo((): Plot => ({ left, right, top, bottom }), [left, right, top, bottom]);
  const margin = useMemo(() => ({ top, right: MARGIN_RIGHT, bottom: X_AXIS_PX, left: Y_AXIS_PX }), [top]);
  const [lo, hi] = yDomain;
  const yOf = useMemo(() => {
    if (!log) return (v: number) => bottom - ((v - lo) / Math.max(1e-9, hi - lo)) * (bottom - top);
    const l0 = Math.log10(lo);
    const l1 = Math.log10(hi);
    return (v: number) => bottom - ((Math.log10(v) - l0) / Math.max(1e-9, l1 - l0)) * (bottom - top);
  }, [log, lo, hi, top, bottom]);
  const gridYs = useStableNumbers(yTicks.map(yOf));
  const gridLabels = useMemo(() => yTicks.map(numberTick), [yTicks]);
  const curve = gappy ? 'linear' : 'stepAfter';
  // nothing but zeros and gaps: the same two rows every time, so Recharts is not asked to redraw a flat line that only moved in time
  const blankSig = useMemo(() => (hover ? null : blankSignature(rows, series)), [hover, rows, series]);
  const blank = useMemo(() => (blankSig === null ? null : blankRows(blankSig, series)), [blankSig, series]);
  const shownCursor = cursorSec !== null && cursorSec >= d0 && cursorSec <= d1 ? cursorSec : null;
  return (
    <div
      className="tc-box"
      // the px box and the domains drawn, for tests that compare the picture with the store
      data-plot={`${plot.left},${plot.right},${plot.top},${plot.bottom}`}
      data-x={`${d0},${d1}`}
      data-y={`${lo},${hi}`}
      data-scale={log ? 'log' : 'linear'}
      onPointerEnter={() => setHover(true)} onPointerLeave={() => setHover(false)}>
      <Grid plot={plot} ys={gridYs} labels={gridLabels} width={width} height={height} />
      <SeriesLayer width={width} height={height} data={blank ?? data} margin={margin} xDomain={blank !== null ? BLANK_DOMAIN : xDomain} yDomain={yDomain} log={log} series={series} curve={curve} hover={hover} tooltip={tooltip} />
      <Overlay plot={plot} width={width} height={height} xTicks={xTicks} xOf={xOf} yOf={yOf} markers={shownMarkers} lineXs={lineXs} groups={groups} placed={placed} refs={refs} cursorSec={shownCursor} pauses={pauses} />
    </div>
  );
}

const ChartBody = memo(ChartBodyImpl);

/** adopts new props in a redraw job of its own (see the file comment) */
function TimeChartImpl(props: TimeChartProps) {
  // nothing is drawn until the first job runs: a panel that appears with three charts mounts them in three frames, not one
  const [drawn, setDrawn] = useState<TimeChartProps | null>(null);
  const background = !usePanelVisible();
  const [ref, width] = useWidth();
  // every render with new props replaces the queued job (the cleanup cancels it), so the job always adopts the latest props
  useLayoutEffect(() => {
    if (drawn !== null && shallowEqual(drawn, props)) return;
    return enqueueRedraw(
      Object.assign(() => flushSync(() => setDrawn(props)), { label: 'chart' }),
      background ? 'background' : 'visible',
    );
  }, [drawn, props, background]);
  return (
    <div ref={ref} className="timechart" style={{ height: props.height ?? 210 }}>
      {width > 0 && drawn !== null ? <ChartBody {...drawn} width={width} /> : null}
    </div>
  );
}

export const TimeChart = memo(TimeChartImpl);
