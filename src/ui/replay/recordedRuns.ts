/**
 * The recorded runs a replay worker holds, by id: each computed once (a
 * scenario run in the engine, or an imported event log), indexed for
 * seeking, and asked for frames at any time. Compare drives two of them from
 * one cursor with `framesAt([a, b], t)`. Framework-free (the worker exposes
 * it; tests use it directly).
 */
import type { ClientConfig } from '../../core/client/config';
import { EventTape } from '../../core/replay/eventTape';
import { recordScenario, type RunViews } from '../../core/replay/recordRun';
import { TopologyViews } from './topologyViews';
import type { InvariantReport } from '../../core/sim/invariants';
import { bugsOnAtAnyTime, type Scenario } from '../../core/sim/scenario';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import { SeekIndex, type SeekFrame, type SeekMemory } from './seekIndex';

/** what a recorded run is, once computed */
export interface RunInfo {
  readonly id: number;
  /** a scenario run in the engine, or an imported event log */
  readonly source: 'engine' | 'events';
  readonly durationMs: number;
  readonly events: number;
  readonly memory: SeekMemory;
  /** the verdict over the whole run */
  readonly wholeRun: InvariantReport | null;
  /** wall ms spent running the engine (0 for an imported log) and building the index */
  readonly recordMs: number;
  readonly indexMs: number;
}

export interface RecordedRun {
  readonly info: RunInfo;
  readonly index: SeekIndex;
  readonly scenario: Scenario;
}

/** the configuration the checker explains violations with: a toggle a scheduled change turns on counts for the whole run */
export function checkerConfig(s: Scenario): ClientConfig {
  return s.changes.length === 0 ? s.client : { ...s.client, bugs: bugsOnAtAnyTime(s) };
}

export class RecordedRuns {
  private readonly runs = new Map<number, RecordedRun>();
  private nextId = 1;

  constructor(private readonly clock: () => number = () => 0) {}

  /** runs `scenario` once and indexes it */
  record(scenario: Scenario, onProgress?: (fraction: number) => void): RecordedRun {
    const t0 = this.clock();
    const rec = recordScenario(scenario, onProgress);
    const t1 = this.clock();
    return this.keep(scenario, 'engine', rec.tape, rec.views, t1 - t0, t1);
  }

  /** indexes an imported event log (`scenario` names it and gives the checker's configuration) */
  fromBatches(scenario: Scenario, batches: readonly EventBatch[]): RecordedRun {
    const t0 = this.clock();
    const tape = new EventTape();
    for (const b of batches) tape.appendBatch(b);
    tape.seal();
    return this.keep(scenario, 'events', tape, new TopologyViews(batches), 0, t0);
  }

  private keep(scenario: Scenario, source: RunInfo['source'], tape: EventTape, views: RunViews | null, recordMs: number, t1: number): RecordedRun {
    const pauses = scenario.changes.flatMap((c) => (c.paused === undefined ? [] : [{ atMs: c.atMs, paused: c.paused }]));
    const index = new SeekIndex(tape, checkerConfig(scenario), Math.max(scenario.durationMs, Math.ceil(tape.endT)), views, { pauses });
    const id = this.nextId++;
    const info: RunInfo = { id, source, durationMs: index.durationMs, events: tape.length, memory: index.memory(), wholeRun: index.wholeRun, recordMs, indexMs: this.clock() - t1 };
    const run = { info, index, scenario };
    this.runs.set(id, run);
    return run;
  }

  get(id: number): RecordedRun {
    const r = this.runs.get(id);
    if (r === undefined) throw new Error(`no recorded run ${id} (released?)`);
    return r;
  }

  frameAt(id: number, t: number): SeekFrame {
    return this.get(id).index.frameAt(t);
  }

  /** several runs at one time (Compare's one cursor) */
  framesAt(ids: readonly number[], t: number): SeekFrame[] {
    return ids.map((id) => this.frameAt(id, t));
  }

  release(id: number): void {
    this.runs.delete(id);
  }

  /** ids held, oldest first */
  get ids(): number[] {
    return [...this.runs.keys()];
  }
}
