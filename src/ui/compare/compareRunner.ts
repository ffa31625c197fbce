/**
 * Runs both sides of an A/B comparison, each in its own compare worker, in
 * parallel: one engine run per side gives the SPEC §10 summary (charts and
 * the delta table) and the run's events. The table shows as soon as both
 * summaries are in; the events are folded into the two timeline feeds after
 * that, one batch per task, so the main thread never blocks on a whole run.
 * A newer request makes an older one's results be ignored; asking again for
 * the runs in progress (the view mounting after the early start at page load)
 * runs nothing twice.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { compareRuns, scenarioFor, type ComparisonPair, type ComparisonSide, type RunComparison } from '../../core/replay/compare';
import type { RunSummary } from '../../core/sim/runScenario';
import type { Scenario } from '../../core/sim/scenario';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import { TimelineFeed } from '../timeline/timelineFeed';

/** what one side's worker gives back */
export interface SideRun {
  readonly summary: RunSummary;
  readonly batches: readonly EventBatch[];
  readonly engineMs: number;
}

export interface CompareWorkerLike {
  run(scenario: Scenario): Promise<SideRun>;
  dispose(): void;
}

export interface SideResult {
  readonly side: ComparisonSide;
  readonly scenario: Scenario;
  readonly summary: RunSummary;
}

/** where the time of one comparison went, wall ms on the main thread's clock */
export interface CompareTimings {
  /** when the runs were asked for, on the page's clock (ms since navigation start: the early start at page load, or the view) */
  readonly requestAtMs: number;
  /** request → both summaries in (the table can show) */
  readonly bothRunsMs: number;
  /** each worker's engine run */
  readonly engineMsA: number;
  readonly engineMsB: number;
  /** both summaries in → both timelines folded (null: still folding) */
  readonly timelinesMs: number | null;
}

export interface CompareState {
  readonly phase: 'idle' | 'running' | 'done' | 'error';
  readonly scenario: Scenario | null;
  readonly pair: ComparisonPair | null;
  readonly a: SideResult | null;
  readonly b: SideResult | null;
  readonly comparison: RunComparison | null;
  readonly timings: CompareTimings | null;
  /** the two timelines have all their events */
  readonly timelinesReady: boolean;
  readonly error: string | null;
}

const SIDES = ['a', 'b'] as const;
type SideId = (typeof SIDES)[number];

const yieldTask = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** the same scenario and the same two clients ⇒ the same runs (both are plain data) */
export const requestKey = (scenario: Scenario, pair: ComparisonPair): string => JSON.stringify([scenario, pair]);

export class CompareRunner {
  readonly ui: StoreApi<CompareState> = createStore<CompareState>()(() => ({
    phase: 'idle',
    scenario: null,
    pair: null,
    a: null,
    b: null,
    comparison: null,
    timings: null,
    timelinesReady: false,
    error: null,
  }));
  readonly feeds: Readonly<Record<SideId, TimelineFeed>> = { a: new TimelineFeed(), b: new TimelineFeed() };
  private workers: Partial<Record<SideId, CompareWorkerLike>> = {};
  private token = 0;
  /** the request in progress or done (null after an error or dispose: asking again runs it again) */
  private current: { readonly key: string; readonly done: Promise<void> } | null = null;

  constructor(
    private readonly makeWorker: (onError: (m: string) => void) => CompareWorkerLike,
    private readonly now: () => number = () => performance.now(),
  ) {}

  private worker(id: SideId): CompareWorkerLike {
    let w = this.workers[id];
    if (w === undefined) {
      w = this.makeWorker((m) => this.ui.setState({ error: m }));
      this.workers[id] = w;
    }
    return w;
  }

  run(scenario: Scenario, pair: ComparisonPair): Promise<void> {
    const key = requestKey(scenario, pair);
    if (this.current !== null && this.current.key === key) return this.current.done;
    const done = this.start(scenario, pair);
    this.current = { key, done };
    return done;
  }

  private async start(scenario: Scenario, pair: ComparisonPair): Promise<void> {
    const token = ++this.token;
    const t0 = this.now();
    this.ui.setState({ phase: 'running', scenario, pair, a: null, b: null, comparison: null, timings: null, timelinesReady: false, error: null });
    for (const id of SIDES) this.feeds[id].reset(scenario.durationMs);
    try {
      const runs = await Promise.all(
        SIDES.map(async (id) => {
          const side = pair[id];
          const sc = scenarioFor(scenario, side);
          const r = await this.worker(id).run(sc);
          if (token === this.token) this.ui.setState({ [id]: { side, scenario: sc, summary: r.summary } });
          return { result: { side, scenario: sc, summary: r.summary } satisfies SideResult, run: r };
        }),
      );
      if (token !== this.token) return;
      const [a, b] = runs as [(typeof runs)[number], (typeof runs)[number]];
      const t1 = this.now();
      const timings: CompareTimings = { requestAtMs: t0, bothRunsMs: t1 - t0, engineMsA: a.run.engineMs, engineMsB: b.run.engineMs, timelinesMs: null };
      this.ui.setState({ phase: 'done', comparison: compareRuns(a.result.summary, b.result.summary), timings });
      // the timelines: one batch per task, A and B interleaved so both fill in together
      const n = Math.max(a.run.batches.length, b.run.batches.length);
      for (let i = 0; i < n; i++) {
        await yieldTask();
        if (token !== this.token) return;
        const ba = a.run.batches[i];
        const bb = b.run.batches[i];
        if (ba) this.feeds.a.ingestBatch(ba);
        if (bb) this.feeds.b.ingestBatch(bb);
      }
      this.ui.setState({ timelinesReady: true, timings: { ...timings, timelinesMs: this.now() - t1 } });
    } catch (e) {
      if (token !== this.token) return;
      this.current = null;
      this.ui.setState({ phase: 'error', error: e instanceof Error ? e.message : String(e) });
    }
  }

  dispose(): void {
    this.token++;
    this.current = null;
    for (const id of SIDES) this.workers[id]?.dispose();
    this.workers = {};
  }
}
