/** What the status line and the fault cards read from the dashboard store (one shallow selection). */
import { useShallow } from 'zustand/react/shallow';
import type { StoryState } from '../store/serviceSelectors';
import { useDashboard } from '../store/StoreContext';

export function useStoryState(): StoryState {
  return useDashboard(
    useShallow((s): StoryState => ({ snapshot: s.snapshot, running: s.running, everStarted: s.everStarted, workload: s.workload, pauseSpans: s.pauseSpans, dismissedEvidence: s.dismissedEvidence, writeAudit: s.writeAudit })),
  );
}
