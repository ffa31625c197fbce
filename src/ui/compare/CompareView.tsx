/**
 * The Compare view: one scenario and seed, two client configurations
 * (default: the storm toggle off vs on), each run once to its end in its own
 * worker. Side cards, the verdict (which side served users better), the
 * delta table (service first), time-aligned charts and the two timelines on
 * one shared time range — and one time cursor that drives both sides.
 */
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { secondAt } from '../../core/replay/compare';
import type { Scenario } from '../../core/sim/scenario';
import { captionLines, exportFileName, pairTogglesText, verdictText, wholeRunIdentity, type RunIdentity } from '../export/caption';
import { downloadText } from '../export/download';
import { ExportButtons } from '../export/ExportButtons';
import { panelExportActions } from '../export/panelExport';
import { formatNumber } from '../panels/chart/format';
import { scenarioIdentity } from '../replay/replayController';
import { RunIdentityBlock } from '../replay/RunIdentityBlock';
import type { AppStore } from '../shell/appStore';
import { selectWorkloadSummary } from '../store/selectors';
import { TimelinePanel } from '../timeline/TimelinePanel';
import { around, type Viewport } from '../timeline/viewport';
import { encodeUrlState } from '../urlState';
import { compareReport } from './compareReport';
import { compareRequest } from './compareRequest';
import type { CompareState } from './compareRunner';
import { pageCompareRunner } from './compareStart';
import { DeltaTable, InvariantTable } from './CompareTables';
import { sameRuns, sameRunsNote, verdictSentence } from './deltaRows';
import { BUG_HELP } from '../controls/BugToggles';
import { pairOf } from './pairs';
import { PairPicker } from './PairPicker';
import { SideCard } from './SideCard';
import { SIDE_COLOR, SideCharts } from './SideCharts';
import './compare.css';
import '../timeline/timeline.css';

/** where the cursor opens: inside the fault's aftermath (2.5 s after the first fault), else mid-run */
export function defaultCursorMs(scenario: Scenario): number {
  const first = scenario.faults[0];
  return Math.min(scenario.durationMs, first ? first.atMs + 2500 : scenario.durationMs / 2);
}

/** a section of this view on the page (read at export time, never during render) */
const byTestId = (id: string): HTMLElement | null => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);

const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

function statusText(st: CompareState): string {
  if (st.phase === 'running') return 'running both sides…';
  if (st.phase === 'error') return 'failed';
  if (st.phase !== 'done' || st.timings === null) return '';
  const t = st.timings;
  const tl = t.timelinesMs === null ? 'timelines loading…' : `timelines +${secs(t.timelinesMs)}`;
  return `both runs complete in ${secs(t.bothRunsMs)} (engine A ${secs(t.engineMsA)}, B ${secs(t.engineMsB)}) · ${tl}`;
}

/** the cursor and what each side did in that second */
function CursorBar({ st, cursorMs, durationMs, onCursor }: { st: CompareState; cursorMs: number; durationMs: number; onCursor: (t: number) => void }) {
  const rows = (['a', 'b'] as const).map((id) => ({ id, s: st[id] ? secondAt(st[id].summary, cursorMs) : null }));
  return (
    <div className="compare-cursor" data-testid="compare-cursor-bar">
      <label className="cursor-scrub">
        <span>
          time cursor <b data-testid="compare-cursor-time">{secs(cursorMs)}</b>
        </span>
        <input type="range" min={0} max={durationMs} step={100} value={cursorMs} onChange={(e) => onCursor(Number(e.target.value))} aria-label="Time cursor (both runs)" data-testid="compare-cursor" />
      </label>
      <table className="at-cursor" aria-label="Both runs at the cursor">
        <thead>
          <tr>
            <th>second {rows[0]?.s ? `${(rows[0].s.fromMs / 1000).toFixed(0)}–${(rows[0].s.fromMs / 1000 + 1).toFixed(0)} s` : ''}</th>
            <th>served ops/s</th>
            <th>healthy-segment ops/s</th>
            <th>failed ops/s</th>
            <th>ops parked</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ id, s }) => (
            <tr key={id} data-testid={`compare-at-cursor-${id}`}>
              <th style={{ color: SIDE_COLOR[id] }}>{id.toUpperCase()}</th>
              <td className={`num ${s && s.served === 0 ? 'zero' : ''}`}>{formatNumber(s?.served ?? null)}</td>
              <td className={`num ${s && s.healthy === 0 ? 'zero' : ''}`}>{formatNumber(s?.healthy ?? null)}</td>
              <td className="num">{formatNumber(s?.failed ?? null)}</td>
              <td className="num">{formatNumber(s?.parked ?? null)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function CompareView({ app }: { app: AppStore }) {
  // the runner the early start at page load may already have started (compareStart.ts)
  const [runner] = useState(pageCompareRunner);
  useEffect(() => () => runner.dispose(), [runner]);
  const part = useStore(app, (s) => s.parts.compare);
  const st = useStore(runner.ui);

  const key = encodeUrlState({ ...part, cursor: undefined, view: 'compare' });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on what the URL names
  const { scenario, pair, loadError } = useMemo(() => compareRequest(part), [key]);

  // the timelines share one time range; for each run they open on the first fault and what follows (Fit shows the whole run)
  const [picked, setPicked] = useState<{ key: string; viewport: Viewport | null } | null>(null);
  const first = scenario?.faults[0];
  const viewport = picked !== null && picked.key === key ? picked.viewport : first && scenario ? around(first.atMs, 500, 5500, { min: 0, max: scenario.durationMs }) : null;
  const setViewport = (v: Viewport | null) => setPicked({ key, viewport: v });

  // one cursor for both sides (in the link as `cursor`)
  const durationMs = scenario?.durationMs ?? 0;
  const cursorMs = Math.min(durationMs, Math.max(0, part.cursor ?? (scenario ? defaultCursorMs(scenario) : 0)));
  const setCursor = (t: number) => app.getState().setPart('compare', { cursor: Math.round(t) });

  useEffect(() => {
    if (scenario !== null && pair !== null) void runner.run(scenario, pairOf(scenario, pair));
  }, [runner, scenario, pair]);

  // the charts and timelines mount after the frame that shows the table and verdict (Recharts' first render is
  // the longest part of that commit): what judges the runs is on screen first
  const [chartsFor, setChartsFor] = useState<CompareState['comparison']>(null);
  useEffect(() => {
    if (st.comparison === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setChartsFor(st.comparison));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [st.comparison]);
  const showCharts = st.comparison !== null && chartsFor === st.comparison;

  const busy = st.phase === 'running';
  const labelA = st.pair?.a.label ?? '';
  const labelB = st.pair?.b.label ?? '';
  const source = 'preset' in part.scenario ? `preset ${part.scenario.preset}` : 'scenario from the link';
  // the pictures span the whole run: a node count its faults change is the start's ("3 nodes at the start")
  const identity: RunIdentity | null = scenario ? wholeRunIdentity({ ...scenarioIdentity(scenario, `${source} · A/B: ${labelA} vs ${labelB}`), client: null }, scenario.faults) : null;
  const caption = (what: string) => () =>
    identity
      ? captionLines({
          identity: { ...identity, client: st.a?.scenario.client ?? null },
          what,
          verdict: `A: ${verdictText(st.a?.summary.invariants ?? null)} · B: ${verdictText(st.b?.summary.invariants ?? null)}`,
          toggles: pairTogglesText(st.a?.scenario.client ?? null, st.b?.scenario.client ?? null),
          range: { t0: 0, t1: durationMs },
          cursorMs,
          note: `A ${labelA} vs B ${labelB}`,
        })
      : [];
  const run = () => identity ?? { scenario: 'compare', seed: null };
  const reportAction = {
    label: 'Review report',
    title: 'One self-contained HTML file: identity, verdict, delta table, invariants and the charts and timelines as inline SVG (reads offline)',
    testId: 'compare-report',
    run: async () => {
      if (scenario === null || identity === null) throw new Error('no comparison to report yet');
      const html = compareReport({ st, runner, scenario, source, cursorMs, viewport, chartsEl: byTestId('compare-charts'), link: `${location.origin}${location.pathname}${location.search}` });
      downloadText(html, exportFileName(identity, 'review report', 'html'), 'text/html');
    },
  };
  return (
    <div className="app compare-view" data-testid="compare-view" data-phase={st.phase} data-timelines={st.timelinesReady ? 'ready' : 'loading'}>
      <header className="app-header compare-header">
        <div className="brand">
          <h1>Compare</h1>
          <p className="tagline">same scenario · same seed · two clients</p>
        </div>
        {scenario ? (
          <RunIdentityBlock
            identity={scenarioIdentity(scenario, source)}
            extra={selectWorkloadSummary(scenario.workload)}
            toggles={<span className="badge muted">bug toggles: per side (A / B) below</span>}
          />
        ) : (
          <div />
        )}
        <div className="compare-head-actions">
          <div className={`compare-status ${st.phase}`} role="status" data-testid="compare-status" data-ms={st.timings?.bothRunsMs.toFixed(0) ?? ''} data-request-at-ms={st.timings?.requestAtMs.toFixed(0) ?? ''}>
            {statusText(st)}
          </div>
          {st.comparison ? <ExportButtons actions={[reportAction]} label="Export a review report" /> : null}
        </div>
      </header>
      <div className="control-bar compare-bar">
        <PairPicker part={part} scenario={scenario} pair={pair} busy={busy} onChange={(p) => app.getState().setPart('compare', p)} />
        {loadError || st.error ? (
          <div className="session-error replay-error" role="alert">
            {loadError ?? st.error}
          </div>
        ) : null}
        {scenario ? <CursorBar st={st} cursorMs={cursorMs} durationMs={durationMs} onCursor={setCursor} /> : null}
      </div>
      <main className="compare-main">
        {st.pair ? (
          <section className="sides">
            <SideCard id="a" side={st.pair.a} summary={st.a?.summary ?? null} />
            <SideCard id="b" side={st.pair.b} summary={st.b?.summary ?? null} />
          </section>
        ) : null}
        {st.comparison ? (
          <section className="panel tables" data-testid="compare-tables">
            <header className="panel-head">
              <div className="panel-title">
                <h2>What changed</h2>
                <span className="units">service first · B − A · the better side in green, the worse in red (differences under 5 % uncoloured)</span>
              </div>
              <ExportButtons actions={panelExportActions('Compare table', () => byTestId('compare-tables'), caption('delta table'), run)} label="Export the delta table" />
            </header>
            <p className={`compare-verdict better-${st.comparison.verdict.better ?? 'none'}`} data-testid="compare-verdict" data-better={st.comparison.verdict.better ?? ''}>
              {verdictSentence(st.comparison.verdict, labelA, labelB)}
            </p>
            {st.a && st.b && st.pair && sameRuns(st.a.summary, st.b.summary) ? (
              <p className="compare-note" data-testid="compare-same-runs">
                {sameRunsNote(BUG_HELP[st.pair.toggle].label)}
              </p>
            ) : null}
            <div className="tables-grid">
              <DeltaTable comparison={st.comparison} labelA={labelA} labelB={labelB} />
              <InvariantTable comparison={st.comparison} />
            </div>
          </section>
        ) : null}
        {st.a && st.b && showCharts ? (
          <section className="panel" data-testid="compare-charts">
            <header className="panel-head">
              <div className="panel-title">
                <h2>Side by side, time-aligned</h2>
                <span className="units">1 s buckets · one y scale per row · the line is the time cursor</span>
              </div>
              <ExportButtons actions={panelExportActions('Compare charts', () => byTestId('compare-charts'), caption('side-by-side charts'), run)} label="Export the side-by-side charts" />
            </header>
            <SideCharts a={st.a.summary} b={st.b.summary} labelA={labelA} labelB={labelB} cursorSec={cursorMs / 1000} />
          </section>
        ) : null}
        {st.a && st.b && st.pair && showCharts ? (
          <div className="compare-timelines">
            {(['a', 'b'] as const).map((id) => {
              const side = st[id];
              if (side === null) return null;
              return (
                <TimelinePanel
                  key={id}
                  feed={runner.feeds[id]}
                  identity={scenarioIdentity(side.scenario, side.side.label)}
                  captionWhat={`timeline, run ${id.toUpperCase()} of an A/B comparison`}
                  verdict={verdictText(side.summary.invariants)}
                  cursorMs={cursorMs}
                  onSeek={setCursor}
                  title={`Timeline ${id.toUpperCase()} · ${side.side.label}`}
                  height={330}
                  viewport={viewport}
                  onViewport={setViewport}
                  defaultMode="vu"
                  defaultFilter="retried"
                  showHint={id === 'a'}
                  testId={`timeline-${id}`}
                  className={`side-${id}`}
                />
              );
            })}
          </div>
        ) : null}
      </main>
    </div>
  );
}
