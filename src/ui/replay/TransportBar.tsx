/**
 * Play, pause, step, speed and the scrubber: one time cursor for every
 * panel. Space plays / pauses, Shift + ←/→ steps (when no field has focus).
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { FaultAction } from '../../core/telemetry/events';
import { FAULT_STYLE } from '../theme/statusColors';
import type { ReplayController } from './replayController';
import { SPEEDS, speedLabel } from './replayDomain';

export interface FaultTick {
  readonly t: number;
  readonly action: FaultAction;
  readonly node?: number;
}

const STEP_MS = 100;
const typing = (el: Element | null): boolean => el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement || (el instanceof HTMLElement && el.isContentEditable);

function Icon({ d }: { d: string }) {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
      <path d={d} fill="currentColor" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
    </svg>
  );
}

export function TransportBar({ ctl, faults }: { ctl: ReplayController; faults: readonly FaultTick[] }) {
  const status = useStore(ctl.ui, (s) => s.status);
  const speed = useStore(ctl.ui, (s) => s.speed);
  const loading = useStore(ctl.ui, (s) => s.loading);
  const [drag, setDrag] = useState<number | null>(null);
  const dur = Math.max(1, status.durationMs);
  const shown = drag ?? status.cursorMs;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing(document.activeElement) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === ' ' && !(document.activeElement instanceof HTMLButtonElement) && !(document.activeElement instanceof HTMLCanvasElement)) {
        e.preventDefault();
        void ctl.togglePlay();
      } else if (e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
        e.preventDefault();
        void ctl.step(e.key === 'ArrowLeft' ? -STEP_MS * 10 : STEP_MS * 10);
      }
    };
    // only while the replay is on screen
    const root = document.querySelector('[data-view="replay"]');
    const handler = (e: KeyboardEvent) => {
      if (root instanceof HTMLElement && root.hidden) return;
      onKey(e);
    };
    window.addEventListener('keydown', handler);
    return () => window.removeEventListener('keydown', handler);
  }, [ctl]);

  return (
    <div className="transport" role="group" aria-label="Replay transport">
      <div className="transport-buttons">
        <button type="button" className="btn small icon" onClick={() => void ctl.seek(0)} title="To the start" aria-label="To the start">
          <Icon d="M3 2v12M13 2 5 8l8 6z" />
        </button>
        <button type="button" className="btn small" onClick={() => void ctl.step(-STEP_MS)} title="Step back 100 ms (Shift + ←: 1 s)" aria-label="Step back">
          − 100 ms
        </button>
        <button type="button" className={`btn run-btn ${status.playing ? 'pause' : 'start'}`} onClick={() => void ctl.togglePlay()} disabled={loading !== null} data-testid="replay-play">
          {status.playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" className="btn small" onClick={() => void ctl.step(STEP_MS)} title="Step forward 100 ms (Shift + →: 1 s)" aria-label="Step forward">
          + 100 ms
        </button>
        <button type="button" className="btn small icon" onClick={() => void ctl.seek(dur)} title="To the end" aria-label="To the end">
          <Icon d="M13 2v12M3 2l8 6-8 6z" />
        </button>
        <label className="speed">
          speed
          <select value={speed} onChange={(e) => void ctl.setSpeed(Number(e.target.value))} aria-label="Replay speed">
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {speedLabel(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="scrubber">
        <input
          type="range"
          min={0}
          max={dur}
          step={10}
          value={Math.min(dur, shown)}
          aria-label="Replay cursor"
          aria-valuetext={`${(shown / 1000).toFixed(2)} seconds`}
          data-testid="replay-scrubber"
          onChange={(e) => {
            const t = Number(e.target.value);
            setDrag(t);
            void ctl.seek(t).then(() => setDrag(null));
          }}
        />
        <div className="ticks" aria-hidden="true">
          {faults.map((f, i) => (
            <span key={i} className="tick" style={{ left: `${(f.t / dur) * 100}%`, background: FAULT_STYLE[f.action].color }} title={`${FAULT_STYLE[f.action].label}${f.node !== undefined ? ` n${f.node}` : ''} at ${(f.t / 1000).toFixed(2)} s`} />
          ))}
        </div>
      </div>
      <div className="clock" aria-live="off" data-testid="replay-clock" data-cursor-ms={Math.round(status.cursorMs)}>
        <b>{(shown / 1000).toFixed(2)} s</b> / {(dur / 1000).toFixed(2)} s{status.playing ? ` · ${speedLabel(status.speed)}` : ''}
      </div>
    </div>
  );
}
