/**
 * Where Compare's time goes, per side, in CPU ms of this process (Node, no
 * browser): the engine alone, the summary run (engine + aggregator +
 * checker), the summary run with the events collected into columnar batches
 * (what workers/compare.worker.ts does — one run per side), the path before
 * it (a replay session's run streamed through a batcher, then a second run
 * for the summary), and folding the events into a timeline feed (main
 * thread). `npx tsx bench/compareProbe.ts [preset] [--reps N]`.
 */
import { findPreset } from '../src/core/sim/presets';
import { runScenario } from '../src/core/sim/runScenario';
import { SimEngine } from '../src/core/sim/engine';
import { loadScenario, type Scenario } from '../src/core/sim/scenario';
import { EventBatchBuilder, type EventBatch } from '../src/core/telemetry/eventCodec';
import { TimelineFeed } from '../src/ui/timeline/timelineFeed';

const args = process.argv.slice(2);
const id = args.find((a) => !a.startsWith('--')) ?? 'failover';
const repsAt = args.indexOf('--reps');
const reps = repsAt >= 0 ? Number(args[repsAt + 1]) : 3;
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const best = (f: () => void): number => {
  let b = Infinity;
  for (let i = 0; i < reps; i++) {
    const t = cpu();
    f();
    b = Math.min(b, cpu() - t);
  }
  return Math.round(b);
};

function collect(sc: Scenario): EventBatch[] {
  const out: EventBatch[] = [];
  const b = new EventBatchBuilder(1 << 15);
  runScenario(sc, { sinks: [{ emit: (e) => (b.push(e), b.length >= 1 << 15 && out.push(b.take())) }] });
  if (b.length > 0) out.push(b.take());
  return out;
}

const base = loadScenario(findPreset(id)?.input, id);
for (const storm of [false, true]) {
  const sc: Scenario = { ...base, client: { ...base.client, bugs: { ...base.client.bugs, deadlineReplacesAttempts: storm } } };
  const batches = collect(sc);
  const events = batches.reduce((n, b) => n + b.n, 0);
  const row = {
    side: storm ? 'B storm on' : 'A storm off',
    events,
    engineOnlyMs: best(() => new SimEngine(sc, { sinks: [] }).run()),
    summaryRunMs: best(() => runScenario(sc)),
    summaryPlusBatchesMs: best(() => collect(sc)),
    before_streamedRunPlusSecondRunMs: best(() => {
      const b = new EventBatchBuilder(4096);
      new SimEngine(sc, { sinks: [{ emit: (e) => (b.push(e), b.length >= 4096 && b.take()) }] }).run();
      runScenario(sc);
    }),
    timelineFoldMs: best(() => {
      const f = new TimelineFeed();
      for (const b of batches) f.ingestBatch(b);
    }),
  };
  console.log(JSON.stringify(row));
}
