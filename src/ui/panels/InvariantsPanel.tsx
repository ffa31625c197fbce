import { useMemo } from 'react';
import type { TelemetrySnapshot } from '../store/snapshot';
import { inReplayWords, keyspaceUnit, selectInvariantRows, type InvariantRow, type Verdict } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import { ChartFrame } from './chart/ChartFrame';
import { useTimeCursor } from './timeCursor';
import { usePanelSnapshot } from './visibility';

type PanelVerdict = Verdict | 'idle';

const VERDICT: Readonly<Record<PanelVerdict, { label: string; className: string }>> = {
  idle: { label: 'no operations yet', className: 'badge muted' },
  pending: { label: 'waiting for events', className: 'badge muted' },
  ok: { label: 'bounds kept', className: 'badge ok' },
  expected: { label: 'violated — explained by a bug toggle', className: 'badge expected' },
  violated: { label: 'VIOLATED', className: 'badge bad' },
};

/**
 * What the panel shows: before any operation has run (the boot topology
 * event alone), nothing was checked, so no verdict ("no operations yet").
 */
export function invariantsView(snapshot: Pick<TelemetrySnapshot, 'invariants' | 'totals'>): { verdict: PanelVerdict; rows: InvariantRow[] } {
  const { totals } = snapshot;
  if (totals.attempts === 0 && totals.opsEnded === 0) return { verdict: 'idle', rows: [] };
  return selectInvariantRows(snapshot.invariants);
}

/** SPEC §11 invariants checked live over the event stream, with counterexample op ids */
export function InvariantsPanel() {
  const snapshot = usePanelSnapshot();
  // a replay shows the verdicts as of its cursor (the header gives the whole run's next to them)
  const replay = useTimeCursor() !== null;
  const view = useMemo(() => invariantsView(snapshot), [snapshot]);
  const verdict = view.verdict;
  const rows = useMemo(() => (replay ? inReplayWords(view.rows) : view.rows), [replay, view]);
  // the availability rule reads the cluster's own truth (the simulation's control plane): a real Redis Cluster does not hand it over
  const realEngine = useDashboard((s) => keyspaceUnit(s.cluster) === 'hash slot');
  const noAvailability = realEngine && rows.length > 0 && !rows.some((r) => r.name === 'replicatedSegmentsAvailable');
  return (
    <ChartFrame
      title="Invariants"
      units={replay ? 'at the cursor' : 'this session'}
      hint={
        replay
          ? "Checked over the recording's events up to the cursor; the header gives the whole run's verdict beside it. Counterexamples are op ids: filter the event log by one to see its attempts."
          : "Checked live on every event; on Pause the cluster's data is checked for every acknowledged write. Counterexamples are op ids: filter the event log by one to see its attempts."
      }
      aside={<span className={VERDICT[verdict].className}>{VERDICT[verdict].label}</span>}
      empty={rows.length === 0}
      emptyText="No operations yet."
    >
      <ul className="invariants">
        {rows.map((r) => (
          <li key={r.name} className={`inv ${r.verdict}`}>
            <div className="inv-head">
              <span className={VERDICT[r.verdict].className}>{r.verdict === 'ok' ? 'ok' : r.verdict === 'expected' ? 'expected' : 'violated'}</span>
              <b>{r.label}</b>
              {r.violations > 0 ? <span className="count">{r.violations}×</span> : null}
            </div>
            <div className="inv-detail">{r.detail}</div>
            {r.examples.length > 0 ? (
              <div className="inv-examples">
                counterexample ops: {r.examples.map((op) => <code key={op}>{op}</code>)}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {noAvailability ? (
        <p className="panel-foot" data-testid="no-availability-rule">
          Replicated segments stay available: not checked here — the rule needs the cluster&apos;s own record of replicas and promotions, which the simulation holds and a real Redis Cluster does not hand over.
        </p>
      ) : null}
    </ChartFrame>
  );
}
