import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, LAZY_VIEWS } from './App';
import { createAppStore } from './shell/appStore';
import { readUrl, writeUrl } from './shell/appUrl';
import { createLiveHandle } from './shell/liveHandle';
import { redrawStats } from './panels/updateQueue';
import { refreshAllPanels } from './panels/visibility';
import { createDashboardStore } from './store/dashboardStore';
import './styles.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');

// the URL names the view and what it shows; a bad link is reported and falls back, never breaks the page
const read = readUrl(window.location.search);
const app = createAppStore(read);
app.subscribe((s, prev) => {
  if (s.view !== prev.view || s.parts[s.view] !== prev.parts[prev.view]) window.history.replaceState(null, '', writeUrl(s.parts[s.view], read.dev));
});

// two stores: the live playground's and the replay's (the live session starts when the Live view opens)
const store = createDashboardStore();
const replayStore = createDashboardStore();
const live = createLiveHandle(store, app, window.location.search);
window.addEventListener('pagehide', () => live.dispose());
// read-only handles for the browser tests and the UI benchmark (they read the stores, never write them);
// refreshPanels brings offscreen panels up to date before a full-page screenshot; redraws counts chart
// redraws for the UI benchmark. Only in the test build (`vite build --mode e2e`, vite.config.ts): the
// production build has no hook on window.
if (import.meta.env.MODE === 'e2e') {
  (window as unknown as { __zarisLab?: { store: typeof store; replayStore: typeof replayStore; refreshPanels: typeof refreshAllPanels; redraws: typeof redrawStats } }).__zarisLab = {
    store,
    replayStore,
    refreshPanels: refreshAllPanels,
    redraws: redrawStats,
  };
}

// a link to Compare starts both runs now, in parallel with loading the view's code and drawing the page
const view = app.getState().view;
if (view === 'compare') void import('./compare/compareStart').then((m) => m.startCompareEarly(app.getState().parts.compare));

const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App app={app} live={live} replayStore={replayStore} />
    </StrictMode>,
  );
// the view a link opens renders without a Suspense fallback (lazyView.ts: React holds back what replaces one)
if (view === 'live') render();
else void LAZY_VIEWS[view].preload().then(render, render);
