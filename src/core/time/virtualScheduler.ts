import { EventHeap } from './eventHeap';
import type { Scheduler, TimerId } from './scheduler';

/**
 * Deterministic virtual time: timers fire in (time, scheduling order) and the
 * clock jumps from one timer to the next. Used by tests, the simulation
 * engine, the CLI and the replay worker.
 */
export class VirtualScheduler implements Scheduler {
  private t = 0;
  private readonly heap = new EventHeap();
  /** number of timer callbacks run so far */
  fired = 0;

  now(): number {
    return this.t;
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    return this.heap.push(this.t + (delayMs > 0 ? delayMs : 0), fn);
  }

  /** schedules at an absolute virtual time (clamped to now) */
  at(time: number, fn: () => void): TimerId {
    return this.heap.push(time > this.t ? time : this.t, fn);
  }

  clearTimer(id: TimerId): void {
    this.heap.cancel(id);
  }

  /** pending timers, cancelled ones included until they surface */
  get pending(): number {
    return this.heap.length;
  }

  /** time of the next pending timer, or Infinity */
  nextTime(): number {
    return this.heap.peekTime();
  }

  /** runs every timer due at or before `time`, then sets the clock to `time` */
  advanceTo(time: number): void {
    const heap = this.heap;
    while (heap.length > 0 && heap.peekTime() <= time) {
      this.t = heap.peekTime();
      const fn = heap.pop();
      if (fn !== null) {
        this.fired++;
        fn();
      }
    }
    if (time > this.t) this.t = time;
  }

  /** runs every timer due within the next `ms` */
  advance(ms: number): void {
    this.advanceTo(this.t + ms);
  }

  /** runs one timer (skipping cancelled ones); false when none is left */
  step(): boolean {
    const heap = this.heap;
    while (heap.length > 0) {
      this.t = heap.peekTime();
      const fn = heap.pop();
      if (fn !== null) {
        this.fired++;
        fn();
        return true;
      }
    }
    return false;
  }

  /** runs until no timer is pending; throws after `maxTimers` to expose livelocks */
  runUntilIdle(maxTimers = 10_000_000): void {
    let n = 0;
    while (this.step()) {
      if (++n > maxTimers) throw new Error(`runUntilIdle: more than ${maxTimers} timers fired`);
    }
  }

  /** runs timers until `done()` holds or none is left; returns whether it holds */
  runUntil(done: () => boolean, maxTimers = 10_000_000): boolean {
    let n = 0;
    while (!done()) {
      if (!this.step()) return done();
      if (++n > maxTimers) throw new Error(`runUntil: more than ${maxTimers} timers fired`);
    }
    return true;
  }
}
