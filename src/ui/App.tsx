/**
 * The app shell: three views as tabs — Live (the playground dashboard),
 * Replay and Compare (lazy-loaded: their code is fetched when first opened,
 * so the first load stays small; the view a link opens is fetched before
 * the first render). Opened views stay mounted, hidden, so
 * switching back keeps their state; the URL encodes the open view.
 */
import { Suspense, useMemo, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { Dashboard } from './Dashboard';
import { PanelActionsContext } from './panels/chart/panelActions';
import { liveEmptyText, livePanelActions } from './shell/livePanelActions';
import type { AppStore } from './shell/appStore';
import type { LiveHandle } from './shell/liveHandle';
import { EngineChoice } from './shell/EngineChoice';
import { lazyView } from './shell/lazyView';
import { ShellBar } from './shell/ShellBar';
import type { DashboardStore } from './store/dashboardStore';
import type { View } from './urlState';
import './shell/shell.css';

/** the lazily loaded views (main.tsx preloads the one a link opens, before the first render) */
export const LAZY_VIEWS = {
  replay: lazyView(() => import('./replay/ReplayView')),
  compare: lazyView(() => import('./compare/CompareView')),
} as const;
const ReplayView = LAZY_VIEWS.replay.View;
const CompareView = LAZY_VIEWS.compare.View;

export interface AppProps {
  readonly app: AppStore;
  /** the live playground (its session starts when the Live view first opens) */
  readonly live: LiveHandle;
  /** the replay view's dashboard store (a second instance) */
  readonly replayStore: DashboardStore;
}

function ViewSlot({ id, shown, children }: { id: View; shown: boolean; children: ReactNode }) {
  return (
    <div id={`view-${id}`} role="tabpanel" aria-labelledby={`tab-${id}`} data-view={id} hidden={!shown}>
      {children}
    </div>
  );
}

function LiveView({ live }: { live: LiveHandle }) {
  const running = useStore(live.store, (s) => s.running);
  const everStarted = useStore(live.store, (s) => s.everStarted);
  const emptyText = liveEmptyText(running, everStarted);
  const actions = useMemo(() => livePanelActions(live.store, emptyText), [live.store, emptyText]);
  // a new session object after an engine switch
  useStore(live.engine, (s) => s.version);
  return (
    <PanelActionsContext.Provider value={actions}>
      <Dashboard store={live.store} controls={live.controls()} toolbar={<EngineChoice live={live} />} />
    </PanelActionsContext.Provider>
  );
}

const loading = (what: string) => <div className="view-loading">Loading {what}…</div>;

export function App({ app, live, replayStore }: AppProps) {
  const view = useStore(app, (s) => s.view);
  const visited = useStore(app, (s) => s.visited);
  return (
    <div className="shell">
      <ShellBar app={app} live={live} />
      {visited.includes('live') ? (
        <ViewSlot id="live" shown={view === 'live'}>
          <LiveView live={live} />
        </ViewSlot>
      ) : null}
      {visited.includes('replay') ? (
        <ViewSlot id="replay" shown={view === 'replay'}>
          <Suspense fallback={loading('the replay')}>
            <ReplayView app={app} store={replayStore} />
          </Suspense>
        </ViewSlot>
      ) : null}
      {visited.includes('compare') ? (
        <ViewSlot id="compare" shown={view === 'compare'}>
          <Suspense fallback={loading('the comparison')}>
            <CompareView app={app} />
          </Suspense>
        </ViewSlot>
      ) : null}
    </div>
  );
}
