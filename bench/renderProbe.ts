/**
 * Per-publish render cost of the dashboard, isolated from the workers: the
 * built page at a light open-loop load (default 500 tx/s, so ingest is a few
 * ms per second and the machine is not saturated by our own workers), main
 * thread CPU from /proc divided by the snapshot publishes in the window.
 * Also prints the client worker's CPU per operation (at a rate that does not
 * saturate it, so the figure is comparable between builds). A quick A/B probe;
 * `npm run bench:ui` stays the benchmark.
 *
 *   npx tsx bench/renderProbe.ts [--seconds 20] [--rate 500] [--port 4194] [--scroll] [--dist DIR]
 *
 * `--scroll` scrolls to the bottom first (the other panels on screen).
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { preview } from 'vite';
import { DashboardPage } from '../e2e/pages/dashboard.page';
import { launchBrowser } from '../e2e/support/browser';
import { findRenderer, procDelta, sampleProc } from './procStats';
import { frameStats, INIT_SCRIPT, readCounters, readFrames } from './uiProbe';

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? dflt) : dflt;
};

async function main(): Promise<void> {
  const seconds = Number(arg('seconds', '20'));
  const rate = arg('rate', '500');
  const port = Number(arg('port', '4194'));
  const served = join('.tmp', 'render-probe-dist');
  rmSync(served, { recursive: true, force: true });
  cpSync(arg('dist', 'dist-e2e'), served, { recursive: true });
  const server = await preview({ build: { outDir: served }, preview: { host: '127.0.0.1', port, strictPort: true }, logLevel: 'warn' });
  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}/`;
  const { context } = await launchBrowser();
  try {
    const d = await DashboardPage.create(context);
    await d.page.addInitScript({ content: INIT_SCRIPT });
    await d.goto();
    await d.start();
    await d.setWorkload({ concurrency: '0', ratePerSec: rate, maxInFlight: '4096' });
    if (process.argv.includes('--scroll')) await d.page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await new Promise((r) => setTimeout(r, 8_000));
    const renderer = findRenderer();
    const a = await readCounters(d.page);
    const pa = sampleProc(renderer);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const b = await readCounters(d.page);
    const pb = sampleProc(renderer);
    const delta = procDelta(pa, pb);
    const main = delta.threads.find((t) => t.label === 'main');
    const publishes = b.publishes - a.publishes;
    const secs = (b.now - a.now) / 1000;
    const handlerMs = b.ports.filter((p) => p.kind === 'telemetry').reduce((s, p) => s + p.handlerMs, 0) - a.ports.filter((p) => p.kind === 'telemetry').reduce((s, p) => s + p.handlerMs, 0);
    const events = b.storeEvents - a.storeEvents;
    const frames = frameStats(await readFrames(d.page, a.frameCount, b.frameCount), 1000 / 60);
    const mainCpuMs = ((main?.cpuPct ?? NaN) / 100) * secs * 1000;
    const client = delta.threads.find((t) => t.label === 'worker:client');
    const ops = b.opsEnded - a.opsEnded;
    console.log(
      `main thread ${main?.cpuPct.toFixed(1)} % CPU (${main?.waitPct.toFixed(1)} % waiting), ${(publishes / secs).toFixed(2)} publishes/s, ${(events / secs).toFixed(0)} events/s; ` +
        `ingest ${(handlerMs / secs).toFixed(1)} ms/s; ≈ ${((mainCpuMs - handlerMs) / publishes).toFixed(1)} ms main CPU per publish besides ingest; ` +
        `client worker ${client?.cpuPct.toFixed(1)} % CPU → ${((((client?.cpuPct ?? NaN) / 100) * secs * 1e6) / Math.max(1, ops)).toFixed(1)} µs per op (${(ops / secs).toFixed(0)} ops/s); ` +
        `frames p50/p95/p99 ${frames.p50Ms.toFixed(1)}/${frames.p95Ms.toFixed(1)}/${frames.p99Ms.toFixed(1)} ms, >20 ms ${frames.over20Pct.toFixed(1)} %; machine ${delta.machineBusyPct.toFixed(0)} % busy (others ${delta.othersPct.toFixed(0)} %)`,
    );
  } finally {
    await context.close().catch(() => undefined);
    await server.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
