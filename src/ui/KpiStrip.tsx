/** The headline figures (ops/s, failures, retries, refreshes vs the debounce ceiling, p99, in flight, stale segments), shared by the Live and Replay headers. */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatNumber } from './panels/chart/format';
import { selectDebounceCeiling, selectHeadline, selectStaleCount } from './store/selectors';
import { useDashboard } from './store/StoreContext';

export interface Kpi {
  readonly label: string;
  readonly value: string;
  readonly tone?: 'bad' | 'warn';
}

/** the headline KPIs of the dashboard store in context */
export function useHeadlineKpis(): Kpi[] {
  const { config, snap, cluster, client } = useDashboard(useShallow((s) => ({ config: s.clientConfig, snap: s.snapshot, cluster: s.cluster, client: s.client })));
  const h = useMemo(() => selectHeadline(snap), [snap]);
  const ceiling = selectDebounceCeiling(config.refreshDebounceMs, config.bugs.noRefreshDebounce);
  return [
    { label: 'ops / s', value: formatNumber(h.opsPerSec) },
    { label: 'failed / s', value: formatNumber(h.failedPerSec), ...(h.failedPerSec > 0 ? { tone: 'bad' as const } : {}) },
    { label: 'retries / s', value: formatNumber(h.retriesPerSec) },
    {
      label: ceiling !== null ? `refreshes / s (ceiling ${formatNumber(ceiling)})` : 'refreshes / s',
      value: formatNumber(h.refreshesPerSec),
      ...(ceiling !== null && h.refreshesPerSec > ceiling ? { tone: 'warn' as const } : {}),
    },
    { label: 'p99 latency', value: h.p99Ms === null ? '—' : `${formatNumber(h.p99Ms)} ms` },
    { label: 'in flight', value: formatNumber(h.inFlight) },
    { label: 'stale segments', value: String(selectStaleCount(cluster, client)) },
  ];
}

/** the headline KPIs as the headers show them */
export function KpiStrip({ label }: { label?: string }) {
  const kpis = useHeadlineKpis();
  return (
    <dl className="kpis" aria-label={label}>
      {kpis.map((k) => (
        <div key={k.label} className={`kpi ${k.tone ?? ''}`}>
          <dt>{k.label}</dt>
          <dd>{k.value}</dd>
        </div>
      ))}
    </dl>
  );
}
