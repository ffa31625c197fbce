import { useMemo } from 'react';
import { useDashboard } from '../store/StoreContext';
import { formatCount } from '../store/numberFormat';
import { PHASES } from '../store/layout';
import { selectParked } from '../store/selectors';
import { PHASE_STYLE } from '../theme/statusColors';
import { ChartFrame } from './chart/ChartFrame';
import { TimeChart, type TimeSeries } from './chart/TimeChart';
import { useTimeWindow } from './useTimeWindow';

const SERIES: TimeSeries[] = PHASES.map((p) => ({ key: p, ...PHASE_STYLE[p], kind: 'area', stack: 'parked' }));

/** the three numbers of the header, named */
const PHASE_SHORT: Readonly<Record<(typeof PHASES)[number], string>> = { attempt: 'on the wire', refreshWait: 'awaiting refresh', backoff: 'in backoff' };

/** the in-flight operations now, by phase, labelled; it reads the same published snapshot as the header's in-flight tile, so the two always agree */
function ParkedNow() {
  const now = useDashboard((s) => s.snapshot.parkedNow);
  const version = useDashboard((s) => s.snapshot.version);
  const inFlight = now.attempt + now.refreshWait + now.backoff;
  return (
    <p className="gauge-now" aria-label="in flight now" data-in-flight={inFlight} data-version={version}>
      <b>{formatCount(inFlight)}</b> in flight now:{' '}
      {PHASES.map((p, i) => (
        <span key={p} className="gauge-part" data-phase={p} style={{ color: PHASE_STYLE[p].color }}>
          {i > 0 ? ' · ' : ''}
          {formatCount(now[p])} {PHASE_SHORT[p]}
        </span>
      ))}
    </p>
  );
}

/** where the in-flight operations (the workers) are parked */
export function ParkedPanel() {
  const { snap, domain, markers, plan, empty, caption } = useTimeWindow();
  const rows = useMemo(() => selectParked(snap, plan), [snap, plan]);
  return (
    <ChartFrame
      title="Where operations are parked"
      units={`ops in flight · ${caption}`}
      hint="In-flight operations by what they wait for (stacked). The storm is this area filling the whole request pool and staying there: operations retrying past their budget hold every slot, so new arrivals are turned away."
      legend={SERIES}
      empty={empty}
    >
      <ParkedNow />
      <TimeChart rows={rows} series={SERIES} domain={domain} markers={markers} unit="ops" height={250} />
    </ChartFrame>
  );
}
