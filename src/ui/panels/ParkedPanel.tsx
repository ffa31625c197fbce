import { useMemo } from 'react';
import { PHASES } from '../store/layout';
import { selectParked } from '../store/selectors';
import { PHASE_STYLE } from '../theme/statusColors';
import { ChartFrame } from './chart/ChartFrame';
import { formatNumber } from './chart/format';
import { TimeChart, type TimeSeries } from './chart/TimeChart';
import { useTimeWindow } from './useTimeWindow';

const SERIES: TimeSeries[] = PHASES.map((p) => ({ key: p, ...PHASE_STYLE[p], kind: 'area', stack: 'parked' }));

/** where the in-flight operations (the workers) are parked */
export function ParkedPanel() {
  const { snap, domain, markers, plan, empty } = useTimeWindow();
  const rows = useMemo(() => selectParked(snap, plan), [snap, plan]);
  const now = snap.parkedNow;
  return (
    <ChartFrame
      title="Where operations are parked"
      units="ops in flight"
      hint="In-flight operations by what they wait for (stacked). A wall of refresh waits is the storm: callers queue behind the serialized refresh path."
      legend={SERIES}
      empty={empty}
      aside={
        <span className="gauge-now" aria-label="in flight now">
          {PHASES.map((p) => (
            <span key={p} style={{ color: PHASE_STYLE[p].color }}>
              {formatNumber(now[p])}
            </span>
          ))}
        </span>
      }
    >
      <TimeChart rows={rows} series={SERIES} domain={domain} markers={markers} unit="ops" height={250} />
    </ChartFrame>
  );
}
