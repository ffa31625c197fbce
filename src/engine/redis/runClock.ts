import { performance } from 'node:perf_hooks';
import type { Scheduler, TimerId } from '../../core/time/scheduler';

/** Real time for one run: ms since construction; every timer is cancelled by `stop()`. */
export class RunClock implements Scheduler {
  private readonly origin = performance.now();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private stopped = false;

  now(): number {
    return performance.now() - this.origin;
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    if (this.stopped) return 0;
    const h = setTimeout(() => {
      this.timers.delete(h);
      fn();
    }, delayMs > 0 ? delayMs : 0);
    this.timers.add(h);
    return h as unknown as TimerId;
  }

  clearTimer(id: TimerId): void {
    const h = id as unknown as ReturnType<typeof setTimeout>;
    clearTimeout(h);
    this.timers.delete(h);
  }

  /** cancels every pending timer; later ones are ignored */
  stop(): void {
    this.stopped = true;
    for (const h of this.timers) clearTimeout(h);
    this.timers.clear();
  }
}
