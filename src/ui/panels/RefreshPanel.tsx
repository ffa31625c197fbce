import { useMemo } from 'react';
import { selectDebounceCeiling, selectRefreshCallers, selectRefreshRates, selectRefreshRatesOverDebounce, selectRefreshTotals } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import { REFRESH_STYLE } from '../theme/statusColors';
import { ChartFrame, SubChart } from './chart/ChartFrame';
import { formatNumber } from './chart/format';
import { TimeChart, type TimeSeries } from './chart/TimeChart';
import { useTimeWindow } from './useTimeWindow';

// In each chart the whole is a filled area and its parts are lines over it, so a part that equals
// the whole (every request debounced in a storm; executed refreshes at the ceiling) is still seen.
const REQUESTS: TimeSeries[] = (['requested', 'coalesced', 'debounced', 'waitAbandoned'] as const).map((k) => ({ key: k, ...REFRESH_STYLE[k], kind: k === 'requested' ? 'area' : 'line' }));
const EXECUTED: TimeSeries[] = (['executed', 'failed'] as const).map((k) => ({ key: k, ...REFRESH_STYLE[k], kind: k === 'executed' ? 'area' : 'line' }));
const CALLERS: TimeSeries[] = [
  // not the executed / coalesced colours of the charts beside it
  { key: 'mean', label: 'callers per refresh (mean)', color: '#CC99CC', kind: 'area' },
  { key: 'max', label: 'callers per refresh (max)', color: '#EEDD88', kind: 'line', dashed: true },
];
const CEILING_COLOR = '#f8fafc';

/** one refresh, not a thundering herd: requests vs executed refreshes vs the debounce ceiling */
export function RefreshPanel() {
  const { snap, domain, markers, plan, empty, caption } = useTimeWindow();
  const debounceMs = useDashboard((s) => s.clientConfig.refreshDebounceMs);
  const noDebounce = useDashboard((s) => s.clientConfig.bugs.noRefreshDebounce);
  const rates = useMemo(() => selectRefreshRates(snap, plan), [snap, plan]);
  const callers = useMemo(() => selectRefreshCallers(snap, plan), [snap, plan]);
  const totals = useMemo(() => selectRefreshTotals(snap), [snap]);
  const ceiling = selectDebounceCeiling(debounceMs, noDebounce);
  // held against the ceiling, a rate spans at least the debounce window the ceiling is a limit over
  const executed = useMemo(() => (ceiling !== null ? selectRefreshRatesOverDebounce(snap, plan, debounceMs) : rates), [ceiling, snap, plan, debounceMs, rates]);
  const merged = totals.requested > 0 ? (100 * (totals.coalesced + totals.debounced)) / totals.requested : null;
  return (
    <ChartFrame
      title="Map refresh coalescing"
      units={`per s · ${caption}`}
      hint="Refresh requests ride a running refresh (coalesced) or are dropped inside the debounce window; executed refreshes should stay under the debounce ceiling (their rate is taken over at least one debounce window, so a step a fault cut short does not read one refresh as a burst)."
      legend={[
        { title: 'Requests', items: REQUESTS },
        { title: 'Executed', items: [...EXECUTED, ...(ceiling !== null ? [{ label: `debounce ceiling (1 refresh per ${debounceMs} ms = ${formatNumber(ceiling)}/s)`, color: CEILING_COLOR }] : [])] },
        { title: 'Callers', items: CALLERS },
      ]}
      empty={empty}
      aside={
        <span className="stat">
          {merged === null ? '—' : `${formatNumber(merged)} %`} <small>requests merged · {formatNumber(totals.executed)} executed · {caption.split(' · ')[0]}</small>
        </span>
      }
    >
      <div className="split-3">
        <SubChart title="Requests" units="per s">
          <TimeChart rows={rates} series={REQUESTS} domain={domain} markers={markers} unit="/s" height={200} />
        </SubChart>
        <SubChart title="Executed vs ceiling" units={ceiling !== null ? `per s over ≥ ${debounceMs} ms` : 'refreshes / s'}>
          <TimeChart
            rows={executed}
            series={EXECUTED}
            domain={domain}
            markers={markers}
            unit="refreshes/s"
            height={200}
            refs={ceiling !== null ? [{ y: ceiling, label: `ceiling ${formatNumber(ceiling)}/s`, color: CEILING_COLOR }] : []}
          />
        </SubChart>
        <SubChart title="Callers per executed refresh" units="callers">
          <TimeChart rows={callers} series={CALLERS} domain={domain} markers={markers} unit="callers" height={200} />
        </SubChart>
      </div>
    </ChartFrame>
  );
}
