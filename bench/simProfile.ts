/**
 * `npx esbuild bench/simProfile.ts --bundle --platform=node --format=cjs --outfile=.tmp/sim.profile.cjs && node --cpu-prof --cpu-prof-dir=.tmp/prof .tmp/sim.profile.cjs [aggregated|noSinks] [seconds]`
 *
 * One run of the benchmark's scenario (the `failover` preset with 256
 * closed-loop users on top, as `npm run bench`), for a CPU profile or an
 * instruction count (`valgrind --tool=callgrind node .tmp/sim.profile.cjs`).
 * Prints the operations, the wall and CPU time and the summary's digest
 * (so two builds can be checked to agree).
 */
import { performance } from 'node:perf_hooks';
import { SimEngine } from '../src/core/sim/engine';
import { findPreset } from '../src/core/sim/presets';
import { runScenario } from '../src/core/sim/runScenario';
import { loadScenario, type ScenarioInput } from '../src/core/sim/scenario';

const mode = process.argv[2] ?? 'aggregated';
const seconds = Number(process.argv[3] ?? '20');
const input = findPreset('failover')?.input as ScenarioInput;
const scenario = loadScenario(
  { ...input, durationMs: seconds * 1000, workload: { ...input.workload, concurrency: 256 }, faults: (input.faults ?? []).filter((f) => f.atMs <= seconds * 1000) },
  'profile',
);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let ops: number;
let digest = 0x811c9dc5;
if (mode === 'noSinks') {
  const engine = new SimEngine(scenario);
  engine.run();
  ops = engine.workload.stats.transactions;
} else {
  const summary = runScenario(scenario).summary;
  ops = summary.ops.total;
  const text = JSON.stringify(summary);
  for (let i = 0; i < text.length; i++) digest = Math.imul(digest ^ text.charCodeAt(i), 0x01000193);
}
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
process.stdout.write(
  `${mode}: ${ops} ops in ${(wall / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU: ${Math.round((ops / wall) * 1000)} ops/s wall, ${Math.round(ops / ((cpu.user + cpu.system) / 1e6))} ops/s CPU; summary digest ${(digest >>> 0).toString(16)}\n`,
);
