/**
 * UI benchmark of the live playground: the production build in Debian's
 * Chromium, the real pipeline (node, client and control-plane workers →
 * columnar batches → the Zustand store → panels) driven through the page's own
 * controls, measured from outside.
 *
 *   npm run bench:ui [-- --minutes N] [--warmup S] [--users N | --rate R [--max-in-flight M]]
 *                    [--no-ramp] [--ramp 2500,5000,…] [--step S] [--churn S | --no-churn | --churn-only]
 *                    [--profile S] [--port 4181] [--build | --no-build]
 *   npm run bench:ui -- --phase replay [--replay-minutes 10] [--seeks 60] [--compare-reps 5] [--compare-only]   (bench/replayPhase.ts)
 *
 * Phases: idle page (baseline frames, heap at start) → Start → the churn
 * sequence on the default workload (`churnPhase`: steady, Failover, Scale
 * out, Failback, storm toggle on, Failover; --churn S seconds each, frame
 * p50/p95/max, share over 20 ms and main-thread CPU per chart publish per
 * step; `--churn-only` stops after it) → a ramp of
 * open-loop rates (10 s each) to find where the pipeline saturates and which
 * thread limits it → warm-up: the "firehose" workload (closed loop, zero think
 * time: as many operations as the workers can carry) for --warmup seconds
 * (default 60, so the 60 s chart window and every ring are full) → the
 * measured window, same workload, N minutes (default 3; the heap is read after
 * a forced GC every 20 s, and "flat" is judged on the least-squares trend of
 * those readings) → a 10 s main-thread CPU profile. Prints a table with the targets and writes
 * .tmp/bench-ui.json.
 *
 * Figures: events/s delivered into the store (the store's own counter), frame
 * interval p50/p95 and dropped frames (requestAnimationFrame timestamps),
 * main-thread busy share (CDP Performance.getMetrics TaskDuration: the
 * renderer main thread's task time over wall time; long tasks reported beside
 * it), JS heap of the page (CDP Runtime.getHeapUsage after a forced GC) at
 * start, after warm-up and through the window, the gzip size of the JS loaded
 * at startup, and CPU / run-queue wait per thread from /proc (Linux).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import type { CDPSession } from 'playwright-core';
import { build, preview } from 'vite';
import { findPreset } from '../src/core/sim/presets';
import { loadScenario } from '../src/core/sim/scenario';
import { DashboardPage, type WorkloadFormInput } from '../e2e/pages/dashboard.page';
import { launchBrowser } from '../e2e/support/browser';
import { profileMainThread, type ProfileSummary } from './cpuProfile';
import { findRenderer, procAvailable, procDelta, sampleProc, type ProcDelta, type ProcSample } from './procStats';
import { frameStats, INIT_SCRIPT, readCounters, readFrames, type FrameStats, type PageCounters } from './uiProbe';
import { compareOnlyTable, replayTable, runReplayPhase } from './replayPhase';

// ── arguments ──────────────────────────────────────────────────────────────

interface Args {
  readonly minutes: number;
  readonly warmupSec: number;
  readonly ramp: readonly number[];
  readonly stepSec: number;
  readonly users: number;
  readonly rate: number;
  readonly maxInFlight: number;
  readonly port: number;
  readonly build: 'auto' | 'always' | 'never';
  readonly out: string;
  /** seconds of main-thread CPU profile after the window (0 = none) */
  readonly profileSec: number;
  /** seconds measured in each step of the churn sequence (0 = no churn phase) */
  readonly churnSec: number;
  /** only the idle page and the churn sequence (no ramp, no firehose window) */
  readonly churnOnly: boolean;
  /** 'live' (the playground phases) or 'replay' (bench/replayPhase.ts) */
  readonly phase: 'live' | 'replay';
  readonly replayMinutes: number;
  readonly seeks: number;
  readonly seekGapMs: number;
  readonly compareReps: number;
  readonly compareOnly: boolean;
}

/** the open-loop rate of the default live workload (the page opens with preset steady) */
const DEFAULT_RATE = ((): number => {
  const steady = findPreset('steady');
  return steady === undefined ? NaN : loadScenario(steady.input, 'preset steady').workload.ratePerSec;
})();

const TARGETS = { eventsPerSec: 50_000, p95FrameMs: 20, initialJsKb: 300, heapGrowthMb: 2, heapGrowthPct: 5 };

function parseArgs(argv: readonly string[]): Args {
  const a = {
    minutes: 3,
    warmupSec: 60,
    ramp: [2_500, DEFAULT_RATE, 10_000, 20_000, 40_000] as readonly number[],
    stepSec: 10,
    users: 1_000,
    rate: 0,
    maxInFlight: 4_096,
    port: 4181,
    build: 'auto' as Args['build'],
    out: join('.tmp', 'bench-ui.json'),
    profileSec: 10,
    churnSec: 10,
    churnOnly: false,
    phase: 'live' as Args['phase'],
    replayMinutes: 10,
    seeks: 60,
    seekGapMs: 1500,
    compareReps: 5,
    compareOnly: false,
  };
  const num = (flag: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min) throw new Error(`${flag} needs a number ≥ ${min} (got ${v ?? 'nothing'})`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i];
    const v = argv[i + 1];
    switch (f) {
      case '--minutes': a.minutes = num(f, v, 0.1); i++; break;
      case '--warmup': a.warmupSec = num(f, v, 5); i++; break;
      case '--users': a.users = num(f, v, 1); a.rate = 0; i++; break;
      case '--rate': a.rate = num(f, v, 1); i++; break;
      case '--max-in-flight': a.maxInFlight = num(f, v, 1); i++; break;
      case '--step': a.stepSec = num(f, v, 3); i++; break;
      case '--ramp': a.ramp = (v ?? '').split(',').map((x) => num(f, x, 1)); i++; break;
      case '--no-ramp': a.ramp = []; break;
      case '--profile': a.profileSec = num(f, v, 0); i++; break;
      case '--port': a.port = num(f, v, 1); i++; break;
      case '--churn': a.churnSec = num(f, v, 0); i++; break;
      case '--no-churn': a.churnSec = 0; break;
      case '--churn-only': a.churnOnly = true; break;
      case '--build': a.build = 'always'; break;
      case '--no-build': a.build = 'never'; break;
      case '--phase': if (v !== 'live' && v !== 'replay') throw new Error('--phase: live or replay'); a.phase = v; if (a.out === join('.tmp', 'bench-ui.json') && v === 'replay') a.out = join('.tmp', 'bench-ui-replay.json'); i++; break;
      case '--replay-minutes': a.replayMinutes = num(f, v, 0.1); i++; break;
      case '--seeks': a.seeks = num(f, v, 2); i++; break;
      case '--seek-gap-ms': a.seekGapMs = num(f, v, 0); i++; break;
      case '--compare-reps': a.compareReps = num(f, v, 1); i++; break;
      case '--compare-only': a.compareOnly = true; break;
      case '--out': if (v === undefined) throw new Error('--out needs a path'); a.out = v; i++; break;
      case '--help':
        console.log('npm run bench:ui [-- --minutes N] [--warmup S] [--users N | --rate R [--max-in-flight M]] [--no-ramp] [--ramp 2500,5000,…] [--step S] [--churn S | --no-churn | --churn-only] [--profile S] [--port 4181] [--build | --no-build] [--out FILE]\n  npm run bench:ui -- --phase replay [--replay-minutes 10] [--seeks 60] [--seek-gap-ms 1500] [--compare-reps 5] [--compare-only]');
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${f} (try --help)`);
    }
  }
  return a;
}

// ── build and sizes ────────────────────────────────────────────────────────

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const e of readdirSync(path)) if (e !== 'node_modules') m = Math.max(m, newestMtime(join(path, e)));
  return m;
}

async function ensureBuild(mode: Args['build']): Promise<string> {
  if (mode === 'never') return 'skipped (--no-build)';
  const built = existsSync('dist-e2e/index.html') ? statSync('dist-e2e/index.html').mtimeMs : 0;
  const sources = Math.max(...['src', 'workers', 'public', 'index.html', 'vite.config.ts', 'package.json'].map(newestMtime));
  if (mode === 'auto' && built > sources) return 'dist-e2e is up to date';
  console.log(mode === 'always' ? '[bench:ui] building (--build)…' : '[bench:ui] dist-e2e is missing or older than the sources: building…');
  // the test build: the production build plus the window.__zarisLab hook the probes read (vite.config.ts)
  await build({ logLevel: 'warn', mode: 'e2e' });
  return 'built';
}

interface JsFile {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** the served copy of dist-e2e/ (a concurrent `vite build` must not swap files under a running page) */
const SERVED = join('.tmp', 'bench-ui-dist');

const gz = (file: string): JsFile => {
  const buf = readFileSync(join(SERVED, file));
  return { file, bytes: buf.length, gzipBytes: gzipSync(buf, { level: 9 }).length };
};

// ── readings ───────────────────────────────────────────────────────────────

interface CdpMetrics {
  readonly timestamp: number;
  readonly taskDuration: number;
  readonly scriptDuration: number;
  readonly layoutDuration: number;
  readonly recalcStyleDuration: number;
  readonly heapUsed: number;
}

async function cdpMetrics(cdp: CDPSession): Promise<CdpMetrics> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? NaN;
  return {
    timestamp: m('Timestamp'),
    taskDuration: m('TaskDuration'),
    scriptDuration: m('ScriptDuration'),
    layoutDuration: m('LayoutDuration'),
    recalcStyleDuration: m('RecalcStyleDuration'),
    heapUsed: m('JSHeapUsedSize'),
  };
}

interface HeapReading {
  readonly atSec: number;
  readonly label: string;
  /** used JS heap of the page after a forced GC, bytes */
  readonly usedAfterGc: number;
  readonly totalAfterGc: number;
  /** renderer process RSS (page + workers), bytes */
  readonly rendererRss: number;
}

interface Snapshot {
  readonly wallMs: number;
  readonly page: PageCounters;
  readonly cdp: CdpMetrics;
  readonly proc: ProcSample | null;
}

/** what happened between two snapshots */
interface Interval {
  readonly seconds: number;
  readonly eventsPerSec: number;
  readonly opsPerSec: number;
  readonly inFlightEnd: number;
  /** CDP TaskDuration / wall: main-thread busy share, % */
  readonly mainBusyPct: number;
  readonly mainScriptPct: number;
  readonly mainLayoutStylePct: number;
  /** CPU time of the renderer main thread (/proc) over wall, % of one core */
  readonly mainCpuPct: number;
  /** long tasks (> 50 ms) total / wall, % */
  readonly longTaskPct: number;
  readonly longTasks: number;
  /** ms per second spent in the telemetry port handlers (listener → store ingest → subscribers) */
  readonly ingestMsPerSec: number;
  /** µs of handler time per event */
  readonly ingestUsPerEvent: number;
  /** ms per second in React's scheduler tasks (render + commit), from its MessageChannel handler */
  readonly reactMsPerSec: number;
  /** telemetry batches per second and mean events per batch, from the client worker's port */
  readonly clientBatchesPerSec: number;
  readonly clientEventsPerBatch: number;
  /** client batches per second that arrived > 50 ms after the previous one (its 16 ms flush timer ran late) */
  readonly clientGapsOver50PerSec: number;
  /** largest client batch so far, events */
  readonly clientMaxBatch: number;
  /** snapshot publishes per second (each one redraws the visible panels) */
  readonly publishesPerSec: number;
  /** main-thread CPU per publish besides telemetry ingest (rendering, charts, GC), ms */
  readonly renderCpuMsPerPublish: number;
  readonly proc: ProcDelta | null;
  /** frame intervals in the interval */
  frames?: FrameStats;
}

async function snapshot(d: DashboardPage, cdp: CDPSession, renderer: number | null): Promise<Snapshot> {
  const proc = renderer !== null ? sampleProc(renderer) : null;
  const [page, cdpM] = await Promise.all([readCounters(d.page), cdpMetrics(cdp)]);
  return { wallMs: Date.now(), page, cdp: cdpM, proc };
}

function interval(a: Snapshot, b: Snapshot): Interval {
  const seconds = (b.page.now - a.page.now) / 1000;
  const cdpSec = b.cdp.timestamp - a.cdp.timestamp;
  const ports = b.page.ports.map((p, i) => {
    const q = a.page.ports[i];
    return {
      kind: p.kind,
      handlerMs: p.handlerMs - (q?.handlerMs ?? 0),
      batches: p.batches - (q?.batches ?? 0),
      events: p.events - (q?.events ?? 0),
      gapsOver50: p.gapsOver50 - (q?.gapsOver50 ?? 0),
      maxBatch: p.maxBatch,
    };
  });
  const telemetry = ports.filter((p) => p.kind === 'telemetry');
  const handlerMs = telemetry.reduce((s, p) => s + p.handlerMs, 0);
  const reactMs = ports.filter((p) => p.kind === 'other').reduce((s, p) => s + p.handlerMs, 0);
  const events = b.page.storeEvents - a.page.storeEvents;
  // the client's port carries almost all events; the control plane's a few
  const client = telemetry.reduce<(typeof telemetry)[number] | null>((best, p) => (best === null || p.events > best.events ? p : best), null);
  const proc = a.proc !== null && b.proc !== null ? procDelta(a.proc, b.proc) : null;
  return {
    seconds,
    eventsPerSec: events / seconds,
    opsPerSec: (b.page.opsEnded - a.page.opsEnded) / seconds,
    inFlightEnd: b.page.inFlight,
    mainBusyPct: (100 * (b.cdp.taskDuration - a.cdp.taskDuration)) / cdpSec,
    mainScriptPct: (100 * (b.cdp.scriptDuration - a.cdp.scriptDuration)) / cdpSec,
    mainLayoutStylePct: (100 * (b.cdp.layoutDuration - a.cdp.layoutDuration + b.cdp.recalcStyleDuration - a.cdp.recalcStyleDuration)) / cdpSec,
    mainCpuPct: proc?.threads.find((t) => t.label === 'main')?.cpuPct ?? NaN,
    longTaskPct: (100 * (b.page.longTaskMs - a.page.longTaskMs)) / (seconds * 1000),
    longTasks: b.page.longTasks - a.page.longTasks,
    ingestMsPerSec: handlerMs / seconds,
    ingestUsPerEvent: events > 0 ? (1000 * handlerMs) / events : NaN,
    reactMsPerSec: reactMs / seconds,
    clientBatchesPerSec: (client?.batches ?? 0) / seconds,
    clientEventsPerBatch: client !== null && client.batches > 0 ? client.events / client.batches : NaN,
    clientGapsOver50PerSec: (client?.gapsOver50 ?? 0) / seconds,
    clientMaxBatch: client?.maxBatch ?? 0,
    publishesPerSec: (b.page.publishes - a.page.publishes) / seconds,
    renderCpuMsPerPublish: NaN,
    proc,
  };
}

/** adds the per-publish render cost (needs the ingest CPU estimate) */
function withRenderCost(iv: Interval): Interval {
  const mainCpuMsPerSec = iv.mainCpuPct * 10;
  const ingestCpuMsPerSec = (ingestCpuUsPerEvent(iv) * iv.eventsPerSec) / 1000;
  return { ...iv, renderCpuMsPerPublish: iv.publishesPerSec > 0 ? (mainCpuMsPerSec - ingestCpuMsPerSec) / iv.publishesPerSec : NaN };
}

async function heapAfterGc(cdp: CDPSession, label: string, t0: number, renderer: number | null): Promise<HeapReading> {
  await cdp.send('HeapProfiler.collectGarbage');
  const h = await cdp.send('Runtime.getHeapUsage');
  return { atSec: (Date.now() - t0) / 1000, label, usedAfterGc: h.usedSize, totalAfterGc: h.totalSize, rendererRss: renderer !== null ? sampleProc(renderer).rendererRss : 0 };
}

/** a post-GC heap reading this often in the window */
const HEAP_EVERY_MS = 20_000;

/** least-squares slope of y over x */
function trendPerSec(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p[0], 0) / n;
  const my = points.reduce((a, p) => a + p[1], 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den > 0 ? num / den : 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ── formatting ─────────────────────────────────────────────────────────────

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '—');
const mb = (b: number) => `${fmt(b / 1024 / 1024, 1)} MB`;
const kb = (b: number) => `${fmt(b / 1024, 1)} KB`;

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r, i) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ') + (i === 0 ? `\n${widths.map((w) => '─'.repeat(w)).join('  ')}` : '')).join('\n');
}

function thread(p: ProcDelta | null, label: string): { cpuPct: number; waitPct: number } {
  const t = p?.threads.find((x) => x.label === label);
  return { cpuPct: t?.cpuPct ?? NaN, waitPct: t?.waitPct ?? NaN };
}

function nodes(p: ProcDelta | null): { cpuPct: number; waitPct: number } {
  const ns = p?.threads.filter((x) => x.label.startsWith('worker:node-')) ?? [];
  if (ns.length === 0) return { cpuPct: NaN, waitPct: NaN };
  const top = ns.reduce((a, b) => (b.cpuPct > a.cpuPct ? b : a));
  return { cpuPct: top.cpuPct, waitPct: top.waitPct };
}

const cw = (t: { cpuPct: number; waitPct: number }) => `${fmt(t.cpuPct)}/${fmt(t.waitPct)}`;

/** telemetry-handler CPU per event: handler wall time scaled by the main thread's CPU / task-wall ratio */
function ingestCpuUsPerEvent(iv: Interval): number {
  const ratio = Number.isFinite(iv.mainCpuPct) && iv.mainBusyPct > 0 ? Math.min(1, iv.mainCpuPct / iv.mainBusyPct) : 1;
  return iv.ingestUsPerEvent * ratio;
}

/** where the pipeline is limited, from per-thread CPU and run-queue wait */
function diagnose(iv: Interval): { summary: string; details: string[] } {
  const p = iv.proc;
  const details: string[] = [];
  const main = thread(p, 'main');
  const client = thread(p, 'worker:client');
  const node = nodes(p);
  const perOpClientUs = (client.cpuPct / 100) * 1e6 / Math.max(1, iv.opsPerSec);
  const perEventMainUs = (main.cpuPct / 100) * 1e6 / Math.max(1, iv.eventsPerSec);
  const eventsPerOp = iv.eventsPerSec / Math.max(1, iv.opsPerSec);
  // handler timers are wall time; scale by the main thread's CPU / task-wall ratio to estimate CPU
  const ingestCpuUs = ingestCpuUsPerEvent(iv);
  details.push(`events per operation: ${fmt(eventsPerOp, 2)}`);
  details.push(`client worker: ${fmt(client.cpuPct)} % of a core on CPU, ${fmt(client.waitPct)} % waiting for a core → ${fmt(perOpClientUs, 1)} µs CPU per operation; alone on a full core ≈ ${fmt(1e6 / perOpClientUs)} ops/s ≈ ${fmt((1e6 / perOpClientUs) * eventsPerOp)} events/s`);
  if (Number.isFinite(iv.renderCpuMsPerPublish)) {
    const ingestShare = (100 * ((ingestCpuUs * iv.eventsPerSec) / 1000)) / Math.max(1e-9, main.cpuPct * 10);
    details.push(
      `UI side: ${fmt(iv.publishesPerSec, 1)} snapshot publishes/s, ≈ ${fmt(iv.renderCpuMsPerPublish)} ms of main-thread CPU per publish besides ingest (panel redraws, GC); telemetry ingest is ≈ ${fmt(ingestShare)} % of the main thread's CPU`,
    );
  }
  details.push(`busiest node worker: ${fmt(node.cpuPct)} % on CPU, ${fmt(node.waitPct)} % waiting`);
  details.push(
    `main thread: ${fmt(main.cpuPct)} % on CPU, ${fmt(main.waitPct)} % waiting; ${fmt(perEventMainUs, 1)} µs CPU per event all in (rendering included); ` +
      `telemetry ingest ≈ ${fmt(ingestCpuUs, 1)} µs CPU per event (${fmt(iv.ingestUsPerEvent, 1)} µs wall) → ingest alone on a full core ≈ ${fmt(1e6 / ingestCpuUs)} events/s`,
  );
  if (p !== null) details.push(`machine: ${fmt(p.machineBusyPct)} % of ${p.cores} cores busy — this benchmark's browser + server ${fmt(p.oursPct)} %, other processes ${fmt(p.othersPct)} %`);
  details.push(
    `client telemetry: ${fmt(iv.clientBatchesPerSec, 1)} batches/s of ${fmt(iv.clientEventsPerBatch)} events on average (largest ${fmt(iv.clientMaxBatch)}); ${fmt(iv.clientGapsOver50PerSec, 1)}/s arrived > 50 ms after the previous one (the flush timer is 16 ms: ≈ 62 batches/s when the client worker keeps up)`,
  );
  details.push(`main thread wall-time split (CDP / handler timers, preemption included): tasks ${fmt(iv.mainBusyPct)} % of wall, script ${fmt(iv.mainScriptPct)} %, telemetry handlers ${fmt(iv.ingestMsPerSec / 10)} %, React scheduler tasks ${fmt(iv.reactMsPerSec / 10)} %`);
  const demand = (t: { cpuPct: number; waitPct: number }) => t.cpuPct + t.waitPct;
  const candidates: [string, number][] = [
    ['client worker', demand(client)],
    ['main thread', demand(main)],
    ['a node worker', demand(node)],
  ];
  candidates.sort((a, b) => b[1] - a[1]);
  const [top, topDemand] = candidates[0] as [string, number];
  let summary: string;
  if (p === null) summary = 'no /proc: per-thread figures unavailable';
  else if (p.machineBusyPct >= 90)
    summary = `CPU-bound: the ${p.cores} cores are ${fmt(p.machineBusyPct)} % busy (other processes ${fmt(p.othersPct)} %); the thread that wants the most CPU is the ${top} (on CPU + waiting for a core = ${fmt(topDemand)} % of a core)`;
  else if (topDemand >= 90) summary = `the ${top} is saturated (on CPU + waiting = ${fmt(topDemand)} % of a core)`;
  else summary = `no thread saturated (highest demand: ${top}, ${fmt(topDemand)} % of a core)`;
  return { summary, details };
}

// ── the churn sequence (default workload) ─────────────────────────────────

/** one step of the churn sequence, measured after its action */
interface ChurnStep extends Interval {
  readonly step: string;
  readonly frames: FrameStats;
  /** redraw jobs (one panel each, `updateQueue`) in the step: count, wall ms per publish, longest */
  readonly redraws: number;
  readonly redrawMsPerPublish: number;
  readonly redrawMaxMs: number;
  readonly redrawsOver16: number;
}

interface RedrawCounters {
  readonly count: number;
  readonly totalMs: number;
  readonly maxMs: number;
  readonly over16: number;
  readonly byPanel?: Readonly<Record<string, { readonly count: number; readonly totalMs: number; readonly maxMs: number }>>;
}

/** redraw cost per panel since page load (the churn sequence's whole run) */
let churnByPanel: RedrawCounters['byPanel'] = {};

const readRedraws = (d: DashboardPage): Promise<RedrawCounters> =>
  d.page.evaluate('window.__zarisLab.redraws ? window.__zarisLab.redraws() : { count: 0, totalMs: 0, maxMs: 0, over16: 0 }') as Promise<RedrawCounters>;

/**
 * Start → Failover → Scale out → Failback → storm toggle on → Failover on the page's default
 * workload (the issue's sequence), each step measured for `seconds` right after its action
 * (the fault's effect — parked operations, the storm's pile-up — is inside the measurement).
 */
async function churnPhase(d: DashboardPage, cdp: CDPSession, renderer: number | null, vsyncMs: number, seconds: number, log: (m: string) => void): Promise<ChurnStep[]> {
  const steps: [string, () => Promise<unknown>][] = [
    ['steady (after Start)', async () => undefined],
    ['Failover n1', () => d.failover(1)],
    ['Scale out', () => d.scaleOut()],
    ['Failback n1', () => d.failback(1)],
    ['storm toggle on', () => d.toggleBug('deadlineReplacesAttempts', true)],
    ['storm: Failover n1', () => d.failover(1)],
  ];
  const out: ChurnStep[] = [];
  for (const [step, act] of steps) {
    await act();
    const a = await snapshot(d, cdp, renderer);
    const ra = await readRedraws(d);
    await sleep(seconds * 1000);
    const b = await snapshot(d, cdp, renderer);
    const rb = await readRedraws(d);
    const iv = withRenderCost(interval(a, b));
    const publishes = b.page.publishes - a.page.publishes;
    const frames = frameStats(await readFrames(d.page, a.page.frameCount, b.page.frameCount), vsyncMs);
    const s: ChurnStep = {
      ...iv,
      step,
      frames,
      redraws: rb.count - ra.count,
      redrawMsPerPublish: publishes > 0 ? (rb.totalMs - ra.totalMs) / publishes : NaN,
      redrawMaxMs: rb.maxMs,
      redrawsOver16: rb.over16 - ra.over16,
    };
    out.push(s);
    churnByPanel = rb.byPanel ?? {};
    log(`churn ${step}: frame p50/p95/max ${fmt(frames.p50Ms, 1)}/${fmt(frames.p95Ms, 1)}/${fmt(frames.maxMs)} ms, ${fmt(frames.over20Pct, 1)} % > 20 ms; ≈ ${fmt(iv.renderCpuMsPerPublish, 1)} ms main CPU per publish; ${fmt(iv.opsPerSec)} ops/s`);
  }
  return out;
}

function printChurn(steps: readonly ChurnStep[], seconds: number): void {
  console.log('');
  console.log(`Churn sequence on the default workload (${seconds} s per step, measured right after the action); budget: frame p95 ≤ ${TARGETS.p95FrameMs} ms and no frame over 100 ms`);
  console.log(
    table([
      ['step', 'ops/s', 'frame p50/p95/max ms', '> 20 ms', 'main CPU/publish', 'redraw ms/publish', 'longest redraw', 'long tasks', 'main CPU/wait', 'machine busy (others)', 'budget'],
      ...steps.map((s) => [
        s.step,
        fmt(s.opsPerSec),
        `${fmt(s.frames.p50Ms, 1)}/${fmt(s.frames.p95Ms, 1)}/${fmt(s.frames.maxMs)}`,
        `${fmt(s.frames.over20Pct, 1)} %`,
        `${fmt(s.renderCpuMsPerPublish, 1)} ms`,
        `${fmt(s.redrawMsPerPublish, 1)} ms`,
        `${fmt(s.redrawMaxMs, 1)} ms`,
        fmt(s.longTasks),
        cw(thread(s.proc, 'main')),
        s.proc ? `${fmt(s.proc.machineBusyPct)} % (${fmt(s.proc.othersPct)} %)` : '—',
        s.frames.p95Ms <= TARGETS.p95FrameMs && s.frames.maxMs <= 100 ? 'met' : 'NOT met',
      ]),
    ]),
  );
  console.log('  main CPU/publish: main-thread CPU (/proc) minus telemetry ingest, per snapshot publish; redraw ms/publish: wall time inside the panel redraw jobs per publish; longest redraw: since page load');
  const panels = Object.entries(churnByPanel ?? {}).sort((a, b) => b[1].totalMs - a[1].totalMs);
  console.log(`  redraw per panel over the sequence (mean / longest ms, count): ${panels.map(([k, v]) => `${k} ${fmt(v.totalMs / Math.max(1, v.count), 1)} / ${fmt(v.maxMs, 1)} (${v.count})`).join(' · ')}`);
}

// ── main ───────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  const buildState = await ensureBuild(args.build);
  rmSync(SERVED, { recursive: true, force: true });
  cpSync('dist-e2e', SERVED, { recursive: true });
  const server = await preview({ build: { outDir: SERVED }, preview: { host: '127.0.0.1', port: args.port, strictPort: true }, logLevel: 'warn' });
  const base = `http://127.0.0.1:${args.port}/`;
  process.env.E2E_BASE_URL = base;
  const { context } = await launchBrowser();
  const log = (m: string) => console.log(`[bench:ui ${fmt((Date.now() - t0) / 1000)} s] ${m}`);
  try {
    if (args.phase === 'replay') {
      const r = await runReplayPhase({ context, base, minutes: args.replayMinutes, seeks: args.seeks, seekGapMs: args.seekGapMs, compareReps: args.compareReps, compareOnly: args.compareOnly, out: args.out, log });
      mkdirSync('.tmp', { recursive: true });
      writeFileSync(args.out, JSON.stringify({ when: new Date().toISOString(), command: process.argv.slice(2).join(' '), loadAverage: loadavg(), ...r }, null, 2));
      console.log(table(args.compareOnly ? compareOnlyTable(r) : replayTable(r)));
      log(`load average ${loadavg().map((x) => x.toFixed(2)).join(', ')} (1 / 5 / 15 min)`);
      log(`wrote ${args.out}`);
      return;
    }
    const d = await DashboardPage.create(context);
    const startupJs: string[] = [];
    let startupOver = false;
    d.page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (!startupOver && path.endsWith('.js')) startupJs.push(path.replace(/^\//, ''));
    });
    await d.page.addInitScript({ content: INIT_SCRIPT });
    log(`dist: ${buildState}; serving a copy (${SERVED}) on ${base}; opening the dashboard`);
    await d.goto();
    const cdp = await context.newCDPSession(d.page);
    await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
    const browserVersion = (await cdp.send('Browser.getVersion')).product;
    const renderer = procAvailable() ? findRenderer() : null;
    if (renderer === null) log('no renderer process found in /proc: per-thread CPU is not reported');

    // ── idle page ──
    await sleep(2_000);
    startupOver = true;
    const heaps: HeapReading[] = [await heapAfterGc(cdp, 'start (idle page, before Start)', t0, renderer)];
    const idleA = await snapshot(d, cdp, renderer);
    await sleep(5_000);
    const idleB = await snapshot(d, cdp, renderer);
    const idleFrames = await readFrames(d.page, idleA.page.frameCount, idleB.page.frameCount);
    const idleIv = [...idleFrames.keys()].slice(1).map((i) => (idleFrames[i] as number) - (idleFrames[i - 1] as number)).sort((a, b) => a - b);
    const measuredVsync = idleIv[Math.floor(idleIv.length / 2)] ?? 1000 / 60;
    const vsyncMs = measuredVsync > 12 && measuredVsync < 40 ? measuredVsync : 1000 / 60;
    const idle = { frames: frameStats(idleFrames, vsyncMs), interval: interval(idleA, idleB) };
    log(`idle: frame p50 ${fmt(idle.frames.p50Ms, 1)} ms, main thread busy ${fmt(idle.interval.mainBusyPct, 1)} %`);

    // ── start; warm-up: a ramp of offered open-loop rates (unless --no-ramp), then --warmup seconds of the measured workload ──
    await d.start();
    const churn = args.churnSec > 0 ? await churnPhase(d, cdp, renderer, vsyncMs, args.churnSec, log) : [];
    if (args.churnOnly) {
      printChurn(churn, args.churnSec);
      mkdirSync(join(args.out, '..'), { recursive: true });
      writeFileSync(args.out, `${JSON.stringify({ when: new Date().toISOString(), args, build: buildState, browser: browserVersion, idle, churn, churnByPanel, problems: [...d.problems] }, null, 2)}\n`);
      log(`wrote ${args.out}`);
      return;
    }
    if (churn.length > 0) await d.toggleBug('deadlineReplacesAttempts', false);
    const warmStart = Date.now();
    const applyWorkload = async (w: WorkloadFormInput, check: (s: Awaited<ReturnType<DashboardPage['storeState']>>) => boolean, what: string) => {
      await d.setWorkload(w);
      await d.waitForStore((s) => (s.formErrors.workload.length === 0 && check(s)) || s.formErrors.workload.length > 0, 60_000, `the workload ${what} to be applied`);
      const s = await d.storeState();
      if (s.formErrors.workload.length > 0) throw new Error(`the Workload form refused ${what}: ${JSON.stringify(s.formErrors.workload)}`);
    };
    const ramp: (Interval & { offered: number; diagnosis: string })[] = [];
    for (const rate of args.ramp) {
      await applyWorkload({ concurrency: '0', ratePerSec: String(rate), maxInFlight: String(args.maxInFlight) }, (s) => s.workload.ratePerSec === rate && s.workload.concurrency === 0, `open loop ${rate}/s`);
      await sleep(2_000);
      const a = await snapshot(d, cdp, renderer);
      await sleep(args.stepSec * 1000);
      const b = await snapshot(d, cdp, renderer);
      const iv = { ...withRenderCost(interval(a, b)), frames: frameStats(await readFrames(d.page, a.page.frameCount, b.page.frameCount), vsyncMs) };
      const diag = diagnose(iv);
      ramp.push({ ...iv, offered: rate, diagnosis: diag.summary });
      log(`ramp ${fmt(rate)} ops/s offered: ${fmt(iv.opsPerSec)} ops/s, ${fmt(iv.eventsPerSec)} events/s, in flight ${fmt(iv.inFlightEnd)}; ${diag.summary}`);
    }
    const firehose: WorkloadFormInput = args.rate > 0 ? { concurrency: '0', ratePerSec: String(args.rate), maxInFlight: String(args.maxInFlight) } : { concurrency: String(args.users), thinkMs: '0', ratePerSec: '0' };
    const firehoseLabel = args.rate > 0 ? `open loop ${fmt(args.rate)} ops/s offered (≤ ${fmt(args.maxInFlight)} in flight)` : `closed loop, ${fmt(args.users)} users, zero think time (firehose)`;
    await applyWorkload(firehose, (s) => (args.rate > 0 ? s.workload.ratePerSec === args.rate && s.workload.concurrency === 0 : s.workload.concurrency === args.users && s.workload.ratePerSec === 0), firehoseLabel);
    // the warm-up proper: the measured workload itself, until its windows and rings are full
    const firehoseFrom = Date.now();
    await sleep(args.warmupSec * 1000);
    heaps.push(await heapAfterGc(cdp, 'after warm-up', t0, renderer));
    log(`warm-up done (${fmt((Date.now() - warmStart) / 1000)} s, of which ${fmt((Date.now() - firehoseFrom) / 1000)} s on the measured workload); measuring ${firehoseLabel} for ${args.minutes} min`);

    // ── the measured window ──
    const windowMs = args.minutes * 60_000;
    const start = await snapshot(d, cdp, renderer);
    const ticks: (Interval & { atSec: number; heapUsed: number; rendererRss: number })[] = [];
    let prev = start;
    let nextGc = Date.now() + HEAP_EVERY_MS;
    while (Date.now() - start.wallMs < windowMs) {
      await sleep(Math.min(10_000, Math.max(0, windowMs - (Date.now() - start.wallMs))));
      const cur = await snapshot(d, cdp, renderer);
      const iv = interval(prev, cur);
      ticks.push({ ...iv, atSec: (cur.wallMs - start.wallMs) / 1000, heapUsed: cur.cdp.heapUsed, rendererRss: cur.proc?.rendererRss ?? 0 });
      prev = cur;
      if (Date.now() >= nextGc && Date.now() - start.wallMs < windowMs - 5_000) {
        heaps.push(await heapAfterGc(cdp, `+${fmt((Date.now() - start.wallMs) / 1000)} s`, t0, renderer));
        nextGc += HEAP_EVERY_MS;
      }
    }
    const end = prev;
    const whole = withRenderCost(interval(start, end));
    const frames = frameStats(await readFrames(d.page, start.page.frameCount, end.page.frameCount), vsyncMs);
    heaps.push(await heapAfterGc(cdp, 'end of window', t0, renderer));
    log(`window done: ${fmt(whole.eventsPerSec)} events/s, frame p95 ${fmt(frames.p95Ms, 1)} ms`);
    let profile: ProfileSummary | null = null;
    if (args.profileSec > 0) {
      log(`profiling the main thread for ${args.profileSec} s (after the window, so the figures above are unaffected)`);
      profile = await profileMainThread(cdp, args.profileSec, SERVED);
    }
    const stillRunning = (await d.storeState()).running;
    const problems = [...d.problems];

    // ── JS sizes ──
    const indexHtml = readFileSync(join(SERVED, 'index.html'), 'utf8');
    const entryFiles = [...indexHtml.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    const startupFiles = [...new Set(startupJs)].filter((f) => existsSync(join(SERVED, f)));
    const mainJs = [...new Set([...entryFiles, ...startupFiles.filter((f) => !/worker/.test(f))])].map(gz);
    const workerJs = startupFiles.filter((f) => /worker/.test(f)).map(gz);
    const indexGlob = readdirSync(join(SERVED, 'assets')).filter((f) => /^index-.*\.js$/.test(f)).map((f) => gz(`assets/${f}`));
    const mainGzip = mainJs.reduce((s, f) => s + f.gzipBytes, 0);
    const workerGzip = workerJs.reduce((s, f) => s + f.gzipBytes, 0);

    // ── verdicts ──
    const warm = heaps.find((h) => h.label === 'after warm-up') as HeapReading;
    const last = heaps.at(-1) as HeapReading;
    const windowMin = (last.atSec - warm.atSec) / 60;
    // single readings swing by a few MB (how many ~1 MB snapshot copies panels hold at that moment),
    // so the verdict uses the least-squares trend of every reading from the warm-up on
    const series = heaps.slice(heaps.indexOf(warm));
    const slope = trendPerSec(series.map((h) => [h.atSec, h.usedAfterGc]));
    const meanUsed = series.reduce((a, h) => a + h.usedAfterGc, 0) / series.length;
    const growth = slope * (last.atSec - warm.atSec);
    const growthPct = (100 * growth) / meanUsed;
    const heapFlat = growth <= Math.max(TARGETS.heapGrowthMb * 1024 * 1024, (TARGETS.heapGrowthPct / 100) * meanUsed);
    const heapMin = Math.min(...series.map((h) => h.usedAfterGc));
    const heapMax = Math.max(...series.map((h) => h.usedAfterGc));
    const evOk = whole.eventsPerSec >= TARGETS.eventsPerSec;
    const frameOk = frames.p95Ms <= TARGETS.p95FrameMs;
    const jsOk = mainGzip <= TARGETS.initialJsKb * 1024;
    const diag = diagnose(whole);
    const minTick = Math.min(...ticks.map((t) => t.eventsPerSec));
    const maxTick = Math.max(...ticks.map((t) => t.eventsPerSec));

    // ── print ──
    const pass = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log('');
    console.log(`UI benchmark — ${firehoseLabel}, ${fmt(whole.seconds)} s window after a ${fmt(args.warmupSec)} s warm-up (${browserVersion}${procAvailable() ? `, ${sampleProc(null).cores} cores` : ''})`);
    console.log('');
    console.log(
      table([
        ['figure', 'measured', 'target', 'verdict'],
        ['events/s into the store (sustained)', fmt(whole.eventsPerSec), `≥ ${fmt(TARGETS.eventsPerSec)}`, pass(evOk)],
        ['  events/s per 10 s tick, min … max', `${fmt(minTick)} … ${fmt(maxTick)}`, '', ''],
        ['  operations/s', fmt(whole.opsPerSec), '', ''],
        ['frame interval p50', `${fmt(frames.p50Ms, 1)} ms`, '', ''],
        ['frame interval p95', `${fmt(frames.p95Ms, 1)} ms`, `≤ ${TARGETS.p95FrameMs} ms`, pass(frameOk)],
        ['frame interval p99 / max', `${fmt(frames.p99Ms, 1)} / ${fmt(frames.maxMs)} ms`, '', ''],
        ['dropped frames', `${fmt(frames.dropped)} (${fmt(frames.droppedPct, 1)} %)`, '', ''],
        ['frames > 20 ms', `${fmt(frames.over20Pct, 1)} %`, '', ''],
        ['main thread busy (CDP TaskDuration / wall)', `${fmt(whole.mainBusyPct, 1)} %`, '', ''],
        ['  main thread on CPU (/proc)', `${fmt(whole.mainCpuPct, 1)} % of a core`, '', ''],
        ['  script / layout+style (CDP)', `${fmt(whole.mainScriptPct, 1)} / ${fmt(whole.mainLayoutStylePct, 1)} %`, '', ''],
        ['  telemetry ingest (port handlers)', `${fmt(whole.ingestMsPerSec)} ms/s · ${fmt(whole.ingestUsPerEvent, 2)} µs/event wall · ≈ ${fmt(ingestCpuUsPerEvent(whole), 2)} µs CPU`, '', ''],
        ['  React scheduler tasks (render/commit)', `${fmt(whole.reactMsPerSec)} ms/s`, '', ''],
        ['  snapshot publishes · CPU per publish', `${fmt(whole.publishesPerSec, 1)}/s · ≈ ${fmt(whole.renderCpuMsPerPublish)} ms (all but ingest)`, '', ''],
        ['long tasks (> 50 ms)', `${fmt(whole.longTasks)} · ${fmt(whole.longTaskPct, 1)} % of wall`, '', ''],
        ['JS heap after GC: start', mb(heaps[0]?.usedAfterGc ?? NaN), '', ''],
        ['JS heap after GC: after warm-up', mb(warm.usedAfterGc), '', ''],
        [`JS heap after GC: end (+${fmt(windowMin, 1)} min)`, mb(last.usedAfterGc), '', ''],
        [`  ${series.length} readings from the warm-up on: min … max`, `${mb(heapMin)} … ${mb(heapMax)}`, '', ''],
        ['  trend over the window (least squares)', `${growth >= 0 ? '+' : ''}${fmt(growth / 1024 / 1024, 2)} MB (${fmt(growthPct, 1)} %, ${fmt((slope * 60) / 1024 / 1024, 2)} MB/min)`, 'flat', pass(heapFlat)],
        ['renderer RSS (page + workers) warm → end', `${mb(warm.rendererRss)} → ${mb(last.rendererRss)}`, '', ''],
        ['initial JS, main thread (gzip)', `${kb(mainGzip)} (${mainJs.length} files)`, `≤ ${TARGETS.initialJsKb} KB`, pass(jsOk)],
        ['  + worker JS loaded at startup (gzip)', `${kb(workerGzip)} (${workerJs.length} files)`, '', ''],
      ]),
    );
    console.log(`  JS heap after GC, every reading: ${heaps.map((h) => `${h.label} ${fmt(h.usedAfterGc / 1024 / 1024, 1)}`).join(' → ')} MB (in the window: a forced GC every ${HEAP_EVERY_MS / 1000} s)`);
    console.log(`  initial JS: ${[...mainJs, ...workerJs].map((f) => `${f.file.replace('assets/', '')} ${kb(f.gzipBytes)}`).join(' · ')}`);
    if (churn.length > 0) printChurn(churn, args.churnSec);
    if (ramp.length > 0) {
      console.log('');
      console.log('Ramp (before the warm-up): offered open-loop transactions/s → what the pipeline delivers (a cas transaction is a read and a conditional write: ops/s > offered);');
      console.log('CPU/wait = % of one core on CPU / runnable but waiting for a core');
      console.log(
        table([
          ['offered tx/s', 'ops/s', 'events/s', 'in flight', 'frame p50/p95 ms', 'main busy', 'main CPU/wait', 'client CPU/wait', 'node CPU/wait (max)', 'machine busy (others)', 'ingest ms/s'],
          ...ramp.map((r) => [
            `${fmt(r.offered)}${r.offered === DEFAULT_RATE ? ' (default)' : ''}`,
            fmt(r.opsPerSec),
            fmt(r.eventsPerSec),
            fmt(r.inFlightEnd),
            r.frames ? `${fmt(r.frames.p50Ms, 1)}/${fmt(r.frames.p95Ms, 1)}` : '—',
            `${fmt(r.mainBusyPct)} %`,
            cw(thread(r.proc, 'main')),
            cw(thread(r.proc, 'worker:client')),
            cw(nodes(r.proc)),
            r.proc ? `${fmt(r.proc.machineBusyPct)} % (${fmt(r.proc.othersPct)} %)` : '—',
            fmt(r.ingestMsPerSec),
          ]),
        ]),
      );
    }
    if (profile !== null) {
      console.log('');
      console.log(`Main thread CPU profile (${fmt(profile.seconds, 1)} s, ${fmt(profile.busyPct)} % not idle): self time by package / source folder (source-mapped), % of the busy samples`);
      console.log(table([['group', 'ms', '%'], ...profile.groups.slice(0, 14).map((g) => [g.group, fmt(g.ms), fmt(g.pct, 1)])]));
    }
    if (whole.proc !== null) {
      console.log('');
      console.log('Threads in the window (% of one core: on CPU / waiting for a core)');
      console.log(table([['thread (process: all its threads summed)', 'CPU %', 'wait %'], ...whole.proc.threads.filter((t) => t.cpuPct >= 0.5).map((t) => [t.label, fmt(t.cpuPct, 1), fmt(t.waitPct, 1)])]));
    }
    console.log('');
    console.log(`Where the limit is: ${diag.summary}`);
    for (const l of diag.details) console.log(`  - ${l}`);
    console.log(`  - idle page: frame p50 ${fmt(idle.frames.p50Ms, 1)} ms (vsync used for dropped frames: ${fmt(vsyncMs, 2)} ms), main thread busy ${fmt(idle.interval.mainBusyPct, 1)} %`);
    if (!stillRunning) console.log('  - WARNING: the session was no longer running at the end of the window');
    if (problems.length > 0) console.log(`  - page problems: ${problems.slice(0, 5).join(' | ')}`);
    console.log('');
    console.log(`Targets: ≥ ${fmt(TARGETS.eventsPerSec)} events/s with p95 frame ≤ ${TARGETS.p95FrameMs} ms: ${pass(evOk && frameOk)}; memory flat after warm-up (trend growth over the window ≤ max(${TARGETS.heapGrowthMb} MB, ${TARGETS.heapGrowthPct} %)): ${pass(heapFlat)}; initial JS ≤ ${TARGETS.initialJsKb} KB gzip: ${pass(jsOk)}`);

    mkdirSync(join(args.out, '..'), { recursive: true });
    writeFileSync(
      args.out,
      `${JSON.stringify(
        {
          when: new Date().toISOString(),
          args,
          build: buildState,
          browser: browserVersion,
          workload: firehoseLabel,
          targets: TARGETS,
          verdicts: { eventsPerSec: evOk, p95Frame: frameOk, heapFlat, initialJs: jsOk },
          window: { ...whole, frames, eventsPerSecTickMin: minTick, eventsPerSecTickMax: maxTick },
          idle,
          heaps,
          heapGrowth: { trendBytes: growth, pct: growthPct, bytesPerMin: slope * 60, minutes: windowMin, min: heapMin, max: heapMax },
          ticks,
          churn,
          churnByPanel,
          ramp,
          diagnosis: diag,
          profile,
          js: { mainGzipBytes: mainGzip, workerGzipBytes: workerGzip, main: mainJs, workers: workerJs, indexGlob },
          problems,
          stillRunning,
        },
        null,
        2,
      )}\n`,
    );
    log(`wrote ${args.out}`);
  } finally {
    await context.close().catch(() => undefined);
    await server.close();
  }
}

main().catch((e: unknown) => {
  console.error(`[bench:ui] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
