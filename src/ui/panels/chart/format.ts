/** Number formatting and tooltip styling shared by every chart. */
import { CHART_THEME } from '../../theme/statusColors';
import { formatCompact } from '../../store/numberFormat';

/** 1234 → "1.2k", 0.5 → "0.5", 12.345 → "12.3" */
export function formatNumber(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  return formatCompact(v);
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
