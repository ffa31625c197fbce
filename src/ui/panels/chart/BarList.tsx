/**
 * The one category bar display (histograms, per-status summaries): plain
 * HTML bars, no chart engine — window aggregates need no axes or zoom, and
 * each Recharts instance costs tens of ms per update.
 */
import { memo } from 'react';
import { formatNumber } from './format';

export interface BarItem {
  readonly key: string;
  readonly label: string;
  readonly value: number;
  readonly color: string;
  /** a second, lighter mark on the same bar (e.g. the max behind a mean) */
  readonly ghost?: number;
  /** text after the value (e.g. "max 800 ms") */
  readonly note?: string;
  /** draw a budget line before this bar */
  readonly mark?: string;
  /** drawn hatched: a count of another kind beside the bins (e.g. operations still in flight) */
  readonly hatched?: boolean;
}

/** the fill of a hatched bar: its colour in stripes */
const hatch = (color: string) => `repeating-linear-gradient(135deg, ${color} 0 4px, transparent 4px 7px)`;

export interface BarListProps {
  readonly items: readonly BarItem[];
  readonly unit: string;
  /** rows: label | bar | value (default); columns: a histogram */
  readonly layout?: 'rows' | 'columns';
  readonly label: string;
}

function BarListImpl({ items, unit, layout = 'rows', label }: BarListProps) {
  const max = Math.max(1e-9, ...items.map((i) => Math.max(i.value, i.ghost ?? 0)));
  const pct = (v: number) => `${Math.max(0, Math.min(100, (100 * v) / max))}%`;
  if (layout === 'columns') {
    return (
      <div className="histogram" role="img" aria-label={`${label}: ${items.map((i) => `${i.label} ${formatNumber(i.value)} ${unit}`).join(', ')}`}>
        {items.map((i) => (
          <div key={i.key} className={`hcol ${i.mark ? 'marked' : ''} ${i.hatched ? 'hatched' : ''}`} title={`${i.label}: ${formatNumber(i.value)} ${unit}${i.note ? ` (${i.note})` : ''}`} data-mark={i.mark}>
            <span className="hval">{i.value > 0 ? formatNumber(i.value) : ''}</span>
            {/* a zero draws nothing (an empty bin is not a stub in the bin's colour) */}
            {i.value > 0 ? <span className="hbar" style={{ height: pct(i.value), background: i.hatched ? hatch(i.color) : i.color, ...(i.hatched ? { outline: `1px solid ${i.color}` } : {}) }} /> : <span className="hbar zero" />}
            <span className="hlabel">{i.label}</span>
          </div>
        ))}
      </div>
    );
  }
  return (
    <ul className="barlist" aria-label={label}>
      {items.map((i) => (
        <li key={i.key} title={`${i.label}: ${formatNumber(i.value)} ${unit}${i.note ? ` (${i.note})` : ''}`}>
          <span className="blabel">{i.label}</span>
          <span className="btrack">
            {i.ghost !== undefined ? <span className="bghost" style={{ width: pct(i.ghost), background: i.color }} /> : null}
            {i.value > 0 ? <span className="bfill" style={{ width: pct(i.value), background: i.color }} /> : null}
          </span>
          <span className="bvalue">
            {formatNumber(i.value)} <small>{unit}</small>
            {i.note ? <small className="bnote"> · {i.note}</small> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

export const BarList = memo(BarListImpl);
