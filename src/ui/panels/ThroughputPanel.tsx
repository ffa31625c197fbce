import { useMemo } from 'react';
import { keyspaceUnit, selectNoHealthySince, selectThroughputByOutcome, selectThroughputSplit } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import { OUTCOME_STYLE, SPLIT_STYLE } from '../theme/statusColors';
import { ChartFrame, SubChart } from './chart/ChartFrame';
import { TimeChart } from './chart/TimeChart';
import { outcomeSeries, useTimeWindow } from './useTimeWindow';
import { SPLIT_SERIES } from './splitSeries';

/** operations completed per second by final outcome, and healthy vs fault-affected segments */
export function ThroughputPanel() {
  const { snap, domain, markers, plan, empty, caption } = useTimeWindow();
  const byOutcome = useMemo(() => selectThroughputByOutcome(snap, plan), [snap, plan]);
  const split = useMemo(() => selectThroughputSplit(snap, plan), [snap, plan]);
  const series = useMemo(() => outcomeSeries(byOutcome.keys, 'area', 'ops'), [byOutcome.keys]);
  // a real Redis Cluster's unit is the hash slot (16,384 of them), not the scenario's segment
  const unit = useDashboard((s) => keyspaceUnit(s.cluster));
  // the affected set only grows: once faults have named every segment the healthy line ends, and says why
  const noHealthy = useMemo(() => selectNoHealthySince(snap), [snap]);
  const note = noHealthy === null ? null : `no healthy ${unit} since ${(noHealthy / 1000).toFixed(1)} s: faults have named every one, so the healthy line ends there (Reset starts afresh)`;
  return (
    <ChartFrame
      title="Throughput"
      units={`ops / s · ${caption}`}
      hint="Operations ended per second, stacked by final outcome; right: operations served per second and per segment, on segments no fault named vs segments a fault moved (per segment, so a fault taking a third of the segments does not read as a third less healthy traffic). A drop on healthy segments too means callers are parked on the affected ones."
      legend={[
        { title: 'By final outcome', items: byOutcome.keys.map((k) => OUTCOME_STYLE[k]) },
        { title: 'Served', items: [SPLIT_STYLE.healthy, SPLIT_STYLE.affected] },
      ]}
      empty={empty}
    >
      <div className="split-2">
        <SubChart title="By final outcome (stacked)" units="ops/s">
          <TimeChart rows={byOutcome.rows} series={series} domain={domain} markers={markers} unit="ops/s" />
        </SubChart>
        <SubChart title={`Served: healthy vs affected, per ${unit}`} units={`ops/s per ${unit}`} note={note}>
          <TimeChart rows={split} series={SPLIT_SERIES} domain={domain} markers={markers} unit={`ops/s per ${unit}`} />
        </SubChart>
      </div>
    </ChartFrame>
  );
}
