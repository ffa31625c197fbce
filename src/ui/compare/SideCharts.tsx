/**
 * The two runs on one time axis: A vs B throughput overlaid, then each run's
 * parked operations and healthy / affected split side by side on a shared
 * y scale (what differs is the client, nothing else).
 */
import { useMemo } from 'react';
import type { RunSummary } from '../../core/sim/runScenario';
import { LegendGroups, SubChart } from '../panels/chart/ChartFrame';
import { TimeChart, type TimeSeries } from '../panels/chart/TimeChart';
import type { FaultMarker } from '../store/snapshot';
import { PHASE_STYLE, SPLIT_STYLE } from '../theme/statusColors';
import { overlayRows, sharedMax, sideRows } from './seriesRows';
import { SPLIT_SERIES } from '../panels/splitSeries';

/** side colours (distinct from the status palette: they name runs, not outcomes) */
export const SIDE_COLOR = { a: '#38bdf8', b: '#f472b6' } as const;

const PARKED: TimeSeries[] = (['attempt', 'refreshWait', 'backoff'] as const).map((k) => ({ key: k, ...PHASE_STYLE[k], kind: 'area', stack: 'p' }));

function markersOf(s: RunSummary): (FaultMarker & { sec: number })[] {
  return s.faults.map((f) => ({ t: f.atMs, sec: f.atMs / 1000, action: f.action, node: f.node ?? -1, segments: 0 }));
}

export function SideCharts({ a, b, labelA, labelB, cursorSec = null }: { a: RunSummary; b: RunSummary; labelA: string; labelB: string; cursorSec?: number | null }) {
  const domain: readonly [number, number] = [0, Math.max(a.durationMs, b.durationMs) / 1000];
  const markers = useMemo(() => markersOf(a), [a]);
  const overlay = useMemo(() => overlayRows(a, b), [a, b]);
  const ra = useMemo(() => sideRows(a), [a]);
  const rb = useMemo(() => sideRows(b), [b]);
  const parkedMax = sharedMax([ra.parked, rb.parked], ['attempt', 'refreshWait', 'backoff'], true);
  const splitMax = sharedMax([ra.split, rb.split], ['healthy', 'affected'], false);
  const overlaySeries: TimeSeries[] = [
    { key: 'aOk', label: `A ${labelA}: completed`, color: SIDE_COLOR.a, kind: 'line' },
    { key: 'bOk', label: `B ${labelB}: completed`, color: SIDE_COLOR.b, kind: 'line' },
    { key: 'aFailed', label: `A: failed`, color: SIDE_COLOR.a, kind: 'line', dashed: true },
    { key: 'bFailed', label: `B: failed`, color: SIDE_COLOR.b, kind: 'line', dashed: true },
  ];
  return (
    <div className="side-charts">
      <LegendGroups
        groups={[
          { title: 'Operations per second', items: [{ label: `A · ${labelA}`, color: SIDE_COLOR.a }, { label: `B · ${labelB}`, color: SIDE_COLOR.b }] },
          { title: 'Where operations are parked', items: [PHASE_STYLE.attempt, PHASE_STYLE.refreshWait, PHASE_STYLE.backoff] },
          { title: 'Healthy vs affected', items: [SPLIT_STYLE.healthy, SPLIT_STYLE.affected] },
        ]}
      />
      <SubChart title="Operations per second — A vs B (dashed: failed)" units="ops/s, 1 s buckets">
        <TimeChart rows={overlay} series={overlaySeries} domain={domain} markers={markers} unit="ops/s" height={230} cursor={cursorSec} />
      </SubChart>
      <div className="split-2">
        <SubChart title="A · where operations are parked" units="ops in flight">
          <TimeChart rows={ra.parked} series={PARKED} domain={domain} markers={markers} unit="ops" height={190} cursor={cursorSec} yMax={parkedMax} />
        </SubChart>
        <SubChart title="B · where operations are parked" units="ops in flight">
          <TimeChart rows={rb.parked} series={PARKED} domain={domain} markers={markers} unit="ops" height={190} cursor={cursorSec} yMax={parkedMax} />
        </SubChart>
        <SubChart title="A · healthy vs affected, per segment" units="ops/s per segment">
          <TimeChart rows={ra.split} series={SPLIT_SERIES} domain={domain} markers={markers} unit="ops/s per segment" height={190} cursor={cursorSec} yMax={splitMax} />
        </SubChart>
        <SubChart title="B · healthy vs affected, per segment" units="ops/s per segment">
          <TimeChart rows={rb.split} series={SPLIT_SERIES} domain={domain} markers={markers} unit="ops/s per segment" height={190} cursor={cursorSec} yMax={splitMax} />
        </SubChart>
      </div>
    </div>
  );
}
