/**
 * `npm run bench [-- --reps N] [-- --quick]`: the simulation engine's speed.
 *
 * The `failover` preset scaled to a large run (256 closed-loop users on top
 * of its open loop, 40 s of virtual time, ~2 M operations), simulated
 * with aggregated telemetry (what `npm run sim` does), with NDJSON event
 * output on as well, and with no sinks. Then a slice of the same scenario on
 * `@sinonjs/fake-timers` instead of the engine's timer queue, against the
 * engine on the same integer-tick time: the two summaries (and, on a short
 * run, the event streams) must be identical, else this throws; the ratio of
 * their speeds is reported.
 *
 * Each figure is the best of N runs (default 3; NDJSON output, the slowest,
 * runs once). Prints a table and writes .tmp/bench-sim.json. Figures only:
 * nothing here asserts on timing. Bundled by esbuild (no keepNames) and run
 * on plain node by `npm run bench`.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { SimEngine } from '../src/core/sim/engine';
import { findPreset } from '../src/core/sim/presets';
import { runScenario, type RunSummary } from '../src/core/sim/runScenario';
import { loadScenario, type Scenario, type ScenarioInput } from '../src/core/sim/scenario';
import type { TelemetrySink, ZarisEvent } from '../src/core/telemetry/events';
import { NdjsonSink, toNdjsonLine } from '../src/core/telemetry/ndjson';
import type { SimClock } from '../src/core/time/simClock';
import { VirtualScheduler } from '../src/core/time/virtualScheduler';
import { bareHeapLoop, type LoopFigure } from './bareHeapLoop';
import { FakeTimersClock } from './fakeTimersClock';
import { RecordingClock, replayTimerTrace } from './timerTrace';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const repsArg = args.indexOf('--reps');
const REPS = repsArg >= 0 ? Math.max(1, Number(args[repsArg + 1])) : quick ? 1 : 3;

/** the large run: virtual ms, closed-loop users */
const DURATION_MS = quick ? 12_000 : 40_000;
const CONCURRENCY = 256;
/** the slice run on both clocks (covers the crash at 5 s and the failover) */
const SLICE_MS = quick ? 6_000 : 10_000;
/** fake-timers counts whole units: 1 virtual ms = 1000 units (µs resolution) on both clocks */
const TICKS_PER_MS = 1000;

function failoverScaled(durationMs: number): Scenario {
  const preset = findPreset('failover');
  if (preset === undefined) throw new Error('no failover preset');
  const input = preset.input as ScenarioInput;
  return loadScenario(
    {
      ...input,
      name: `failover ×${CONCURRENCY} users, ${durationMs / 1000} s`,
      durationMs,
      workload: { ...input.workload, concurrency: CONCURRENCY },
      faults: (input.faults ?? []).filter((f) => f.atMs <= durationMs),
    },
    'bench scenario',
  );
}

interface Timing {
  readonly ops: number;
  readonly wallMs: number;
  readonly cpuMs: number;
}

function timed<T>(f: () => T): { value: T; wallMs: number; cpuMs: number } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = f();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { value, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** FNV-1a over the NDJSON lines: a digest of the whole event stream */
class DigestSink implements TelemetrySink {
  hash = 0x811c9dc5;
  events = 0;
  emit(e: ZarisEvent): void {
    const line = toNdjsonLine(e);
    let h = this.hash;
    for (let i = 0; i < line.length; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193);
    this.hash = h >>> 0;
    this.events++;
  }
}

/** a run with no sinks at all on `clock` */
function runBare(scenario: Scenario, clock: SimClock): SimEngine {
  const engine = new SimEngine(scenario, { clock });
  engine.run();
  return engine;
}

/** what a run without telemetry leaves behind: the workload's counters, requests sent, the cluster and its data */
function fingerprint(engine: SimEngine): string {
  let h = 0x811c9dc5;
  const mix = (x: number): void => {
    h = Math.imul(h ^ (x | 0), 0x01000193);
    h = Math.imul(h ^ Math.floor(x / 2 ** 32), 0x01000193);
  };
  engine.state.nodes.forEach(({ id: node }) =>
    engine.cluster.node(node).stores.forEach((store, segment) => {
      for (const [key, entry] of store) {
        mix(node);
        mix(segment);
        for (let i = 0; i < key.length; i++) mix(key.charCodeAt(i));
        mix(entry.version);
        mix(entry.value === null ? -1 : entry.value.length);
      }
    }),
  );
  return JSON.stringify({
    workload: engine.workload.stats,
    sent: engine.network.sent,
    epoch: engine.state.epoch,
    nodes: engine.state.nodes.map((n) => n.status),
    data: h >>> 0,
  });
}

const big = failoverScaled(DURATION_MS);
const slice = failoverScaled(SLICE_MS);
type Mode =
  | 'aggregated'
  | 'ndjson'
  | 'noSinks'
  | 'sliceEngine'
  | 'sliceFakeTimers'
  | 'sliceEngineNoSinks'
  | 'sliceFakeTimersNoSinks'
  | 'timersEngine'
  | 'timersFakeTimers';
const runs: Record<Mode, Timing[]> = {
  aggregated: [],
  ndjson: [],
  noSinks: [],
  sliceEngine: [],
  sliceFakeTimers: [],
  sliceEngineNoSinks: [],
  sliceFakeTimersNoSinks: [],
  timersEngine: [],
  timersFakeTimers: [],
};
let bigSummary = null as RunSummary | null;
/** timers the engine fired in the aggregated run (its events) */
let bigTimers = 0;
/** the bare typed-array heap loop, once per rep (interleaved with the runs it is compared with) */
const loops: LoopFigure[] = [];
const LOOP_EVENTS = quick ? 5_000_000 : 20_000_000;

const same = (a: RunSummary, b: RunSummary): boolean => JSON.stringify(a) === JSON.stringify(b);
const quantized = (): SimClock => new VirtualScheduler({ ticksPerMs: TICKS_PER_MS });
const fakeTimers = (): SimClock => new FakeTimersClock(TICKS_PER_MS);

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

// The clocks agree event for event (not only on the summary), on a short run.
{
  const check = failoverScaled(6_000);
  const a = new DigestSink();
  const b = new DigestSink();
  const sa = runScenario(check, { clock: quantized(), sinks: [a] }).summary;
  const sb = runScenario(check, { clock: fakeTimers(), sinks: [b] }).summary;
  if (!same(sa, sb) || a.hash !== b.hash || a.events !== b.events) {
    throw new Error(`fake-timers and the engine disagree: ${a.events} events (digest ${a.hash}) vs ${b.events} (digest ${b.hash})`);
  }
  log(`event streams identical on both clocks: ${a.events} events, digest ${a.hash.toString(16)}`);
}

// The slice's timer workload alone: every timer it scheduled, at the same
// times, scheduling and cancelling the same others, with no client, cluster
// or telemetry work in the callbacks.
const timerTrace = (() => {
  const rec = new RecordingClock(quantized());
  runScenario(slice, { clock: rec });
  return rec.trace;
})();
log(`timer trace of the slice: ${timerTrace.due.length} timers scheduled, ${timerTrace.fired} fired`);

// warm-up (JIT) on a short run of each kind
runScenario(failoverScaled(3_000));
new SimEngine(failoverScaled(3_000)).run();

const devNull = openSync(os.devNull, 'w');
const t0 = performance.now();
const elapsed = (): string => `${((performance.now() - t0) / 1000).toFixed(0)} s`;
for (let rep = 1; rep <= REPS; rep++) {
  {
    const r = timed(() => runScenario(big));
    if (bigSummary !== null && !same(bigSummary, r.value.summary)) throw new Error('the same run gave a different summary');
    bigSummary = r.value.summary;
    bigTimers = (r.value.engine.scheduler as VirtualScheduler).fired;
    runs.aggregated.push({ ops: r.value.summary.ops.total, wallMs: r.wallMs, cpuMs: r.cpuMs });
    loops.push(bareHeapLoop(LOOP_EVENTS));
  }
  {
    const r = timed(() => {
      const engine = new SimEngine(big);
      engine.run();
      return engine;
    });
    const ops = bigSummary.ops.total;
    if (r.value.workload.stats.transactions !== bigSummary.workload.transactions) throw new Error('the run without sinks diverged');
    runs.noSinks.push({ ops, wallMs: r.wallMs, cpuMs: r.cpuMs });
  }
  {
    const e = timed(() => runScenario(slice, { clock: quantized() }).summary);
    const f = timed(() => runScenario(slice, { clock: fakeTimers() }).summary);
    if (!same(e.value, f.value)) throw new Error('fake-timers and the engine gave different summaries');
    runs.sliceEngine.push({ ops: e.value.ops.total, wallMs: e.wallMs, cpuMs: e.cpuMs });
    runs.sliceFakeTimers.push({ ops: f.value.ops.total, wallMs: f.wallMs, cpuMs: f.cpuMs });
    // the clocks alone: no telemetry at all (same final state required)
    const en = timed(() => fingerprint(runBare(slice, quantized())));
    const fn = timed(() => fingerprint(runBare(slice, fakeTimers())));
    if (en.value !== fn.value) throw new Error('fake-timers and the engine ended in different states');
    if ((JSON.parse(en.value) as { workload: { transactions: number } }).workload.transactions !== e.value.workload.transactions) {
      throw new Error('the slice without sinks diverged');
    }
    runs.sliceEngineNoSinks.push({ ops: e.value.ops.total, wallMs: en.wallMs, cpuMs: en.cpuMs });
    runs.sliceFakeTimersNoSinks.push({ ops: e.value.ops.total, wallMs: fn.wallMs, cpuMs: fn.cpuMs });
    // the timer workload alone on each clock (figures count the slice's operations per second, for the ratio)
    const te = timed(() => replayTimerTrace(timerTrace, quantized()));
    const tf = timed(() => replayTimerTrace(timerTrace, fakeTimers()));
    if (te.value !== timerTrace.fired || tf.value !== timerTrace.fired) {
      throw new Error(`timer replay fired ${te.value} (engine) / ${tf.value} (fake-timers) timers, the run fired ${timerTrace.fired}`);
    }
    runs.timersEngine.push({ ops: e.value.ops.total, wallMs: te.wallMs, cpuMs: te.cpuMs });
    runs.timersFakeTimers.push({ ops: e.value.ops.total, wallMs: tf.wallMs, cpuMs: tf.cpuMs });
  }
  log(`rep ${rep}/${REPS} done (${elapsed()})`);
}
const ndjsonBytes = ((): number => {
  let bytes = 0;
  const sink = new NdjsonSink((chunk) => {
    bytes += writeSync(devNull, chunk);
  });
  const r = timed(() => {
    const s = runScenario(big, { sinks: [sink] }).summary;
    sink.flush();
    return s;
  });
  if (bigSummary !== null && !same(bigSummary, r.value)) throw new Error('NDJSON output changed the run');
  runs.ndjson.push({ ops: r.value.ops.total, wallMs: r.wallMs, cpuMs: r.cpuMs });
  log(`NDJSON run done (${elapsed()})`);
  return bytes;
})();
closeSync(devNull);

interface Figure {
  readonly ops: number;
  /** best (least disturbed) run */
  readonly wallMs: number;
  readonly opsPerSec: number;
  readonly medianOpsPerSec: number;
  readonly cpuOpsPerSec: number;
  readonly runs: readonly Timing[];
}

function figure(ts: readonly Timing[]): Figure {
  const rates = ts.map((t) => (t.ops / t.wallMs) * 1000).sort((a, b) => a - b);
  const best = ts.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
  return {
    ops: best.ops,
    wallMs: Math.round(best.wallMs),
    opsPerSec: Math.round((best.ops / best.wallMs) * 1000),
    medianOpsPerSec: Math.round(rates[Math.floor(rates.length / 2)] as number),
    cpuOpsPerSec: Math.round((best.ops / best.cpuMs) * 1000),
    runs: ts.map((t) => ({ ops: t.ops, wallMs: Math.round(t.wallMs), cpuMs: Math.round(t.cpuMs) })),
  };
}

const loopBest = loops.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
const loop = {
  events: loopBest.events,
  pending: 4096,
  eventsPerSec: Math.round((loopBest.events / loopBest.wallMs) * 1000),
  cpuEventsPerSec: Math.round((loopBest.events / loopBest.cpuMs) * 1000),
  runs: loops.map((l) => ({ wallMs: Math.round(l.wallMs), cpuMs: Math.round(l.cpuMs) })),
};

const fig = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, figure(v)])) as Record<keyof typeof runs, Figure>;
const ratio = fig.sliceEngine.opsPerSec / fig.sliceFakeTimers.opsPerSec;
const ratioNoSinks = fig.sliceEngineNoSinks.opsPerSec / fig.sliceFakeTimersNoSinks.opsPerSec;
const ratioTimers = fig.timersEngine.opsPerSec / fig.timersFakeTimers.opsPerSec;
/** ns per timer for each clock on the timer workload alone */
const nsPerTimer = (f: Figure): number => Math.round((f.wallMs * 1e6) / timerTrace.fired);
const cpus = os.cpus();
const machine = {
  cpu: cpus[0]?.model ?? 'unknown',
  cores: cpus.length,
  node: process.version,
  platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
};

const result = {
  date: new Date().toISOString(),
  machine,
  scenario: {
    name: big.name,
    durationMs: DURATION_MS,
    concurrency: CONCURRENCY,
    ratePerSec: big.workload.ratePerSec,
    faults: big.faults,
    sliceMs: SLICE_MS,
    ticksPerMs: TICKS_PER_MS,
    reps: REPS,
  },
  ndjsonBytes,
  ...fig,
  bareHeapLoop: loop,
  /** the aggregated run's engine timers (events) per operation, and its ops/s as a share of the bare loop's events/s */
  timersPerOp: Math.round((bigTimers / fig.aggregated.ops) * 100) / 100,
  opsPerLoopEvent: Math.round((fig.aggregated.opsPerSec / loop.eventsPerSec) * 10_000) / 10_000,
  cpuOpsPerLoopEvent: Math.round((fig.aggregated.cpuOpsPerSec / loop.cpuEventsPerSec) * 10_000) / 10_000,
  fakeTimersRatio: Math.round(ratio * 10) / 10,
  fakeTimersRatioNoSinks: Math.round(ratioNoSinks * 10) / 10,
  timerTrace: { scheduled: timerTrace.due.length, fired: timerTrace.fired },
  fakeTimersRatioTimersOnly: Math.round(ratioTimers * 10) / 10,
  nsPerTimer: { engine: nsPerTimer(fig.timersEngine), fakeTimers: nsPerTimer(fig.timersFakeTimers) },
};
mkdirSync('.tmp', { recursive: true });
writeFileSync('.tmp/bench-sim.json', `${JSON.stringify(result, null, 2)}\n`);

const fmt = (n: number): string => n.toLocaleString('en-US');
const rows: [string, Figure][] = [
  ['engine, aggregated telemetry (runScenario)', fig.aggregated],
  ['engine, aggregated + NDJSON output', fig.ndjson],
  ['engine, no sinks', fig.noSinks],
  [`slice ${SLICE_MS / 1000} s: engine, µs ticks, aggregated`, fig.sliceEngine],
  [`slice ${SLICE_MS / 1000} s: @sinonjs/fake-timers, µs ticks, aggregated`, fig.sliceFakeTimers],
  [`slice ${SLICE_MS / 1000} s: engine, µs ticks, no sinks`, fig.sliceEngineNoSinks],
  [`slice ${SLICE_MS / 1000} s: @sinonjs/fake-timers, µs ticks, no sinks`, fig.sliceFakeTimersNoSinks],
  [`slice ${SLICE_MS / 1000} s: engine clock, its timer workload only`, fig.timersEngine],
  [`slice ${SLICE_MS / 1000} s: fake-timers, the same timer workload only`, fig.timersFakeTimers],
];
const w0 = Math.max(...rows.map(([l]) => l.length));
const out = [
  `${big.name}: ${big.cluster.nodes} nodes, open loop ${big.workload.ratePerSec}/s + ${CONCURRENCY} users, node ${big.faults[0]?.node} fails at ${big.faults[0]?.atMs} ms`,
  `${machine.cpu} · ${machine.cores} cores · node ${machine.node} · load ${machine.loadavg.join(' ')} · best of ${REPS}`,
  '',
  `${'mode'.padEnd(w0)}  ${'ops'.padStart(10)}  ${'wall s'.padStart(7)}  ${'ops/s'.padStart(11)}  ${'median ops/s'.padStart(12)}  ${'ops/CPU s'.padStart(11)}`,
  ...rows.map(
    ([l, f]) =>
      `${l.padEnd(w0)}  ${fmt(f.ops).padStart(10)}  ${(f.wallMs / 1000).toFixed(2).padStart(7)}  ${fmt(f.opsPerSec).padStart(11)}  ${fmt(f.medianOpsPerSec).padStart(12)}  ${fmt(f.cpuOpsPerSec).padStart(11)}`,
  ),
  '',
  `the limit on this machine: a bare typed-array binary-heap event loop (${fmt(loop.pending)} pending, no work per event) runs ${fmt(loop.eventsPerSec)} events/s (CPU ${fmt(loop.cpuEventsPerSec)}/s), measured in this run`,
  `engine, aggregated telemetry: ${fmt(fig.aggregated.opsPerSec)} ops/s (CPU ${fmt(fig.aggregated.cpuOpsPerSec)}/s) = ${fmt(Math.round((fig.aggregated.opsPerSec * bigTimers) / fig.aggregated.ops))} engine events/s (${(bigTimers / fig.aggregated.ops).toFixed(2)} timers per op)`,
  `  ratio: ${(fig.aggregated.opsPerSec / loop.eventsPerSec).toFixed(3)} simulated ops per bare-loop event by wall time, ${(fig.aggregated.cpuOpsPerSec / loop.cpuEventsPerSec).toFixed(3)} by CPU time (1 op costs ${(loop.cpuEventsPerSec / fig.aggregated.cpuOpsPerSec).toFixed(1)} bare events of CPU)`,
  `engine vs fake-timers on the same slice: ${ratio.toFixed(1)}× faster with aggregated telemetry (identical summaries and event streams), ${ratioNoSinks.toFixed(1)}× with no sinks (identical final state)`,
  `the clocks alone on the slice's ${fmt(timerTrace.fired)} timers (no client/cluster work): engine ${nsPerTimer(fig.timersEngine)} ns/timer, fake-timers ${nsPerTimer(fig.timersFakeTimers)} ns/timer: ${ratioTimers.toFixed(1)}×`,
  `NDJSON output: ${(ndjsonBytes / 1e6).toFixed(0)} MB to ${os.devNull}`,
  'written: .tmp/bench-sim.json',
];
process.stdout.write(`${out.join('\n')}\n`);
