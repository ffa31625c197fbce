import type { Scheduler, TimerId } from '../core/time/scheduler';

/** Wall-clock scheduler for workers: ms since construction, real timers. */
export class RealScheduler implements Scheduler {
  private readonly origin: number;

  constructor(origin: number = performance.now()) {
    this.origin = origin;
  }

  now(): number {
    return performance.now() - this.origin;
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    return setTimeout(fn, delayMs > 0 ? delayMs : 0) as unknown as TimerId;
  }

  clearTimer(id: TimerId): void {
    clearTimeout(id);
  }
}
