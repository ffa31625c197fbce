/**
 * The page: header with the session identity, the control bar on top, the
 * forms on the left and a responsive grid of panels. Takes the session
 * (`controls`) and the store as props and hands them down by context.
 */
import type { ReactNode } from 'react';
import type { PlaygroundControls } from './bridge/types';
import { About } from './About';
import { BugToggles } from './controls/BugToggles';
import { ClientConfigForm } from './controls/ClientConfigForm';
import { ControlBar } from './controls/ControlBar';
import { ControlsProvider } from './controls/ControlsContext';
import { WorkloadForm } from './controls/WorkloadForm';
import { Header } from './Header';
import { KpiStrip } from './KpiStrip';
import { EvidenceCards } from './story/EvidenceCards';
import { Guide } from './story/Guide';
import { SessionNotice } from './story/SessionNotice';
import { StatusLine } from './story/StatusLine';
import { WindowSelect } from './story/WindowSelect';
import { PANELS } from './panels/registry';
import { VisibleCell } from './panels/visibility';
import type { DashboardStore } from './store/dashboardStore';
import { StoreProvider, usePublisher } from './store/StoreContext';

export interface DashboardProps {
  readonly controls: PlaygroundControls;
  readonly store: DashboardStore;
  /** a row above the control bar (the Live tab's engine choice) */
  readonly toolbar?: ReactNode;
}

export function Dashboard({ controls, store, toolbar }: DashboardProps) {
  return (
    <StoreProvider store={store}>
      <ControlsProvider controls={controls}>
        <DashboardLayout toolbar={toolbar} />
      </ControlsProvider>
    </StoreProvider>
  );
}

function DashboardLayout({ toolbar }: { toolbar?: ReactNode }) {
  usePublisher();
  return (
    <div className="app">
      <Header />
      {toolbar}
      <ControlBar />
      <div className="story">
        <Guide />
        <SessionNotice />
        <div className="story-row">
          <StatusLine />
          <WindowSelect />
        </div>
        <KpiStrip />
        <EvidenceCards />
      </div>
      <div className="main">
        <aside className="sidebar" aria-label="Settings">
          <About />
          <BugToggles />
          <ClientConfigForm />
          <WorkloadForm />
        </aside>
        <main className="grid">
          {PANELS.map((p) => (
            <VisibleCell key={p.id} id={p.id} className={`cell span-${p.span}`}>
              <p.Component />
            </VisibleCell>
          ))}
        </main>
      </div>
    </div>
  );
}
