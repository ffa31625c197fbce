/** What the last scenario change did to the settings (kept toggles, changed client / workload), until dismissed. */
import { useShallow } from 'zustand/react/shallow';
import { useDashboard } from '../store/StoreContext';

export function SessionNotice() {
  const { notice, clear } = useDashboard(useShallow((s) => ({ notice: s.sessionNotice, clear: s.setSessionNotice })));
  if (notice === null) return null;
  return (
    <div className="session-notice" role="status" aria-label="Scenario change">
      <span>{notice}</span>
      <button type="button" className="btn small ghost" onClick={() => clear(null)} aria-label="Dismiss the scenario change note">
        ✕
      </button>
    </div>
  );
}
