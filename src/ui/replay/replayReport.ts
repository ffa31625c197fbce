/**
 * Gathers the Replay view's parts into its review report (`export/report.ts`,
 * the same document parts as Compare's): the run's identity, the two verdicts
 * of the header (at the cursor, whole run), the invariants both ways, the
 * headline figures at the cursor, the timeline as on screen and every chart
 * panel as laid out — all at the one cursor the panels show. This file is
 * the pure part (the report's content from the state); the page's part —
 * reading the charts as laid out — is `replayReportPage.ts`.
 */
import type { InvariantReport } from '../../core/sim/invariants';
import { verdictText } from '../export/caption';
import { clusterLine, type ReplayInvariantRow, type ReplayReportInput, type ReportChart } from '../export/report';
import { kpisOf } from '../KpiStrip';
import type { DashboardState } from '../store/dashboardStore';
import { selectInvariantRows } from '../store/logSelectors';
import { selectWorkloadSummary } from '../store/selectors';
import type { ReplayUiState } from './replayController';
import { exportIdentity } from './captions';
import { cursorVerdict, runVerdict } from './verdicts';
import { evidenceCardsOf, sessionLineOf } from '../store/serviceSelectors';

/** each invariant at the cursor and over the whole run (either may be missing: not checked there yet) */
export function invariantsBothWays(atCursor: InvariantReport | null, wholeRun: InvariantReport | null): ReplayInvariantRow[] {
  const now = selectInvariantRows(atCursor).rows;
  const all = selectInvariantRows(wholeRun).rows;
  const names = [...new Set([...now.map((r) => r.name), ...all.map((r) => r.name)])];
  return names.map((name) => {
    const c = now.find((r) => r.name === name);
    const w = all.find((r) => r.name === name);
    return { name, atCursor: c && c.verdict !== 'pending' ? c.verdict : null, atCursorViolations: c?.violations ?? 0, wholeRun: w && w.verdict !== 'pending' ? w.verdict : null, wholeRunViolations: w?.violations ?? 0 };
  });
}

/** the report's content from the replay's state and the store's frame (pure; the charts come from the page) */
export function replayReportInput(ui: ReplayUiState, store: DashboardState, charts: readonly ReportChart[], link: string | null): ReplayReportInput {
  const run = ui.run;
  if (run === null || ui.info === null) throw new Error('the run is still recording: a report needs the whole run');
  const id = run.identity;
  const cursorMs = ui.frameCursorMs ?? ui.status.cursorMs;
  const wholeRun = ui.info.wholeRun;
  const seed = id.seed === null ? '' : ` · seed ${id.seed}`;
  // the cluster and a schedule's client settings as in the frame the panels show (the header's rule)
  const atFrame = exportIdentity(ui, store);
  return {
    title: `${id.scenario}${seed} · replay review at ${(cursorMs / 1000).toFixed(2)} s`,
    scenario: id.scenario,
    seed: id.seed,
    // the cluster at the frame, then the run's start
    cluster: run.scenario ? clusterLine(run.scenario, atFrame) : `${id.nodes ?? '?'} nodes · ${id.segments ?? '?'} segments (from the file's events)`,
    source: id.source,
    workload: run.scenario ? selectWorkloadSummary(run.scenario.workload) : 'unknown (imported events)',
    link,
    client: atFrame.client,
    ...(atFrame.clientAtMs !== undefined ? { clientAtMs: atFrame.clientAtMs } : {}),
    runVerdictText: verdictText(wholeRun),
    cursorMs,
    atCursor: cursorVerdict(store.snapshot.invariants, ui.budget),
    wholeRun: runVerdict(wholeRun),
    invariants: invariantsBothWays(store.snapshot.invariants, wholeRun),
    figures: kpisOf(store).map((k) => [k.label, `${k.value} · ${k.caption}`] as const),
    story: (({ label, text }) => ({ label, text }))(sessionLineOf(store, cursorMs)),
    cards: evidenceCardsOf(store).map((c) => ({ title: c.title, status: c.status, facts: c.facts, ...(c.tookOverNote !== undefined ? { tookOverNote: c.tookOverNote } : {}) })),
    charts,
  };
}
