/**
 * Staggers chart updates: each panel's redraw is queued and the queue runs
 * one redraw per animation frame, so a publish never becomes one long task
 * that blocks input and the session's timers (each Recharts update costs
 * tens of ms; all of them at once cost hundreds).
 */
type Job = () => void;

const queue: Job[] = [];
let scheduled = false;

function drain(): void {
  scheduled = false;
  const job = queue.shift();
  if (job !== undefined) job();
  if (queue.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(drain);
  else setTimeout(drain, 0);
}

/** queues a redraw; returns a cancel function (for effect cleanup) */
export function enqueueRedraw(job: Job): () => void {
  queue.push(job);
  schedule();
  return () => {
    const i = queue.indexOf(job);
    if (i >= 0) queue.splice(i, 1);
  };
}
