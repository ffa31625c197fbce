/**
 * Linux /proc readings for the UI benchmark: CPU time and run-queue wait per
 * thread of the browser this process launched (so the main thread, the client
 * worker and each node worker can be told apart), each browser process's RSS,
 * and the whole machine's CPU use (to see what other load shares the cores).
 *
 * Thread identity: the page's renderer process runs the main thread (named
 * like the executable) and one "DedicatedWorker thread" per Web Worker. The
 * live session constructs its workers in a fixed order (src/ui/bridge/
 * liveSession.ts: control and client back to back, then node-0, node-1,
 * node-2 one after the other, each after an await), and thread ids grow in
 * creation order — checked by hand: a Failover of node 1 removes exactly the
 * fourth worker thread. The first two threads may start in either order, so
 * they are told apart by load: the client worker carries every operation,
 * the control plane only heartbeats (resolved once, on the first interval
 * where one of them is clearly busier).
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_NS = 1e9 / 100; // USER_HZ is 100 on Linux

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** fields after the `(comm)` of a /proc stat line (index 0 = state) */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** whether /proc is there (Linux) */
export function procAvailable(): boolean {
  return read('/proc/stat') !== null;
}

interface ProcInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly cmd: string;
}

function allProcs(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const stat = read(`/proc/${d}/stat`);
    const cmd = read(`/proc/${d}/cmdline`);
    if (stat === null || cmd === null) continue;
    out.push({ pid: Number(d), ppid: Number(statFields(stat)[1]), cmd: cmd.replace(/\0/g, ' ') });
  }
  return out;
}

/** this process and every descendant (the browser it launched and the browser's children) */
function descendants(root: number): ProcInfo[] {
  const procs = allProcs();
  const mine = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
    }
  }
  return procs.filter((p) => mine.has(p.pid));
}

export interface ThreadSample {
  readonly key: string;
  /** a readable name: main, worker:client, node-1, compositor, … */
  readonly label: string;
  /** ns on CPU so far */
  readonly cpuNs: number;
  /** ns runnable but waiting for a CPU so far (schedstat) */
  readonly waitNs: number;
}

export interface ProcSample {
  /** wall clock, ms */
  readonly atMs: number;
  readonly threads: readonly ThreadSample[];
  /** CPU ns of every process in our tree (this Node process, the preview server, the whole browser) */
  readonly ourCpuNs: number;
  /** renderer (page) process resident set, bytes */
  readonly rendererRss: number;
  /** machine: busy and total jiffies over all cores */
  readonly machineBusy: number;
  readonly machineTotal: number;
  readonly cores: number;
}

const WORKER_ORDER = ['control|client', 'control|client', 'node-0', 'node-1', 'node-2', 'node-3', 'node-4', 'node-5'];
/** thread key → resolved label of the control/client pair */
const pairLabels = new Map<string, string>();

function threadTimes(pid: number, tid: string): { cpuNs: number; waitNs: number; comm: string } | null {
  const stat = read(`/proc/${pid}/task/${tid}/stat`);
  const comm = read(`/proc/${pid}/task/${tid}/comm`);
  if (stat === null || comm === null) return null;
  const f = statFields(stat);
  const sched = read(`/proc/${pid}/task/${tid}/schedstat`);
  const [run, wait] = sched === null ? [null, null] : sched.trim().split(/\s+/).map(Number);
  return { cpuNs: run ?? (Number(f[11]) + Number(f[12])) * TICK_NS, waitNs: wait ?? 0, comm: comm.trim() };
}

/** the renderer process of the page: the one in our tree with the most DedicatedWorker threads */
export function findRenderer(): number | null {
  let best: number | null = null;
  let bestWorkers = -1;
  for (const p of descendants(process.pid)) {
    if (!p.cmd.includes('--type=renderer')) continue;
    let workers = 0;
    for (const tid of readdirSync(`/proc/${p.pid}/task`)) if (read(`/proc/${p.pid}/task/${tid}/comm`)?.startsWith('DedicatedWorker')) workers++;
    if (workers > bestWorkers) {
      best = p.pid;
      bestWorkers = workers;
    }
  }
  return best;
}

export function sampleProc(renderer: number | null): ProcSample {
  const threads: ThreadSample[] = [];
  const tree = descendants(process.pid);
  let ourCpuNs = 0;
  for (const p of tree) {
    const stat = read(`/proc/${p.pid}/stat`);
    if (stat !== null) {
      const f = statFields(stat);
      ourCpuNs += (Number(f[11]) + Number(f[12])) * TICK_NS;
    }
  }
  let rendererRss = 0;
  if (renderer !== null) {
    const status = read(`/proc/${renderer}/status`) ?? '';
    rendererRss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    const tids = (read(`/proc/${renderer}/stat`) === null ? [] : readdirSync(`/proc/${renderer}/task`)).sort((a, b) => Number(a) - Number(b));
    let w = 0;
    for (const tid of tids) {
      const t = threadTimes(renderer, tid);
      if (t === null) continue;
      let label: string;
      if (t.comm.startsWith('DedicatedWorker')) w++;
      if (tid === String(renderer)) label = 'main';
      else if (t.comm.startsWith('DedicatedWorker')) label = pairLabels.get(`${renderer}/${tid}`) ?? `worker:${WORKER_ORDER[w - 1] ?? `#${w}`}`;
      else if (t.comm.startsWith('Compositor')) label = 'compositor';
      else label = `renderer:${t.comm}`;
      threads.push({ key: `${renderer}/${tid}`, label, cpuNs: t.cpuNs, waitNs: t.waitNs });
    }
  }
  // the other browser processes, each as one entry (GPU, browser, network…)
  for (const p of tree) {
    if (p.pid === renderer || !p.cmd.includes('chromium')) continue;
    const type = /--type=(\S+)/.exec(p.cmd)?.[1] ?? 'browser';
    const sub = /--utility-sub-type=(\S+)/.exec(p.cmd)?.[1];
    let cpuNs = 0;
    let waitNs = 0;
    for (const tid of read(`/proc/${p.pid}/stat`) === null ? [] : readdirSync(`/proc/${p.pid}/task`)) {
      const t = threadTimes(p.pid, tid);
      if (t === null) continue;
      cpuNs += t.cpuNs;
      waitNs += t.waitNs;
    }
    threads.push({ key: `${p.pid}`, label: `process:${type}${sub ? `:${sub.split('.')[0]}` : ''}`, cpuNs, waitNs });
  }
  const cpu = (read('/proc/stat') ?? '').split('\n');
  const total = (cpu[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const idle = (total[3] ?? 0) + (total[4] ?? 0);
  const sum = total.reduce((a, b) => a + b, 0);
  return {
    atMs: Date.now(),
    threads,
    ourCpuNs,
    rendererRss,
    machineBusy: sum - idle,
    machineTotal: sum,
    cores: cpu.filter((l) => /^cpu\d+ /.test(l)).length,
  };
}

export interface ThreadUse {
  readonly label: string;
  /** share of one core on CPU over the interval, % */
  readonly cpuPct: number;
  /** share of the interval spent runnable but waiting for a core, % */
  readonly waitPct: number;
}

export interface ProcDelta {
  readonly seconds: number;
  /** per thread (and per other browser process), busiest first; threads that ended are left out */
  readonly threads: readonly ThreadUse[];
  /** machine CPU in use, % of all cores */
  readonly machineBusyPct: number;
  /** of all cores: our process tree (bench + preview server + browser), % */
  readonly oursPct: number;
  /** of all cores: everything else on the machine, % */
  readonly othersPct: number;
  readonly cores: number;
}

interface KeyedUse {
  key: string;
  label: string;
  cpuPct: number;
  waitPct: number;
}

/** names the control/client pair once one of them is clearly the busier (the client) */
function resolvePair(threads: KeyedUse[]): void {
  const pair = threads.filter((t) => t.label === 'worker:control|client');
  if (pair.length !== 2) return;
  const [x, y] = pair as [KeyedUse, KeyedUse];
  const [busy, idle] = x.cpuPct >= y.cpuPct ? [x, y] : [y, x];
  if (busy.cpuPct < 5 || busy.cpuPct < 3 * idle.cpuPct) return;
  pairLabels.set(busy.key, 'worker:client');
  pairLabels.set(idle.key, 'worker:control');
  busy.label = 'worker:client';
  idle.label = 'worker:control';
}

export function procDelta(a: ProcSample, b: ProcSample): ProcDelta {
  const seconds = (b.atMs - a.atMs) / 1000;
  const ns = seconds * 1e9;
  const before = new Map(a.threads.map((t) => [t.key, t]));
  const threads: KeyedUse[] = [];
  for (const t of b.threads) {
    const p = before.get(t.key);
    if (p === undefined) continue;
    threads.push({ key: t.key, label: pairLabels.get(t.key) ?? t.label, cpuPct: (100 * (t.cpuNs - p.cpuNs)) / ns, waitPct: (100 * (t.waitNs - p.waitNs)) / ns });
  }
  resolvePair(threads);
  threads.sort((x, y) => y.cpuPct - x.cpuPct);
  const busy = b.machineBusy - a.machineBusy;
  const total = Math.max(1, b.machineTotal - a.machineTotal);
  const machineBusyPct = (100 * busy) / total;
  const oursPct = (100 * (b.ourCpuNs - a.ourCpuNs)) / (ns * Math.max(1, b.cores));
  return { seconds, threads: threads.map(({ label, cpuPct, waitPct }) => ({ label, cpuPct, waitPct })), machineBusyPct, oursPct, othersPct: Math.max(0, machineBusyPct - oursPct), cores: b.cores };
}
