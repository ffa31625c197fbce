/**
 * One side of an A/B comparison: the scenario runs once to its end in the
 * engine with the summary sinks, and the same run's events are collected
 * into columnar batches for the side's timeline — one engine run, one
 * message back (buffers transferred), no streaming per frame. Compare has
 * no cursor-driven re-runs, so it needs no replay session.
 */
import * as Comlink from 'comlink';
import { runScenario, type RunSummary } from '../src/core/sim/runScenario';
import type { Scenario } from '../src/core/sim/scenario';
import { EventBatchBuilder, transferables, type EventBatch } from '../src/core/telemetry/eventCodec';
import type { TelemetrySink, ZarisEvent } from '../src/core/telemetry/events';

/** events per batch (large: one message, few allocations) */
const BATCH = 1 << 15;

class BatchCollector implements TelemetrySink {
  readonly batches: EventBatch[] = [];
  private builder = new EventBatchBuilder(BATCH);
  emit(e: ZarisEvent): void {
    this.builder.push(e);
    if (this.builder.length >= BATCH) this.batches.push(this.builder.take());
  }
  finish(): EventBatch[] {
    if (this.builder.length > 0) this.batches.push(this.builder.take());
    return this.batches;
  }
}

export interface CompareSideResult {
  readonly summary: RunSummary;
  readonly batches: readonly EventBatch[];
  /** wall ms of the engine run in the worker (for the figures in the status line) */
  readonly engineMs: number;
}

const api = {
  run(scenario: Scenario): CompareSideResult {
    const t0 = performance.now();
    const collector = new BatchCollector();
    const { summary } = runScenario(scenario, { sinks: [collector] });
    const batches = collector.finish();
    const result: CompareSideResult = { summary, batches, engineMs: performance.now() - t0 };
    return Comlink.transfer(result, batches.flatMap(transferables));
  },
};

export type CompareWorkerApi = typeof api;
Comlink.expose(api);
