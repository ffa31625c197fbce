import { useMemo } from 'react';
import { formatCount, formatCounted } from '../store/numberFormat';
import { selectAttemptsPerOp, selectBackoffByOutcome, selectEndReasons, selectOverBudgetOps, selectRejectedArrivals, selectRetryRate } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import { END_REASON_STYLE, OUTCOME_STYLE } from '../theme/statusColors';
import { BarList, type BarItem } from './chart/BarList';
import { ChartFrame, SubChart } from './chart/ChartFrame';
import { formatNumber } from './chart/format';
import { TimeChart, type TimeSeries } from './chart/TimeChart';
import { useTimeWindow } from './useTimeWindow';

// not the bins' blue: the two charts sit side by side
const RETRIES: TimeSeries[] = [{ key: 'retries', label: 'retries (attempts after the first)', color: '#99DDFF', kind: 'area' }];
const WITHIN = '#77AADD';
const OVER = '#EE6677';
const REJECTED_COLOR = '#CC3311';

/** how hard the client retries, how long it sleeps and why operations end */
export function RetriesPanel() {
  const { snap, domain, markers, plan, empty, caption } = useTimeWindow();
  const budget = useDashboard((s) => (s.clientConfig.disableRetries ? 1 : s.clientConfig.maxAttempts));
  const rate = useMemo(() => selectRetryRate(snap, plan), [snap, plan]);
  const overBudget = useMemo(() => selectOverBudgetOps(snap), [snap]);
  const stillOver = snap.overBudgetInFlight;
  const perOp = useMemo((): BarItem[] => {
    const ended = selectAttemptsPerOp(snap).map((b) => ({
      key: b.bin,
      label: b.bin,
      value: b.ops,
      color: b.low > budget ? OVER : WITHIN,
      ...(b.low === budget + 1 ? { mark: `budget ${budget}` } : {}),
    }));
    // the bins count operations when they end: a storm's over-budget operations are still retrying, so they are drawn beside them
    return stillOver > 0 ? [...ended, { key: 'inFlight', label: 'in flight', value: stillOver, color: OVER, hatched: true, note: 'past the budget, not ended yet' }] : ended;
  }, [snap, budget, stillOver]);
  const backoff = useMemo(
    (): BarItem[] =>
      selectBackoffByOutcome(snap).map((b) => ({
        key: b.outcome,
        label: OUTCOME_STYLE[b.outcome].label,
        value: b.meanMs,
        ghost: b.maxMs,
        color: OUTCOME_STYLE[b.outcome].color,
        note: `max ${formatNumber(b.maxMs)} ms · ${formatNumber(b.count)}×`,
      })),
    [snap],
  );
  const reasons = useMemo((): BarItem[] => {
    const ended = selectEndReasons(snap).map((r): BarItem => ({ key: r.reason, label: END_REASON_STYLE[r.reason].label, value: r.ops, color: END_REASON_STYLE[r.reason].color }));
    // demand that never became an operation: without it a storm's "0 failed" would read as no harm
    const rejected = selectRejectedArrivals(snap);
    return rejected > 0 ? [...ended, { key: 'rejected', label: 'turned away (pool full, never started)', value: rejected, color: REJECTED_COLOR }] : ended;
  }, [snap]);
  return (
    <ChartFrame
      title="Retries"
      units={caption}
      hint="Retries per second; attempts per operation against the budget; backoff sleeps by the status that caused them (Migrating sleeps ×8); why operations ended."
      legend={[
        { title: 'Retries', items: RETRIES },
        { title: 'Attempts per operation', items: [{ label: `within budget (≤ ${budget})`, color: WITHIN }, { label: 'over budget', color: OVER }] },
      ]}
      empty={empty}
    >
      <div className="split-2">
        <SubChart title="Retries" units="per s">
          <TimeChart rows={rate} series={RETRIES} domain={domain} markers={markers} unit="retries/s" height={170} />
        </SubChart>
        <SubChart title="Attempts per operation" units={stillOver > 0 ? "ops, when they end · hatched: past the budget, in flight now" : "ops, when they end"}>
          <BarList items={perOp} unit="ops" layout="columns" label="Attempts per operation" />
          {overBudget > 0 ? (
            <p className="panel-foot over-budget">
              {formatCounted(overBudget, 'op')} went past the budget {caption === 'up to the cursor' ? 'up to the cursor' : `in this window (${caption.split(' · ')[0]})`} — counted at the attempt that broke it, so operations still retrying count too
              {stillOver > 0 ? `; ${formatCount(stillOver)} still in flight now (hatched: they enter the bins when they end)` : ''}.
            </p>
          ) : null}
        </SubChart>
        <SubChart title="Backoff delay by status (bar: mean, pale: max)" units="ms">
          {backoff.length === 0 ? <div className="empty small">No backoff in the window.</div> : <BarList items={backoff} unit="ms" label="Backoff delay by status" />}
        </SubChart>
        <SubChart title="Why operations ended" units="ops">
          <BarList items={reasons} unit="ops" label="Why operations ended" />
        </SubChart>
      </div>
    </ChartFrame>
  );
}
