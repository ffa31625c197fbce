/** Number formatting and tooltip styling shared by every chart. */
import { CHART_THEME } from '../../theme/statusColors';

/** 1234 → "1.2k", 0.5 → "0.5", 12.345 → "12.3" */
export function formatNumber(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${Math.round(v / 1e3)}k`;
  if (a >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  if (a >= 100 || a === 0) return `${Math.round(v)}`;
  if (a >= 10) return `${+v.toFixed(1)}`;
  if (a >= 1) return `${+v.toFixed(2)}`;
  return `${+v.toFixed(3)}`;
}

/** the Recharts tooltip props every chart uses */
export function tooltipProps(unit: string, labelFormatter?: (label: unknown) => string) {
  return {
    isAnimationActive: false,
    contentStyle: { background: CHART_THEME.tooltipBg, border: `1px solid ${CHART_THEME.grid}`, borderRadius: 6, fontSize: 12 },
    labelStyle: { color: CHART_THEME.axis },
    itemStyle: { padding: 0 },
    cursor: { stroke: CHART_THEME.axis, strokeOpacity: 0.4 },
    formatter: (value: unknown) => `${formatNumber(typeof value === 'number' ? value : Number(value))} ${unit}`,
    ...(labelFormatter ? { labelFormatter } : {}),
  };
}
