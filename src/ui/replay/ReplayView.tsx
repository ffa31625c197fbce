/**
 * The Replay view: any scenario (preset, file, link, a live recording) runs
 * in the deterministic engine in the replay worker; an events file replays
 * on the main thread. One time cursor moves every panel — the timeline, the
 * time charts (with a cursor line), the cluster view and the figures.
 */
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useStore } from 'zustand';
import { ReplaySession } from '../bridge/replaySession';
import { verdictText } from '../export/caption';
import { ExportButtons } from '../export/ExportButtons';
import { PanelActionsContext, type PanelActions } from '../panels/chart/panelActions';
import { PANELS } from '../panels/registry';
import { TimeCursorContext } from '../panels/timeCursor';
import { VisibleCell } from '../panels/visibility';
import type { AppStore } from '../shell/appStore';
import type { DashboardStore } from '../store/dashboardStore';
import { StoreProvider, usePublisher } from '../store/StoreContext';
import { TimelinePanel } from '../timeline/TimelinePanel';
import { encodeUrlState } from '../urlState';
import { panelExports, runExports } from './exportActions';
import { ReplayController } from './replayController';
import { replayDomain } from './replayDomain';
import { ReplayHeader } from './ReplayHeader';
import { RunSettings } from './RunSettings';
import { TransportBar, type FaultTick } from './TransportBar';
import { bugsOn, scenarioFromUrl, urlRefFor } from './urlScenario';
import './replay.css';
import '../timeline/timeline.css';

export interface ReplayViewProps {
  readonly app: AppStore;
  /** the replay's dashboard store (a second instance beside the live one) */
  readonly store: DashboardStore;
}

function Publisher() {
  usePublisher();
  return null;
}

export default function ReplayView({ app, store }: ReplayViewProps) {
  const [ctl] = useState(() => new ReplayController(store, (l) => new ReplaySession(l)));
  useEffect(() => () => ctl.dispose(), [ctl]);
  const part = useStore(app, (s) => s.parts.replay);
  const origin = useStore(app, (s) => s.origins.replay);
  const run = useStore(ctl.ui, (s) => s.run);
  const status = useStore(ctl.ui, (s) => s.status);
  const loading = useStore(ctl.ui, (s) => s.loading);
  const error = useStore(ctl.ui, (s) => s.error);
  const snapshot = useStore(store, (s) => s.snapshot);

  // (re)load whenever what the URL names changes (not when only the cursor moves)
  const runKey = encodeUrlState({ ...part, cursor: undefined, view: 'replay' });
  useEffect(() => {
    let scenario;
    try {
      scenario = scenarioFromUrl(part);
    } catch (e) {
      ctl.ui.setState({ error: e instanceof Error ? e.message : String(e) });
      return;
    }
    const preset = 'preset' in part.scenario ? part.scenario.preset : null;
    void ctl.loadScenario(scenario, preset !== null ? `preset ${preset}` : (origin ?? 'scenario from the link'), preset, part.cursor);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on what the URL names; the cursor only seeds the first load
  }, [ctl, runKey]);

  // the cursor goes into the URL when it rests (scenario runs only: an events file is not in the link)
  useEffect(() => {
    if (status.playing || loading !== null || run?.kind !== 'scenario') return;
    const t = Math.round(status.cursorMs);
    if (app.getState().parts.replay.cursor !== t) app.getState().setPart('replay', { cursor: t });
  }, [app, status.playing, status.cursorMs, loading, run]);

  const domain = replayDomain(status.cursorMs, status.durationMs);
  // while playing, the charts' cursor follows the published snapshot (charts redraw per publish, not per frame)
  const chartCursorMs = status.playing ? snapshot.totals.lastT : status.cursorMs;
  const cursor = useMemo(() => ({ cursorSec: chartCursorMs / 1000, domain }), [chartCursorMs, domain[0], domain[1]]); // eslint-disable-line react-hooks/exhaustive-deps
  // the export reads the charts' range when clicked
  const domainRef = useRef(domain);
  useEffect(() => {
    domainRef.current = domain;
  });
  const panelActions: PanelActions = useMemo(
    () => ({
      Component: function PanelExport({ title, target }) {
        return <ExportButtons actions={panelExports(ctl, store, title, () => target.current, () => domainRef.current)} label={`Export ${title}`} />;
      },
      emptyText: 'Nothing yet at this cursor — press Play or move the scrubber.',
    }),
    [ctl, store],
  );

  const faults: FaultTick[] = useMemo(
    () => (run?.scenario ? run.scenario.faults.map((f) => ({ t: f.atMs, action: f.action, ...(f.node !== undefined ? { node: f.node } : {}) })) : []),
    [run],
  );
  const onFile = async (file: File) => {
    const got = await ctl.readFile(file);
    if (got?.kind === 'scenario') {
      const ref = urlRefFor(got.scenario, null);
      if (ref === null) ctl.ui.setState({ error: `${got.name}: too large to carry in a link; not loaded` });
      else app.getState().setPart('replay', { ...ref, seed: undefined, cursor: undefined }, `file ${got.name}`);
    }
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    const f = e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    void onFile(f);
  };
  const onBugs = run?.identity.client ? bugsOn(run.identity.client) : null;

  return (
    <StoreProvider store={store}>
      <Publisher />
      <div className="app replay-view" onDragOver={(e) => e.preventDefault()} onDrop={onDrop} data-testid="replay-view">
        <ReplayHeader ctl={ctl} />
        <div className="control-bar replay-bar">
          <TransportBar ctl={ctl} faults={faults} />
          <div className="replay-bar-row">
            <RunSettings
              part={part}
              bugsOn={run?.kind === 'scenario' ? onBugs : null}
              seed={run?.identity.seed ?? null}
              inlineLabel={origin}
              onChange={(p) => app.getState().setPart('replay', p, 'preset' in (p.scenario ?? {}) ? null : undefined)}
              onFile={(f) => void onFile(f)}
              disabled={loading !== null}
            />
            <div className="run-exports">
              {run?.kind === 'events' ? <span className="k note">an imported events file is not carried by the link</span> : null}
              <span className="k">export the run</span>
              <ExportButtons actions={runExports(ctl)} label="Export the run" />
            </div>
          </div>
          {loading ? (
            <div className="loading" role="status" data-testid="replay-loading">
              {loading}
            </div>
          ) : null}
          {error ? (
            <div className="session-error replay-error" role="alert" data-testid="replay-error">
              {error}
              <button type="button" className="btn small ghost" onClick={() => ctl.clearError()} aria-label="Dismiss">
                ✕
              </button>
            </div>
          ) : null}
        </div>
        <main className="replay-main">
          {run ? (
            <TimelinePanel
              feed={ctl.feed}
              identity={run.identity}
              verdict={verdictText(snapshot.invariants)}
              cursorMs={status.cursorMs}
              onSeek={(t) => void ctl.seek(t)}
              defaultMode="op"
              defaultFilter="retried"
              testId="timeline"
            />
          ) : null}
          <TimeCursorContext.Provider value={cursor}>
            <PanelActionsContext.Provider value={panelActions}>
              <div className="grid">
                {PANELS.map((p) => (
                  <VisibleCell key={p.id} id={p.id} className={`cell span-${p.span}`}>
                    <p.Component />
                  </VisibleCell>
                ))}
              </div>
            </PanelActionsContext.Provider>
          </TimeCursorContext.Provider>
        </main>
      </div>
    </StoreProvider>
  );
}
