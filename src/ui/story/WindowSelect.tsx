/** The charts' time window: 15 s, 60 s or the whole session. */
import { useShallow } from 'zustand/react/shallow';
import { WINDOW_LABEL } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import { TIME_WINDOWS } from '../store/telemetrySlice';

export function WindowSelect() {
  const { window, setWindow } = useDashboard(useShallow((s) => ({ window: s.timeWindow, setWindow: s.setTimeWindow })));
  return (
    <div className="window-select" role="radiogroup" aria-label="Chart time window">
      <span className="k">charts:</span>
      {TIME_WINDOWS.map((w) => (
        <button key={w} type="button" role="radio" aria-checked={window === w} className={`btn small ${window === w ? 'primary' : 'ghost'}`} onClick={() => setWindow(w)}>
          {WINDOW_LABEL[w]}
        </button>
      ))}
    </div>
  );
}
