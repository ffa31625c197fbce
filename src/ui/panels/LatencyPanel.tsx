import { useMemo } from 'react';
import { selectLatencyQuantiles } from '../store/selectors';
import { LATENCY_STYLE } from '../theme/statusColors';
import { ChartFrame } from './chart/ChartFrame';
import { TimeChart, type TimeSeries } from './chart/TimeChart';
import { useTimeWindow } from './useTimeWindow';

const SERIES: TimeSeries[] = (['p50', 'p95', 'p99'] as const).map((k) => ({ key: k, ...LATENCY_STYLE[k], kind: 'line' }));

/** operation latency quantiles over time (log scale) */
export function LatencyPanel() {
  const { snap, domain, markers, plan, empty, caption } = useTimeWindow();
  const rows = useMemo(() => selectLatencyQuantiles(snap, plan), [snap, plan]);
  return (
    <ChartFrame
      title="Latency"
      units={`ms (log scale) · ${caption}`}
      hint="Operation latency from start to end (all attempts, refresh waits and backoff included) of the operations that ended in each chart step, from per-bucket log histograms (±10 %). Operations still in flight are not in it: in a storm the stalled ones are its true tail (see stalled > 1 s); a step where none ended has no point."
      legend={SERIES}
      empty={empty}
    >
      <TimeChart rows={rows} series={SERIES} domain={domain} markers={markers} unit="ms" log height={250} />
    </ChartFrame>
  );
}
