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
 * Redraws are staggered per chart: a new set of props is adopted in its own
 * job of the redraw queue (one per animation frame), so a panel with three
 * charts never costs one frame three Recharts passes.
 */
import { memo, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { FaultMarker } from '../../store/snapshot';
import type { TimeRow } from '../../store/selectors';
import { CHART_THEME, FAULT_STYLE } from '../../theme/statusColors';
import { useTimeCursor } from '../timeCursor';
import { enqueueRedraw } from '../updateQueue';
import { usePanelVisible } from '../visibility';
import { formatNumber, tooltipProps } from './format';
import { dataMax, dataMinPositive, layoutMarkerLabels, logTicks, niceTicks, type PlacedLabel } from './scale';

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

interface MarkerLabelProps {
  readonly viewBox?: { readonly x?: number; readonly y?: number };
  readonly text: string;
  readonly color: string;
  readonly placed: PlacedLabel;
  /** where the layout put the line (px); Recharts' own x for it comes in the viewBox */
  readonly lineX: number;
}

/** a fault marker's label in its lane of the band above the plot */
function MarkerLabel({ viewBox, text, color, placed, lineX }: MarkerLabelProps) {
  if (!placed.shown) return null;
  const x = (viewBox?.x ?? lineX) + (placed.x - lineX);
  const y = (viewBox?.y ?? 0) - 3 - placed.lane * LANE_PX;
  return (
    <text className="marker-label" x={x} y={y} fill={color} style={{ fill: color }} fontSize={LABEL_FONT_PX} fontWeight={600} paintOrder="stroke" stroke="#111a2e" strokeWidth={3}>
      {text}
    </text>
  );
}

/** a horizontal reference's label: right-aligned just under its line, inside the plot (the band above is the fault labels') */
function RefLabel({ viewBox, text, color }: { readonly viewBox?: { readonly x?: number; readonly y?: number; readonly width?: number }; readonly text: string; readonly color: string }) {
  const x = (viewBox?.x ?? 0) + (viewBox?.width ?? 0) - 4;
  const y = (viewBox?.y ?? 0) + 12;
  return (
    <text className="ref-label" x={x} y={y} textAnchor="end" fill={color} style={{ fill: color }} fontSize={LABEL_FONT_PX} paintOrder="stroke" stroke="#111a2e" strokeWidth={3}>
      {text}
    </text>
  );
}

/** the cursor: a notch on the chart's top edge, its time at the bottom (clear of the fault labels at the top) */
function CursorLabel({ viewBox, text, flip }: { readonly viewBox?: { readonly x?: number; readonly y?: number; readonly height?: number }; readonly text: string; readonly flip: boolean }) {
  const x = viewBox?.x ?? 0;
  const y = viewBox?.y ?? 0;
  const bottom = y + (viewBox?.height ?? 20) - 4;
  return (
    <g>
      <polygon points={`${x - 5},${y - 6} ${x + 5},${y - 6} ${x},${y}`} fill={CHART_THEME.reference} />
      <text x={flip ? x - 6 : x + 6} y={bottom} textAnchor={flip ? 'end' : 'start'} fill={CHART_THEME.reference} fontSize={11} fontWeight={700} paintOrder="stroke" stroke="#111a2e" strokeWidth={3}>
        {text}
      </text>
    </g>
  );
}

// Props that never change are hoisted, and the rest memoized: Recharts 3 compares axis and
// tooltip props shallowly and re-dispatches its internal settings (a full extra pass over its
// selectors) when an inline object or arrow makes them look new on every redraw.
const MARGIN_RIGHT = 12;
const TICK = { fontSize: 11 } as const;
const secondsTick = (s: number) => `${Math.round(s)}s`;
const numberTick = (v: number) => formatNumber(v);
const tLabel = (t: unknown) => `t = ${Number(t).toFixed(1)} s`;
const NO_REFS: readonly HorizontalRef[] = [];
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
    return { domain: [0, t.top] as const, ticks: t.ticks };
  }, [log, rows, series, refs, yMax]);
  const yDomain = useStableNumbers(y.domain) as [number, number];
  const yTicks = useStableNumbers(y.ticks);
  // fault labels: laid out in px beside their lines, in lanes of a band above the plot
  const shownMarkers = useMemo(() => markers.filter((m) => m.sec >= d0 && m.sec <= d1), [markers, d0, d1]);
  const plotLeft = Y_AXIS_PX;
  const plotRight = width - MARGIN_RIGHT;
  const lineXs = useMemo(() => shownMarkers.map((m) => plotLeft + ((m.sec - d0) / Math.max(1e-9, d1 - d0)) * (plotRight - plotLeft)), [shownMarkers, d0, d1, plotLeft, plotRight]);
  const placed = useMemo(
    () => layoutMarkerLabels(shownMarkers.map((m, i) => ({ x: lineXs[i] as number, width: labelWidth(markerText(m)) })), plotLeft, width - 1, MAX_LANES),
    [shownMarkers, lineXs, plotLeft, width],
  );
  const lanes = placed.reduce((n, p) => (p.shown ? Math.max(n, p.lane + 1) : n), 0);
  const margin = useMemo(() => ({ top: 8 + lanes * LANE_PX, right: MARGIN_RIGHT, bottom: 0, left: 0 }), [lanes]);
  const curve = gappy ? 'linear' : 'stepAfter';
  return (
    <div onPointerEnter={() => setHover(true)} onPointerLeave={() => setHover(false)}>
      <ComposedChart width={width} height={height} data={data} margin={margin}>
        <CartesianGrid stroke={CHART_THEME.grid} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="t" type="number" domain={xDomain} allowDataOverflow ticks={xTicks} interval={0} tickFormatter={secondsTick} stroke={CHART_THEME.axis} tick={TICK} />
        <YAxis
          stroke={CHART_THEME.axis}
          tick={TICK}
          width={Y_AXIS_PX}
          scale={log ? 'log' : 'linear'}
          domain={yDomain}
          ticks={yTicks}
          interval={0}
          allowDataOverflow
          tickFormatter={numberTick}
        />
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
            <Line
              key={s.key}
              dataKey={s.key}
              name={s.label}
              type={curve}
              stroke={s.color}
              strokeWidth={1.75}
              strokeDasharray={s.dashed ? '5 4' : undefined}
              isAnimationActive={false}
              dot={false}
              activeDot={false}
              connectNulls={false}
            />
          ),
        )}
        {refs.map((r) => (
          <ReferenceLine key={r.label} y={r.y} stroke={r.color} strokeDasharray="6 4" label={<RefLabel text={r.label} color={r.color} />} />
        ))}
        {shownMarkers.map((m, i) => (
          <ReferenceLine
            key={`${m.t}-${m.action}-${m.node}`}
            x={m.sec}
            stroke={FAULT_STYLE[m.action].color}
            strokeWidth={1.5}
            strokeDasharray="4 3"
            className="fault-marker"
            label={<MarkerLabel text={markerText(m)} color={FAULT_STYLE[m.action].color} placed={placed[i] as PlacedLabel} lineX={lineXs[i] as number} />}
          />
        ))}
        {cursorSec !== null && cursorSec >= domain[0] && cursorSec <= domain[1] ? (
          <ReferenceLine x={cursorSec} stroke={CHART_THEME.reference} strokeWidth={1.5} className="time-cursor" ifOverflow="discard" label={<CursorLabel text={`${cursorSec.toFixed(1)} s`} flip={cursorSec > domain[0] + (domain[1] - domain[0]) * 0.85} />} />
        ) : null}
      </ComposedChart>
    </div>
  );
}

const ChartBody = memo(ChartBodyImpl);

/**
 * Adopts new props in a redraw job of its own (see the file comment); the first props are drawn
 * at once. `data-chart-t` on the box is the end of the x range drawn (tests compare it with the store).
 */
function TimeChartImpl(props: TimeChartProps) {
  const [drawn, setDrawn] = useState(props);
  const background = !usePanelVisible();
  const [ref, width] = useWidth();
  // every render with new props replaces the queued job (the cleanup cancels it), so the job always adopts the latest props
  useLayoutEffect(() => {
    if (shallowEqual(drawn, props)) return;
    return enqueueRedraw(
      Object.assign(() => flushSync(() => setDrawn(props)), { label: 'chart' }),
      background ? 'background' : 'visible',
    );
  }, [drawn, props, background]);
  const height = drawn.height ?? 210;
  return (
    <div ref={ref} className="timechart" style={{ height }} data-chart-t={drawn.domain[1]}>
      {width > 0 ? <ChartBody {...drawn} width={width} /> : null}
    </div>
  );
}

export const TimeChart = memo(TimeChartImpl);
