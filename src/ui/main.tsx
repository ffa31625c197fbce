import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initialPreset, sessionFor } from './sessions';
import { createDashboardStore, createStoreListener } from './store/dashboardStore';
import './styles.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');

// one store, one session: the session pushes into the store, controls drive the session
const store = createDashboardStore();
const initial = initialPreset(window.location.search);
store.getState().beginSession(initial.scenario, initial.id);
const controls = sessionFor(window.location.search)(createStoreListener(store), initial.scenario);
window.addEventListener('pagehide', () => controls.dispose());
// read-only handle for the browser tests and the UI benchmark (they read the store, never write it)
(window as unknown as { __zarisLab?: { store: typeof store } }).__zarisLab = { store };

createRoot(root).render(
  <StrictMode>
    <App store={store} controls={controls} />
  </StrictMode>,
);
