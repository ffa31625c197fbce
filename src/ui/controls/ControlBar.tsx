import { findPreset } from '../../core/sim/presets';
import { PresetSelect } from './PresetSelect';
import { useShallow } from 'zustand/react/shallow';
import { openPauseFrom } from '../store/snapshot';
import { useDashboard } from '../store/StoreContext';
import { useSessionActions } from './ControlsContext';
import { FaultControls } from './FaultControls';
import { FormErrors } from './Field';

/** Start/Pause, the scenario preset, and the fault buttons */
export function ControlBar() {
  const { running, everStarted, busy, presetId, sessionError, lastT, pausedAt, scenarioIssues } = useDashboard(
    useShallow((s) => ({
      running: s.running,
      everStarted: s.everStarted,
      busy: s.busy,
      presetId: s.presetId,
      sessionError: s.sessionError,
      lastT: s.snapshot.totals.lastT,
      pausedAt: openPauseFrom(s.pauseSpans),
      scenarioIssues: s.formErrors.scenario,
    })),
  );
  const actions = useSessionActions();
  const preset = findPreset(presetId);
  const description = preset !== undefined && typeof preset.input === 'object' && preset.input !== null && 'description' in preset.input ? String(preset.input.description) : '';
  return (
    <div className="control-bar">
      <div className="run">
        <button
          type="button"
          className={`btn run-btn ${running ? 'pause' : 'start'}`}
          onClick={() => void (running ? actions.pause() : actions.start())}
          disabled={busy}
        >
          {running ? 'Pause' : 'Start'}
        </button>
        <span className={`state ${running ? 'live' : ''}`} aria-live="polite">
          {/* the session clock is event time; paused, it stands at the pause (in-flight operations and the cluster's own events run on after it) */}
          {!everStarted ? 'not started' : `${running ? 'running' : 'paused'} · t = ${((!running && pausedAt !== null ? pausedAt : lastT) / 1000).toFixed(1)} s`}
        </span>
      </div>
      <PresetSelect value={presetId} inlineLabel="—" title={description} onSelect={(id) => void actions.loadPreset(id)} />
      <FaultControls />
      <FormErrors issues={scenarioIssues} what="Scenario" />
      {sessionError ? (
        <div className="session-error" role="alert">
          {sessionError}
        </div>
      ) : null}
    </div>
  );
}
