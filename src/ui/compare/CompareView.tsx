/**
 * The Compare view: one scenario and seed, two client configurations
 * (default: the storm toggle off vs on), each run to its end in its own
 * replay worker. Side cards, the delta table, time-aligned charts and the
 * two timelines on one shared time range.
 */
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { Scenario } from '../../core/sim/scenario';
import { ReplaySession } from '../bridge/replaySession';
import { verdictText } from '../export/caption';
import { scenarioIdentity } from '../replay/replayController';
import { RunIdentityBlock } from '../replay/RunIdentityBlock';
import { scenarioFromUrl } from '../replay/urlScenario';
import type { AppStore } from '../shell/appStore';
import { selectWorkloadSummary } from '../store/selectors';
import { TimelinePanel } from '../timeline/TimelinePanel';
import { around, type Viewport } from '../timeline/viewport';
import { encodeUrlState } from '../urlState';
import { CompareRunner } from './compareRunner';
import { DeltaTable, InvariantTable } from './CompareTables';
import { defaultPair, pairOf, type TogglePair } from './pairs';
import { PairPicker } from './PairPicker';
import { SideCard } from './SideCard';
import { SideCharts } from './SideCharts';
import './compare.css';
import '../timeline/timeline.css';

export default function CompareView({ app }: { app: AppStore }) {
  const [runner] = useState(() => new CompareRunner((l) => new ReplaySession(l)));
  useEffect(() => () => runner.dispose(), [runner]);
  const part = useStore(app, (s) => s.parts.compare);
  const st = useStore(runner.ui);

  const key = encodeUrlState({ ...part, cursor: undefined, view: 'compare' });
  const { scenario, pair, loadError } = useMemo((): { scenario: Scenario | null; pair: TogglePair | null; loadError: string | null } => {
    try {
      const sc = scenarioFromUrl(part);
      return { scenario: sc, pair: part.compare ?? defaultPair(sc), loadError: null };
    } catch (e) {
      return { scenario: null, pair: null, loadError: e instanceof Error ? e.message : String(e) };
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on what the URL names
  }, [key]);

  // the timelines share one time range; for each run they open on the first fault and what follows (Fit shows the whole run)
  const [picked, setPicked] = useState<{ key: string; viewport: Viewport | null } | null>(null);
  const first = scenario?.faults[0];
  const viewport = picked !== null && picked.key === key ? picked.viewport : first && scenario ? around(first.atMs, 500, 5500, { min: 0, max: scenario.durationMs }) : null;
  const setViewport = (v: Viewport | null) => setPicked({ key, viewport: v });

  useEffect(() => {
    if (scenario !== null && pair !== null) void runner.run(scenario, pairOf(scenario, pair));
  }, [runner, scenario, pair]);

  const busy = st.phase === 'running';
  const labelA = st.pair?.a.label ?? '';
  const labelB = st.pair?.b.label ?? '';
  return (
    <div className="app compare-view" data-testid="compare-view" data-phase={st.phase}>
      <header className="app-header compare-header">
        <div className="brand">
          <h1>Compare</h1>
          <p className="tagline">same scenario · same seed · two clients</p>
        </div>
        {scenario ? (
          <RunIdentityBlock
            identity={scenarioIdentity(scenario, 'preset' in part.scenario ? `preset ${part.scenario.preset}` : 'scenario from the link')}
            extra={selectWorkloadSummary(scenario.workload)}
            toggles={<span className="badge muted">bug toggles: per side (A / B) below</span>}
          />
        ) : (
          <div />
        )}
        <div className={`compare-status ${st.phase}`} role="status" data-testid="compare-status">
          {st.phase === 'running' ? 'running both sides…' : st.phase === 'done' ? 'both runs complete' : st.phase === 'error' ? 'failed' : ''}
        </div>
      </header>
      <div className="control-bar compare-bar">
        <PairPicker part={part} scenario={scenario} pair={pair} busy={busy} onChange={(p) => app.getState().setPart('compare', p)} />
        {loadError || st.error ? (
          <div className="session-error replay-error" role="alert">
            {loadError ?? st.error}
          </div>
        ) : null}
      </div>
      <main className="compare-main">
        {st.pair ? (
          <section className="sides">
            <SideCard id="a" side={st.pair.a} summary={st.a?.summary ?? null} />
            <SideCard id="b" side={st.pair.b} summary={st.b?.summary ?? null} />
          </section>
        ) : null}
        {st.comparison ? (
          <section className="panel tables">
            <header className="panel-head">
              <div className="panel-title">
                <h2>What changed</h2>
                <span className="units">B − A; the better side in green</span>
              </div>
            </header>
            <div className="tables-grid">
              <DeltaTable comparison={st.comparison} labelA={labelA} labelB={labelB} />
              <InvariantTable comparison={st.comparison} />
            </div>
          </section>
        ) : null}
        {st.a && st.b ? (
          <section className="panel">
            <header className="panel-head">
              <div className="panel-title">
                <h2>Side by side, time-aligned</h2>
                <span className="units">1 s buckets · one y scale per row</span>
              </div>
            </header>
            <SideCharts a={st.a.summary} b={st.b.summary} labelA={labelA} labelB={labelB} />
          </section>
        ) : null}
        {st.a && st.b && st.pair ? (
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
                  cursorMs={null}
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
