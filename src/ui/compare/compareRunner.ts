/**
 * Runs both sides of an A/B comparison, each in its own replay worker, in
 * parallel: the whole run streamed into a timeline feed (for the two
 * timelines) and the SPEC §10 summary (for the time-aligned charts and the
 * delta table). A newer request makes an older one's results be ignored.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { compareRuns, scenarioFor, type ComparisonPair, type ComparisonSide, type RunComparison } from '../../core/replay/compare';
import type { RunSummary } from '../../core/sim/runScenario';
import type { Scenario } from '../../core/sim/scenario';
import type { ReplayListener, ReplaySession } from '../bridge/replaySession';
import { TimelineFeed } from '../timeline/timelineFeed';

export type CompareSessionLike = Pick<ReplaySession, 'load' | 'seek' | 'summarize' | 'dispose'>;

export interface SideResult {
  readonly side: ComparisonSide;
  readonly scenario: Scenario;
  readonly summary: RunSummary;
}

export interface CompareState {
  readonly phase: 'idle' | 'running' | 'done' | 'error';
  readonly scenario: Scenario | null;
  readonly pair: ComparisonPair | null;
  readonly a: SideResult | null;
  readonly b: SideResult | null;
  readonly comparison: RunComparison | null;
  readonly error: string | null;
}

const SIDES = ['a', 'b'] as const;
type SideId = (typeof SIDES)[number];

export class CompareRunner {
  readonly ui: StoreApi<CompareState> = createStore<CompareState>()(() => ({ phase: 'idle', scenario: null, pair: null, a: null, b: null, comparison: null, error: null }));
  readonly feeds: Readonly<Record<SideId, TimelineFeed>> = { a: new TimelineFeed(), b: new TimelineFeed() };
  private sessions: Partial<Record<SideId, CompareSessionLike>> = {};
  private token = 0;

  constructor(private readonly makeSession: (listener: ReplayListener) => CompareSessionLike) {}

  private session(id: SideId): CompareSessionLike {
    let s = this.sessions[id];
    if (s === undefined) {
      const feed = this.feeds[id];
      s = this.makeSession({
        onReset: () => feed.reset(),
        onBatch: (b) => feed.ingestBatch(b),
        onClusterView: () => undefined,
        onClientView: () => undefined,
        onStatus: () => undefined,
        onError: (m) => this.ui.setState({ error: m }),
      });
      this.sessions[id] = s;
    }
    return s;
  }

  async run(scenario: Scenario, pair: ComparisonPair): Promise<void> {
    const token = ++this.token;
    this.ui.setState({ phase: 'running', scenario, pair, a: null, b: null, comparison: null, error: null });
    try {
      const results = await Promise.all(
        SIDES.map(async (id) => {
          const side = pair[id];
          const sc = scenarioFor(scenario, side);
          const session = this.session(id);
          this.feeds[id].reset(sc.durationMs);
          await session.load(sc);
          await session.seek(sc.durationMs);
          const summary = await session.summarize(sc);
          if (token === this.token) this.ui.setState({ [id]: { side, scenario: sc, summary } });
          return { side, scenario: sc, summary };
        }),
      );
      if (token !== this.token) return;
      const [a, b] = results as [SideResult, SideResult];
      this.ui.setState({ phase: 'done', comparison: compareRuns(a.summary, b.summary) });
    } catch (e) {
      if (token === this.token) this.ui.setState({ phase: 'error', error: e instanceof Error ? e.message : String(e) });
    }
  }

  dispose(): void {
    this.token++;
    for (const id of SIDES) this.sessions[id]?.dispose();
    this.sessions = {};
  }
}
