/**
 * The live session's recording: how many faults it holds, "Save as scenario"
 * (a SPEC §10 file with every fault at the session time it fired) and
 * "Replay in engine" (the same scenario in the deterministic replay).
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import { loadScenario } from '../../core/sim/scenario';
import { exportFileName } from '../export/caption';
import { downloadText } from '../export/download';
import type { AppStore } from './appStore';
import type { LiveHandle } from './liveHandle';

export function LiveRecordingBar({ app, live }: { app: AppStore; live: LiveHandle }) {
  // re-render when faults arrive or the session changes; the recording is read on render
  useStore(live.store, (s) => s.faultMarkers.length);
  const sessionId = useStore(live.store, (s) => s.session.id);
  const running = useStore(live.store, (s) => s.running);
  const everStarted = useStore(live.store, (s) => s.everStarted);
  const [error, setError] = useState<string | null>(null);
  const rec = live.recording;
  const faults = rec.recordedFaults.length;
  // the first Start is no control change: it is named with its time, the changes counted without it
  const firstStart = rec.changes.find((c) => c.what === 'started');
  const changes = rec.changes.length - (firstStart === undefined ? 0 : 1);
  const text = `${running ? 'recording' : everStarted ? 'recording paused' : 'not recording yet'} · ${faults} fault${faults === 1 ? '' : 's'}${
    firstStart !== undefined ? ` · started at ${(firstStart.atMs / 1000).toFixed(1)} s` : ''
  }${changes > 0 ? ` · ${changes} control change${changes === 1 ? '' : 's'}` : ''}`;
  const recorded = () => {
    const input = rec.toScenarioInput();
    loadScenario(input, 'the recording'); // throws an InputError naming the field if it would not replay
    return input;
  };
  const act = (fn: () => void) => {
    try {
      setError(null);
      fn();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div className="live-recording" role="group" aria-label="Session recording" data-session={sessionId}>
      <span className={`rec-dot ${running ? 'on' : ''}`} aria-hidden="true" />
      {/* one line that gives way (ellipsis, whole in its tooltip) before the buttons beside it wrap: what a control change is lives in the tooltip */}
      <span className="rec-text" title={text + (changes > 0 ? ' — a control change is a change of settings or toggles, or a pause / resume' : '')}>
        {text}
      </span>
      <button
        type="button"
        className="btn small"
        title="Download this session as an editable scenario file (faults at the time they fired, the configuration at the first fault)"
        data-testid="save-scenario"
        onClick={() =>
          act(() => {
            const input = recorded();
            downloadText(`${JSON.stringify(input, null, 2)}\n`, exportFileName({ scenario: input.name, seed: input.seed }, 'scenario', 'json'), 'application/json');
          })
        }
      >
        Save as scenario
      </button>
      <button
        type="button"
        className="btn small primary"
        title="Run this recording in the deterministic engine (Replay view)"
        data-testid="replay-recording"
        onClick={() =>
          act(() => {
            const inline = recorded();
            app.getState().setPart('replay', { scenario: { inline }, seed: undefined, client: {}, cursor: undefined }, 'live recording');
            app.getState().setView('replay');
          })
        }
      >
        Replay in engine
      </button>
      {error ? (
        <span className="export-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
