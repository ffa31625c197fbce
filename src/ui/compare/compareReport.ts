/** Gathers the Compare view's parts into the review report (`export/report.ts`). */
import type { Scenario } from '../../core/sim/scenario';
import { captionLines, verdictText, wholeRunIdentity } from '../export/caption';
import { elementSvg } from '../export/panelExport';
import { clusterLine, reviewReportHtml, type ReportChart } from '../export/report';
import { timelineSvg } from '../export/timelineExport';
import { scenarioIdentity } from '../replay/replayController';
import { selectWorkloadSummary } from '../store/selectors';
import type { Viewport } from '../timeline/viewport';
import type { CompareRunner, CompareState } from './compareRunner';
import { deltaSections, verdictSentence } from './deltaRows';

export interface CompareReportInput {
  readonly st: CompareState;
  readonly runner: CompareRunner;
  readonly scenario: Scenario;
  readonly source: string;
  readonly cursorMs: number;
  /** the timelines' shared range (null: the whole run) */
  readonly viewport: Viewport | null;
  /** the side-by-side charts as laid out on screen (null: not shown) */
  readonly chartsEl: HTMLElement | null;
  readonly link: string | null;
}

const TIMELINE_W = 1200;
const TIMELINE_H = 300;

export function compareReport(r: CompareReportInput): string {
  const { st, scenario } = r;
  if (st.comparison === null || st.a === null || st.b === null || st.pair === null) throw new Error('both runs must be complete before a report');
  const charts: ReportChart[] = [];
  if (r.chartsEl) charts.push({ title: 'Side by side, time-aligned (1 s buckets; A sky, B pink)', svg: elementSvg(r.chartsEl, []) });
  const viewport = r.viewport ?? { t0: 0, t1: scenario.durationMs };
  for (const id of ['a', 'b'] as const) {
    const side = st[id];
    if (side === null) continue;
    const feed = r.runner.feeds[id];
    const caption = captionLines({ identity: wholeRunIdentity(scenarioIdentity(side.scenario, side.side.label), side.scenario.faults), what: `timeline, run ${id.toUpperCase()}`, verdict: verdictText(side.summary.invariants), range: viewport, cursorMs: r.cursorMs, note: 'lane per virtual user, retried operations only' });
    const svg = timelineSvg({
      query: feed.recorder,
      retried: feed.retried,
      options: { viewport, mode: 'vu', filter: 'retried', laneOffset: 0, width: TIMELINE_W, height: TIMELINE_H, cursorMs: r.cursorMs, selectedOp: null, hoverOp: null },
      caption,
    });
    charts.push({ title: `Timeline ${id.toUpperCase()} · ${side.side.label}`, svg });
  }
  const labelA = st.pair.a.label;
  const labelB = st.pair.b.label;
  return reviewReportHtml({
    title: `${scenario.name} · seed ${scenario.seed} · A/B review`,
    scenario: scenario.name,
    seed: scenario.seed,
    cluster: clusterLine(scenario),
    source: r.source,
    workload: selectWorkloadSummary(scenario.workload),
    sides: (['a', 'b'] as const).map((id) => ({ id, label: st.pair?.[id].label ?? '', client: st[id]?.scenario.client ?? scenario.client, verdict: verdictText(st[id]?.summary.invariants ?? null) })),
    verdictSentence: verdictSentence(st.comparison.verdict, labelA, labelB),
    better: st.comparison.verdict.better,
    sections: deltaSections(st.comparison),
    invariants: st.comparison.invariants,
    charts,
    link: r.link,
  });
}
