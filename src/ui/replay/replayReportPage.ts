/** The page's part of the Replay review report: the charts as laid out, then the document (`replayReport.ts`). */
import { elementSvg } from '../export/panelExport';
import { replayReportHtml, type ReportChart } from '../export/report';
import { refreshAllPanels } from '../panels/visibility';
import type { DashboardState } from '../store/dashboardStore';
import type { ReplayUiState } from './replayController';
import { replayReportInput } from './replayReport';

const frame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));

/** the chart panels of the replay as laid out, every one at the same frame (offscreen ones brought up to date first) */
export async function replayChartSvgs(root: HTMLElement): Promise<ReportChart[]> {
  await refreshAllPanels();
  // Recharts lays its SVG out in the frame after a render
  await frame();
  await frame();
  const out: ReportChart[] = [];
  for (const panel of Array.from(root.querySelectorAll<HTMLElement>('[data-panel] > section.panel'))) {
    if (panel.querySelector('svg') === null) continue;
    out.push({ title: panel.querySelector('h2')?.textContent ?? panel.parentElement?.dataset.panel ?? 'panel', svg: elementSvg(panel, []) });
  }
  return out;
}

export interface ReplayReportParts {
  readonly ui: () => ReplayUiState;
  readonly store: () => DashboardState;
  /** the replay view's element (its panels are read from it) */
  readonly root: HTMLElement | null;
  /** the timeline as on screen, as SVG (null: no timeline shown) */
  readonly timelineSvg: (() => string) | null;
  readonly link: string | null;
}

export async function replayReport(p: ReplayReportParts): Promise<string> {
  replayReportInput(p.ui(), p.store(), [], null); // fails early, before any drawing, while the run records
  const charts: ReportChart[] = [];
  if (p.timelineSvg) charts.push({ title: 'Timeline (as on screen)', svg: p.timelineSvg() });
  if (p.root) charts.push(...(await replayChartSvgs(p.root)));
  return replayReportHtml(replayReportInput(p.ui(), p.store(), charts, p.link));
}
