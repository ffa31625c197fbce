import { BUG_TOGGLES, type BugToggles as Bugs } from '../../core/client/config';
import { useDashboard } from '../store/StoreContext';
import { useSessionActions } from './ControlsContext';

/** one line on what each historical bug does (SPEC §8) */
export const BUG_HELP: Readonly<Record<keyof Bugs, { label: string; help: string }>> = {
  deadlineReplacesAttempts: {
    label: 'Deadline replaces attempts',
    help: 'The refresh storm: with a deadline set, retries run until the deadline instead of stopping after maxAttempts, refreshing the map each time.',
  },
  noRefreshCoalescing: { label: 'No refresh coalescing', help: 'Thundering herd: every caller starts its own map fetch instead of riding the one in flight.' },
  noRefreshDebounce: { label: 'No refresh debounce', help: 'Refreshes run back to back, even right after a successful one.' },
  unclampedBackoff: { label: 'Unclamped backoff', help: 'Backoff sleeps past the deadline instead of being clamped to the time left.' },
  retryConflict: { label: 'Retry Conflict', help: 'Conflict is retried like a transient status — silently defeats compare-and-swap.' },
};

/** historical client bugs, switched on the live session at once */
export function BugToggles() {
  const bugs = useDashboard((s) => s.clientConfig.bugs);
  const actions = useSessionActions();
  return (
    <fieldset className="side-section bugs">
      <legend>Bug toggles (historical client bugs)</legend>
      {BUG_TOGGLES.map((b) => (
        <label key={b} className={`bug ${bugs[b] ? 'on' : ''}`}>
          <input type="checkbox" checked={bugs[b]} onChange={(e) => void actions.setBug(b, e.target.checked)} />
          <span>
            <b>{BUG_HELP[b].label}</b>
            <small>{BUG_HELP[b].help}</small>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
