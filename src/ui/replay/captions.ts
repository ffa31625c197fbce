/**
 * What the Replay exports' captions say of the run (pure): its identity with
 * the cluster as in the frame the panels show, by the header's rule
 * (`identityAtCursor`), "at" the frame's time — for the panels' PNG / SVG,
 * the timeline's and the review report's cluster line.
 */
import { captionLines, verdictText, type RunIdentity } from '../export/caption';
import type { DashboardState } from '../store/dashboardStore';
import { identityAtCursor, scheduledClient } from './identityAtCursor';
import type { ReplayUiState } from './replayController';

/** an identity for exports before anything is loaded */
const NOTHING: RunIdentity = { scenario: 'replay', seed: null, nodes: null, segments: null, client: null, source: '' };

/**
 * The identity the Replay exports' captions name: the run's, with its cluster as in the frame the panels show
 * (the store's cluster view, at `frameCursorMs`), by the header's rule; so are the client settings of a run that
 * schedules setting changes ("client at 7.50 s: …"), as the header shows them.
 */
export function exportIdentity(ui: Pick<ReplayUiState, 'run' | 'frameCursorMs'>, dashboard: Pick<DashboardState, 'cluster' | 'clientConfig'>): RunIdentity {
  if (ui.run === null) return NOTHING;
  const atFrame = ui.frameCursorMs !== null;
  return identityAtCursor(ui.run.identity, atFrame ? scheduledClient(ui.run.scenario, dashboard.clientConfig) : null, atFrame ? dashboard.cluster : null, ui.frameCursorMs);
}

/**
 * The caption of one panel's picture: the run, its cluster as in the frame the panels show ("cluster at 7.50 s:
 * 4 nodes / 64 segments", by the header's rule), the verdict and the charts' time range. `domainSec`: the charts' x range.
 */
export function panelCaption(ui: ReplayUiState, dashboard: DashboardState, title: string, domainSec: readonly [number, number]): string[] {
  const [a, b] = domainSec;
  return captionLines({
    identity: exportIdentity(ui, dashboard),
    what: `${title} panel`,
    verdict: verdictText(dashboard.snapshot.invariants),
    range: { t0: a * 1000, t1: b * 1000 },
    cursorMs: ui.status.cursorMs,
  });
}
