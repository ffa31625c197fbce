/** One line under the header: what you are seeing now (idle / running healthy / fault / recovering / storm / paused). */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectHeadline, selectPoolSize, selectSessionState } from '../store/selectors';
import { openPauseFrom } from '../store/snapshot';
import { useDashboard } from '../store/StoreContext';

/** `replayCursorMs`: Replay's cursor (the line says what the run shows there); absent on Live */
export function StatusLine({ replayCursorMs }: { readonly replayCursorMs?: number } = {}) {
  const { snap, running, everStarted, workload, pauses } = useDashboard(
    useShallow((s) => ({ snap: s.snapshot, running: s.running, everStarted: s.everStarted, workload: s.workload, pauses: s.pauseSpans })),
  );
  const line = useMemo(
    () =>
      selectSessionState({
        headline: selectHeadline(snap, running),
        started: everStarted,
        evidence: snap.evidence,
        poolSize: selectPoolSize(workload),
        nowMs: snap.totals.lastT,
        pausedAtMs: openPauseFrom(pauses),
        overBudgetInFlight: snap.overBudgetInFlight,
        ...(replayCursorMs !== undefined ? { replayCursorMs } : {}),
      }),
    [snap, running, everStarted, workload, pauses, replayCursorMs],
  );
  return (
    <p className={`status-line state-${line.state}`} role="status" aria-label="What you are seeing" data-state={line.state}>
      <b className="status-state">{line.label}</b> <span className="status-text">{line.text}</span>
    </p>
  );
}
