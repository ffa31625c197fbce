/**
 * The Replay view: any scenario (preset, file, link, a live recording) runs
 * in the deterministic engine in the replay worker; an events file replays
 * on the main thread. One time cursor moves every panel — the timeline, the
 * time charts (with a cursor line), the cluster view and the figures.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { ReplaySession } from '../bridge/replaySession';
import { exportFileName, verdictText } from '../export/caption';
import { downloadText } from '../export/download';
import { ExportButtons } from '../export/ExportButtons';
import { PanelActionsContext, type PanelActions } from '../panels/chart/panelActions';
import { PANELS } from '../panels/registry';
import { TimeCursorContext, type TimeCursor } from '../panels/timeCursor';
import { enqueueRedraw } from '../panels/updateQueue';
import { VisibleCell } from '../panels/visibility';
import type { AppStore } from '../shell/appStore';
import type { DashboardStore } from '../store/dashboardStore';
import { StoreProvider, usePublisher } from '../store/StoreContext';
import { TimelinePanel } from '../timeline/TimelinePanel';
import { encodeUrlState } from '../urlState';
import { panelExports, runExports } from './exportActions';
import { exportIdentity } from './captions';
import { ReplayController } from './replayController';
import { replayDomain } from './replayDomain';
import { replayReport } from './replayReportPage';
import { ReplayHeader } from './ReplayHeader';
import { EvidenceCards } from '../story/EvidenceCards';
import { StatusLine } from '../story/StatusLine';
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

/** the timeline at the cursor: the one part that follows the cursor every frame */
function ReplayTimeline({ ctl, store, onSvgSource }: { ctl: ReplayController; store: DashboardStore; onSvgSource: (svg: () => string) => void }) {
  const cursorMs = useStore(ctl.ui, (s) => s.status.cursorMs);
  const verdict = verdictText(useStore(store, (s) => s.snapshot.invariants));
  // the caption's cluster (and a schedule's client settings): as in the frame the panels show, by the header's rule
  const { run, frameCursorMs } = useStore(ctl.ui, useShallow((s) => ({ run: s.run, frameCursorMs: s.frameCursorMs })));
  const { cluster, clientConfig } = useStore(store, useShallow((s) => ({ cluster: s.cluster, clientConfig: s.clientConfig })));
  const identity = useMemo(() => exportIdentity({ run, frameCursorMs }, { cluster, clientConfig }), [run, frameCursorMs, cluster, clientConfig]);
  const onSeek = useCallback((t: number) => void ctl.seek(t), [ctl]);
  return <TimelinePanel feed={ctl.feed} identity={identity} verdict={verdict} cursorMs={cursorMs} onSeek={onSeek} defaultMode="op" defaultFilter="retried" testId="timeline" onSvgSource={onSvgSource} />;
}

/**
 * One panel's view of the time cursor: the cursor and range of the frame the
 * store shows, taken in the panel's turn of the redraw queue (a new cursor
 * redraws the charts one per frame, not all in one long task).
 */
function CellCursor({ ctl, children }: { ctl: ReplayController; children: ReactNode }) {
  const read = (): TimeCursor => {
    const s = ctl.ui.getState();
    const t = s.frameCursorMs ?? 0;
    return { cursorSec: t / 1000, domain: replayDomain(t, s.status.durationMs) };
  };
  const [value, setValue] = useState(read);
  useEffect(() => {
    let cancel: (() => void) | null = null;
    const un = ctl.ui.subscribe((s, prev) => {
      if (s.frameCursorMs === prev.frameCursorMs && s.status.durationMs === prev.status.durationMs) return;
      cancel?.();
      cancel = enqueueRedraw(() => {
        cancel = null;
        setValue(read());
      });
    });
    return () => {
      un();
      cancel?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read() only reads ctl
  }, [ctl]);
  return <TimeCursorContext.Provider value={value}>{children}</TimeCursorContext.Provider>;
}

/** what the run shows at the cursor, in the Live tab's words: the status line and the fault cards */
function ReplayStory({ ctl }: { ctl: ReplayController }) {
  const cursorMs = useStore(ctl.ui, (s) => s.frameCursorMs);
  const run = useStore(ctl.ui, (s) => s.run);
  if (run === null || cursorMs === null) return null;
  return (
    <div className="story replay-story">
      <StatusLine replayCursorMs={cursorMs} />
      <EvidenceCards />
    </div>
  );
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
  // not the whole status: it changes every animation frame while playing (the timeline and the transport bar read it themselves)
  const playing = useStore(ctl.ui, (s) => s.status.playing);
  const restingCursor = useStore(ctl.ui, (s) => (s.status.playing ? null : s.status.cursorMs));
  const loading = useStore(ctl.ui, (s) => s.loading);
  const error = useStore(ctl.ui, (s) => s.error);

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
    if (playing || restingCursor === null || loading !== null || run?.kind !== 'scenario') return;
    const t = Math.round(restingCursor);
    if (app.getState().parts.replay.cursor !== t) app.getState().setPart('replay', { cursor: t });
  }, [app, playing, restingCursor, loading, run]);

  // the export reads the charts' range when clicked (the range of the frame the store shows)
  const domainRef = useRef<readonly [number, number]>([0, 1]);
  useEffect(
    () =>
      ctl.ui.subscribe((s) => {
        domainRef.current = replayDomain(s.frameCursorMs ?? 0, s.status.durationMs);
      }),
    [ctl],
  );
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

  // the one-click review report: the page as it stands at the cursor
  const rootRef = useRef<HTMLDivElement>(null);
  const timelineSvg = useRef<(() => string) | null>(null);
  const onTimelineSvg = useCallback((f: () => string) => {
    timelineSvg.current = f;
  }, []);
  const reportAction = {
    label: 'Review report',
    title: 'One self-contained HTML file: identity, the verdicts at the cursor and for the whole run, invariants, figures, the timeline and the charts as inline SVG (reads offline)',
    testId: 'replay-report',
    run: async () => {
      const html = await replayReport({
        ui: () => ctl.ui.getState(),
        store: () => store.getState(),
        root: rootRef.current,
        timelineSvg: timelineSvg.current,
        link: ctl.ui.getState().run?.kind === 'scenario' ? `${location.origin}${location.pathname}${location.search}` : null,
      });
      downloadText(html, exportFileName(ctl.ui.getState().run?.identity ?? { scenario: 'replay', seed: null }, 'replay report', 'html'), 'text/html');
    },
  };

  return (
    <StoreProvider store={store}>
      <Publisher />
      <div className="app replay-view" ref={rootRef} onDragOver={(e) => e.preventDefault()} onDrop={onDrop} data-testid="replay-view">
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
              scheduled={(run?.scenario?.changes ?? []).some((c) => c.client?.bugs !== undefined)}
            />
            <div className="run-exports">
              {run?.kind === 'events' ? <span className="k note">an imported events file is not carried by the link</span> : null}
              <span className="k">export the run</span>
              <ExportButtons actions={runExports(ctl)} label="Export the run" />
              <ExportButtons actions={[reportAction]} label="Export a review report" />
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
        <ReplayStory ctl={ctl} />
        <main className="replay-main">
          {run ? (
            <ReplayTimeline ctl={ctl} store={store} onSvgSource={onTimelineSvg} />
          ) : null}
          <PanelActionsContext.Provider value={panelActions}>
            <div className="grid">
              {PANELS.map((p) => (
                <VisibleCell key={p.id} id={p.id} className={`cell span-${p.span}`}>
                  <CellCursor ctl={ctl}>
                    <p.Component />
                  </CellCursor>
                </VisibleCell>
              ))}
            </div>
          </PanelActionsContext.Provider>
        </main>
      </div>
    </StoreProvider>
  );
}
