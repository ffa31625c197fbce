/** The replay's header: the run's identity and the headline figures at the cursor. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { KpiStrip } from '../KpiStrip';
import { selectInvariantRows, selectWorkloadSummary } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import type { ReplayController } from './replayController';
import { RunIdentityBlock } from './RunIdentityBlock';

const VERDICT = {
  pending: { label: 'invariants: waiting for events', className: 'badge muted' },
  ok: { label: 'invariants kept', className: 'badge ok' },
  expected: { label: 'invariant violated — explained by a bug toggle', className: 'badge expected' },
  violated: { label: 'invariant VIOLATED', className: 'badge bad' },
} as const;

export function ReplayHeader({ ctl }: { ctl: ReplayController }) {
  const run = useStore(ctl.ui, (s) => s.run);
  const { snap, workload } = useDashboard(useShallow((s) => ({ snap: s.snapshot, workload: s.workload })));
  const verdict = useMemo(() => selectInvariantRows(snap.invariants).verdict, [snap]);
  return (
    <header className="app-header replay-header">
      <div className="brand">
        <h1>Replay</h1>
        <p className="tagline">deterministic engine · one time cursor</p>
      </div>
      {run ? (
        <RunIdentityBlock
          identity={run.identity}
          {...(run.scenario ? { extra: withSchedule(selectWorkloadSummary(workload), run.scenario.changes.length) } : {})}
          badges={
            <span className={VERDICT[verdict].className} data-testid="replay-verdict">
              {VERDICT[verdict].label}
            </span>
          }
        />
      ) : (
        <div className="identity k">nothing loaded</div>
      )}
      <KpiStrip label="Figures at the cursor" />
    </header>
  );
}

/** the workload line, plus how many scheduled configuration changes the run goes through */
function withSchedule(workload: string, changes: number): string {
  return changes === 0 ? workload : `${workload} · ${changes} scheduled configuration change${changes === 1 ? '' : 's'} (settings as at the start; bug toggles on at any time)`;
}
