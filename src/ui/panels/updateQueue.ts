/**
 * Staggers chart updates: each panel's redraw is queued and the queue runs
 * one redraw per animation frame, so a publish never becomes one long task
 * that blocks input and the session's timers (each Recharts update costs
 * tens of ms; all of them at once cost hundreds). On-screen redraws go
 * first; background ones (offscreen panels, see `visibility.tsx`) run only
 * in frames with no on-screen redraw waiting.
 */
type Job = () => void;

export type RedrawPriority = 'visible' | 'background';

const queues: Record<RedrawPriority, Job[]> = { visible: [], background: [] };
let scheduled = false;
const idle: (() => void)[] = [];

function drain(): void {
  scheduled = false;
  const job = queues.visible.shift() ?? queues.background.shift();
  if (job !== undefined) job();
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

/** resolves once every queued redraw has run */
export function whenRedrawsDone(): Promise<void> {
  if (queues.visible.length === 0 && queues.background.length === 0) return Promise.resolve();
  return new Promise((resolve) => idle.push(resolve));
}
