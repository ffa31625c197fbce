/**
 * Compare's time to both runs (navigation start → summaries, table and
 * verdict painted; `measureCompare` in bench/replayPhase.ts) for two builds
 * opened alternately at the same time — an A/B that a shared machine's load
 * moves alike. Build the other tree with `vite build --mode e2e --outDir DIR`.
 *
 *   npx tsx bench/compareAB.ts DIR_A DIR_B [--reps 4] [--port 4305]
 */
import { loadavg } from 'node:os';
import { preview } from 'vite';
import { launchBrowser } from '../e2e/support/browser';
import { measureCompare } from './replayPhase';

const args = process.argv.slice(2);
const flag = (name: string, dflt: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const dirs = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (dirs.length !== 2) throw new Error('usage: npx tsx bench/compareAB.ts DIR_A DIR_B [--reps 4] [--port 4305]');
const reps = flag('reps', 4);
const port = flag('port', 4305);

async function main(): Promise<void> {
  const servers = await Promise.all(dirs.map((d, i) => preview({ build: { outDir: d }, preview: { host: '127.0.0.1', port: port + i, strictPort: true }, logLevel: 'warn' })));
  const { context } = await launchBrowser();
  const ms: Record<string, number[]>[] = dirs.map(() => ({}));
  try {
    for (let r = 0; r < reps; r++)
      for (const [i, d] of dirs.entries()) {
        for (const f of await measureCompare(context, `http://127.0.0.1:${port + i}/`, 1, () => {})) (ms[i]![f.preset] ??= []).push(Math.round(f.opens[0]?.bothRunsMs ?? NaN));
        console.log(`rep ${r + 1} ${d}: ${JSON.stringify(ms[i])}`);
      }
  } finally {
    await context.close();
    for (const s of servers) s.httpServer.close();
  }
  for (const [i, d] of dirs.entries()) console.log(`${d}: ${Object.entries(ms[i] ?? {}).map(([p, xs]) => `${p} ${xs.join(' / ')} ms`).join(' · ')}`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(', ')}`);
}
void main();
