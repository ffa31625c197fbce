/** The app's tab bar (Live | Replay | Compare), the link button, and the bad-link banner. */
import { useState, type KeyboardEvent } from 'react';
import { useStore } from 'zustand';
import { VIEWS, type View } from '../urlState';
import type { AppStore } from './appStore';
import type { LiveHandle } from './liveHandle';
import { LiveRecordingBar } from './LiveRecordingBar';

const LABEL: Readonly<Record<View, { label: string; hint: string }>> = {
  live: { label: 'Live', hint: 'the playground: a real client against worker nodes, in real time' },
  replay: { label: 'Replay', hint: 'any scenario in the deterministic engine, with one time cursor' },
  compare: { label: 'Compare', hint: 'the same scenario and seed with two client configurations' },
};

export function ShellBar({ app, live }: { app: AppStore; live: LiveHandle }) {
  const view = useStore(app, (s) => s.view);
  const urlError = useStore(app, (s) => s.urlError);
  const [copied, setCopied] = useState(false);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = VIEWS.indexOf(view);
    const next = VIEWS[(i + (e.key === 'ArrowRight' ? 1 : VIEWS.length - 1)) % VIEWS.length] as View;
    app.getState().setView(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      window.prompt('Copy this link', window.location.href);
    }
  };
  return (
    <>
      <nav className="shell-bar" aria-label="Views">
        {/* the Live view's header carries the title; Replay and Compare name themselves */}
        {view !== 'live' ? <span className="shell-brand">Zaris Churn Lab</span> : null}
        <div className="tabs" role="tablist" aria-label="Views" onKeyDown={onKey}>
          {VIEWS.map((v) => (
            <button
              key={v}
              id={`tab-${v}`}
              type="button"
              role="tab"
              aria-selected={view === v}
              aria-controls={`view-${v}`}
              tabIndex={view === v ? 0 : -1}
              className={`tab ${view === v ? 'on' : ''}`}
              title={LABEL[v].hint}
              onClick={() => app.getState().setView(v)}
              data-testid={`tab-${v}`}
            >
              {LABEL[v].label}
            </button>
          ))}
        </div>
        {view === 'live' ? <LiveRecordingBar app={app} live={live} /> : <span className="shell-spacer" />}
        <button type="button" className="btn small" onClick={() => void copy()} title={
            view === 'live'
              ? 'Copy a link to this scenario, seed, configuration and toggles. The faults you pressed are not in it: "Save as scenario" keeps them, and "Replay in engine" replays them'
              : 'Copy a link that reproduces this view (scenario, seed, configuration, toggles, cursor)'
          }
          data-testid="copy-link"
        >
          {copied ? 'Link copied' : 'Copy link'}
        </button>
      </nav>
      {urlError ? (
        <div className="url-error" role="alert" data-testid="url-error">
          <div>
            <b>{urlError.summary}</b>
            <ul>
              {urlError.issues.map((i, k) => (
                <li key={k}>
                  {i.path ? <code>{i.path}</code> : null} {i.message}
                </li>
              ))}
            </ul>
          </div>
          <button type="button" className="btn small ghost" onClick={() => app.getState().dismissUrlError()} aria-label="Dismiss">
            ✕
          </button>
        </div>
      ) : null}
    </>
  );
}
