/** PNG / SVG export on every live panel, captioned with the live session's identity, verdict and chart window. */
import { captionLines, verdictText } from '../export/caption';
import { ExportButtons } from '../export/ExportButtons';
import { panelExportActions } from '../export/panelExport';
import type { PanelActions } from '../panels/chart/panelActions';
import type { DashboardStore } from '../store/dashboardStore';
import { selectTimeDomain } from '../store/selectors';

/** what an empty live panel says: press Start, or (running) that its first bucket has not closed yet */
export function liveEmptyText(running: boolean, everStarted: boolean): string {
  if (running) return 'Running — the first point appears when its time bucket closes.';
  return everStarted ? 'Paused — no data in this window.' : 'No data yet — press Start.';
}

export function livePanelActions(store: DashboardStore, emptyText?: string): PanelActions {
  const identity = () => {
    const s = store.getState();
    return { scenario: s.session.scenario, seed: s.session.seed, nodes: s.cluster?.nodes.length ?? s.session.nodes, segments: s.session.segments, client: s.clientConfig, source: 'live session' };
  };
  const caption = (title: string) => () => {
    const s = store.getState();
    const [a, b] = selectTimeDomain(s.snapshot);
    return captionLines({ identity: identity(), what: `${title} panel (live)`, verdict: verdictText(s.snapshot.invariants), range: { t0: a * 1000, t1: b * 1000 }, cursorMs: null });
  };
  return {
    ...(emptyText !== undefined ? { emptyText } : {}),
    Component: function LivePanelExport({ title, target }) {
      return <ExportButtons actions={panelExportActions(title, () => target.current, caption(title), identity)} label={`Export ${title}`} />;
    },
  };
}
