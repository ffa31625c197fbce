/**
 * The one frame every panel uses: title, units, legend (from the series
 * config), an empty state, and the body. Panels supply data, not styling.
 */
import { useRef, type ReactNode } from 'react';
import type { SeriesStyle } from '../../theme/statusColors';
import { usePanelActions } from './panelActions';

/** the legend of one chart in a panel of several */
export interface LegendGroup {
  readonly title: string;
  readonly items: readonly SeriesStyle[];
}

function isGrouped(legend: readonly SeriesStyle[] | readonly LegendGroup[]): legend is readonly LegendGroup[] {
  return legend.length > 0 && 'items' in (legend[0] as SeriesStyle | LegendGroup);
}

export interface ChartFrameProps {
  readonly title: string;
  /** what the numbers are in, e.g. "ops / s" */
  readonly units?: string;
  /** one line on what the panel shows and why it matters */
  readonly hint?: string;
  /**
   * the series named on the panel; a panel of several charts passes one group per chart, titled
   * as the chart is, so a colour two charts both use is read against the chart it belongs to
   */
  readonly legend?: readonly SeriesStyle[] | readonly LegendGroup[];
  /** true when there is nothing to draw yet */
  readonly empty?: boolean;
  readonly emptyText?: string;
  /** right side of the header (badges, counters) */
  readonly aside?: ReactNode;
  readonly className?: string;
  readonly children: ReactNode;
}

export function ChartFrame({ title, units, hint, legend, empty, emptyText, aside, className, children }: ChartFrameProps) {
  const id = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const ref = useRef<HTMLElement>(null);
  const actions = usePanelActions();
  return (
    <section ref={ref} className={`panel ${className ?? ''}`} aria-labelledby={id}>
      <header className="panel-head">
        <div className="panel-title">
          <h2 id={id}>{title}</h2>
          {units ? <span className="units">{units}</span> : null}
        </div>
        {aside || actions ? (
          <div className="panel-aside">
            {aside}
            {actions ? <actions.Component title={title} target={ref} /> : null}
          </div>
        ) : null}
      </header>
      {hint ? <p className="panel-hint">{hint}</p> : null}
      {legend && legend.length > 0 ? isGrouped(legend) ? <LegendGroups groups={legend} /> : <Legend items={legend} /> : null}
      <div className="panel-body">{empty ? <div className="empty">{emptyText ?? actions?.emptyText ?? 'No data yet — press Start.'}</div> : children}</div>
    </section>
  );
}

export function Legend({ items, title }: { items: readonly SeriesStyle[]; title?: string }) {
  return (
    <ul className="legend" aria-label={title === undefined ? 'legend' : `legend: ${title}`}>
      {title === undefined ? null : <li className="legend-title">{title}:</li>}
      {items.map((s) => (
        <li key={s.label}>
          <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/** one titled legend per chart, side by side and wrapping */
export function LegendGroups({ groups }: { groups: readonly LegendGroup[] }) {
  return (
    <div className="legend-groups">
      {groups
        .filter((g) => g.items.length > 0)
        .map((g) => (
          <Legend key={g.title} title={g.title} items={g.items} />
        ))}
    </div>
  );
}

/** a chart's caption inside a multi-chart panel */
export function SubChart({ title, units, note, children }: { title: string; units?: string; note?: string | null; children: ReactNode }) {
  return (
    <figure className="subchart">
      <figcaption>
        {title}
        {units ? <span className="units">{units}</span> : null}
      </figcaption>
      {children}
      {/* under the chart, so the plots of charts side by side stay level */}
      {note ? <p className="subchart-note">{note}</p> : null}
    </figure>
  );
}
