import type { PlaygroundControls } from './bridge/types';
import { Dashboard } from './Dashboard';
import type { DashboardStore } from './store/dashboardStore';

export interface AppProps {
  readonly store: DashboardStore;
  /** the session: the dev SimFeed or the live worker bridge (see sessions.ts) */
  readonly controls: PlaygroundControls;
}

/** The app: the live dashboard over one session (the About section keeps the former landing text). */
export function App({ store, controls }: AppProps) {
  return <Dashboard store={store} controls={controls} />;
}
