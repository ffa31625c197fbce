import { useMemo } from 'react';
import { selectAttemptStatuses } from '../store/selectors';
import { OUTCOME_STYLE } from '../theme/statusColors';
import { ChartFrame } from './chart/ChartFrame';
import { TimeChart } from './chart/TimeChart';
import { outcomeSeries, useTimeWindow } from './useTimeWindow';

/** every attempt's answer per second, by status or transport error */
export function StatusesPanel() {
  const { snap, domain, markers, plan, empty, caption } = useTimeWindow();
  const { rows, keys } = useMemo(() => selectAttemptStatuses(snap, plan), [snap, plan]);
  const series = useMemo(() => outcomeSeries(keys, 'area', 'attempts'), [keys]);
  return (
    <ChartFrame
      title="Attempt statuses"
      units={`attempts / s · ${caption}`}
      hint="What each attempt was answered (stacked): routing errors (Moved, ReplicaWriteRejected, OwnershipChanging), holds (Migrating, Unavailable) and transport failures."
      legend={keys.map((k) => OUTCOME_STYLE[k])}
      empty={empty}
    >
      <TimeChart rows={rows} series={series} domain={domain} markers={markers} unit="attempts/s" height={250} />
    </ChartFrame>
  );
}
