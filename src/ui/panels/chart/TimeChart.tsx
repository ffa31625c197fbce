/**
 * The one time-series chart: session seconds on x, fault markers as
 * vertical lines on every time chart, live-friendly settings (no animation,
 * no dots), series styled from the one series config.
 */
import { memo, useMemo, useState } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { FaultMarker } from '../../store/snapshot';
import type { TimeRow } from '../../store/selectors';
import { CHART_THEME, FAULT_STYLE } from '../../theme/statusColors';
import { useTimeCursor } from '../timeCursor';
import { formatNumber, markerLanes, tooltipProps } from './format';

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

interface MarkerLabelProps {
  readonly viewBox?: { readonly x?: number; readonly y?: number };
  readonly text: string;
  readonly color: string;
  readonly lane: number;
}

/** a fault marker's label at the top of its line, in its lane */
function MarkerLabel({ viewBox, text, color, lane }: MarkerLabelProps) {
  const x = (viewBox?.x ?? 0) + 4;
  const y = (viewBox?.y ?? 0) + 11 + lane * 13;
  return (
    <text x={x} y={y} fill={color} fontSize={11} fontWeight={600} paintOrder="stroke" stroke="#111a2e" strokeWidth={3}>
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
const MARGIN = { top: 14, right: 12, bottom: 0, left: 0 } as const;
const TICK = { fontSize: 11 } as const;
const secondsTick = (s: number) => `${Math.round(s)}s`;
const numberTick = (v: number) => formatNumber(v);
const tLabel = (t: unknown) => `t = ${Number(t).toFixed(1)} s`;
const LOG_DOMAIN = ['auto', 'auto'] as const;
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

function TimeChartImpl({ rows, series, domain, markers, unit, height = 210, log = false, refs = [], cursor, yMax }: TimeChartProps) {
  const viewCursor = useTimeCursor();
  const cursorSec = cursor === undefined ? (viewCursor?.cursorSec ?? null) : cursor;
  const [d0, d1] = domain;
  const xDomain = useMemo(() => [d0, d1] as [number, number], [d0, d1]);
  const xTicks = useMemo(() => secondTicks(d0, d1), [d0, d1]);
  const yDomain = useMemo(() => (log ? LOG_DOMAIN : ([0, yMax ?? 'auto'] as const)), [log, yMax]);
  const tooltip = useMemo(() => tooltipProps(unit, tLabel), [unit]);
  // the tooltip machinery (a dozen store subscriptions per chart) is mounted only while the pointer is over the chart
  const [hover, setHover] = useState(false);
  // labels closer than ~30 % of the window (a label's width on a half-width chart) would overlap: stack them
  const lanes = markerLanes(
    markers.map((m) => m.sec),
    (d1 - d0) * 0.3,
  );
  return (
    <div onPointerEnter={() => setHover(true)} onPointerLeave={() => setHover(false)}>
      <ResponsiveContainer width="100%" height={height}>
        <ComposedChart data={rows as TimeRow[]} margin={MARGIN}>
          <CartesianGrid stroke={CHART_THEME.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="t"
            type="number"
            domain={xDomain}
            allowDataOverflow
            ticks={xTicks}
            interval={0}
            tickFormatter={secondsTick}
            stroke={CHART_THEME.axis}
            tick={TICK}
          />
          <YAxis
            stroke={CHART_THEME.axis}
            tick={TICK}
            width={52}
            scale={log ? 'log' : 'auto'}
            domain={yDomain as [number, number]}
            allowDataOverflow={log || yMax !== undefined}
            tickFormatter={numberTick}
          />
          {hover ? <Tooltip {...tooltip} /> : null}
          {series.map((s) =>
            s.kind === 'area' ? (
              <Area
                key={s.key}
                dataKey={s.key}
                name={s.label}
                type="monotone"
                stackId={s.stack}
                stroke={s.color}
                fill={s.color}
                fillOpacity={0.55}
                strokeWidth={1}
                isAnimationActive={false}
                dot={false}
                activeDot={false}
              />
            ) : (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.label}
                type="monotone"
                stroke={s.color}
                strokeWidth={2}
                strokeDasharray={s.dashed ? '5 4' : undefined}
                isAnimationActive={false}
                dot={false}
                activeDot={false}
                connectNulls={false}
              />
            ),
          )}
          {refs.map((r) => (
            <ReferenceLine key={r.label} y={r.y} stroke={r.color} strokeDasharray="6 4" ifOverflow="extendDomain" label={{ value: r.label, position: 'insideTopRight', fill: r.color, fontSize: 11 }} />
          ))}
          {markers.map((m, i) => (
            <ReferenceLine
              key={`${m.t}-${m.action}-${m.node}`}
              x={m.sec}
              stroke={FAULT_STYLE[m.action].color}
              strokeWidth={1.5}
              strokeDasharray="4 3"
              label={<MarkerLabel text={`${FAULT_STYLE[m.action].label}${m.action === 'scaleOut' ? '' : ` n${m.node}`}`} color={FAULT_STYLE[m.action].color} lane={lanes[i] ?? 0} />}
            />
          ))}
          {cursorSec !== null && cursorSec >= domain[0] && cursorSec <= domain[1] ? (
            <ReferenceLine x={cursorSec} stroke={CHART_THEME.reference} strokeWidth={1.5} className="time-cursor" ifOverflow="discard" label={<CursorLabel text={`${cursorSec.toFixed(1)} s`} flip={cursorSec > domain[0] + (domain[1] - domain[0]) * 0.85} />} />
          ) : null}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

export const TimeChart = memo(TimeChartImpl);
