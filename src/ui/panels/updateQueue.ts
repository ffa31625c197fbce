/**
 * Staggers chart updates: each panel's redraw is queued and the queue runs
 * one redraw per animation frame, so a publish never becomes one long task
 * that blocks input and the session's timers (each Recharts update costs
 * milliseconds; all of them at once cost tens). On-screen redraws go first;
 * background ones (offscreen panels, see `visibility.tsx`) run in frames with
 * no on-screen redraw waiting, and at least every {@link BACKGROUND_EVERY}th
 * frame, so a busy page cannot starve them (a full-page screenshot once
 * showed the bottom panel ≈ 11 s behind the others).
 */
type Job = (() => void) & { readonly label?: string };

export type RedrawPriority = 'visible' | 'background';

/** a background redraw runs at the latest after this many consecutive on-screen ones */
export const BACKGROUND_EVERY = 8;

const queues: Record<RedrawPriority, Job[]> = { visible: [], background: [] };
let scheduled = false;
let visibleInARow = 0;
const idle: (() => void)[] = [];

/** what the redraws cost, for the UI benchmark (`window.__zarisLab.redraws()`): wall time inside the queue's jobs */
export interface RedrawStats {
  readonly count: number;
  readonly totalMs: number;
  readonly maxMs: number;
  /** jobs longer than 16 ms */
  readonly over16: number;
  /** per panel (the job's label) */
  readonly byPanel: Readonly<Record<string, { readonly count: number; readonly totalMs: number; readonly maxMs: number }>>;
}
const stats = { count: 0, totalMs: 0, maxMs: 0, over16: 0 };
const byPanel: Record<string, { count: number; totalMs: number; maxMs: number }> = {};

export function redrawStats(): RedrawStats {
  return { ...stats, byPanel: Object.fromEntries(Object.entries(byPanel).map(([k, v]) => [k, { ...v }])) };
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : 0);

function runTimed(job: Job): void {
  const t0 = now();
  try {
    job();
  } finally {
    const dt = now() - t0;
    stats.count++;
    stats.totalMs += dt;
    if (dt > stats.maxMs) stats.maxMs = dt;
    if (dt > 16) stats.over16++;
    const p = (byPanel[job.label ?? '?'] ??= { count: 0, totalMs: 0, maxMs: 0 });
    p.count++;
    p.totalMs += dt;
    if (dt > p.maxMs) p.maxMs = dt;
  }
}

function next(): Job | undefined {
  const starving = visibleInARow >= BACKGROUND_EVERY && queues.background.length > 0;
  const job = starving ? undefined : queues.visible.shift();
  if (job !== undefined) {
    visibleInARow++;
    return job;
  }
  visibleInARow = 0;
  return queues.background.shift();
}

function drain(): void {
  scheduled = false;
  const job = next();
  if (job !== undefined) runTimed(job);
  if (queues.visible.length > 0 || queues.background.length > 0) schedule();
  else for (const fn of idle.splice(0)) fn();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(drain);
  else setTimeout(drain, 0);
}

/** queues a redraw; returns a cancel function (for effect cleanup) */
export function enqueueRedraw(job: Job, priority: RedrawPriority = 'visible'): () => void {
  const q = queues[priority];
  q.push(job);
  schedule();
  return () => {
    const i = q.indexOf(job);
    if (i >= 0) q.splice(i, 1);
  };
}

/** runs every queued redraw now, in this task (a screenshot wants every panel at one snapshot, not one per frame) */
export function flushRedraws(): void {
  for (;;) {
    const job = queues.visible.shift() ?? queues.background.shift();
    if (job === undefined) break;
    runTimed(job);
  }
  for (const fn of idle.splice(0)) fn();
}

/** resolves once every queued redraw has run */
export function whenRedrawsDone(): Promise<void> {
  if (queues.visible.length === 0 && queues.background.length === 0) return Promise.resolve();
  return new Promise((resolve) => idle.push(resolve));
}
