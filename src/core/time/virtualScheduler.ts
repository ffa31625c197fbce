import { TimerQueue } from './timerQueue';
import type { TimerId } from './scheduler';
import { msToTicks, ticksToMs, type SimClock } from './simClock';

export interface VirtualSchedulerOptions {
  /**
   * Quantize time to whole ticks, `ticksPerMs` per virtual ms, the way an
   * integer-millisecond timer library does (default: none, times are exact
   * floats). Then, as in `@sinonjs/fake-timers`, a timer scheduled with no
   * delay from inside a running timer fires one tick later. The benchmark
   * runs this engine and fake-timers with the same ticks to compare them.
   */
  readonly ticksPerMs?: number;
  /** the same-instant guard's limit (default {@link MAX_TIMERS_AT_ONE_INSTANT}) */
  readonly maxTimersAtOneInstant?: number;
}

/**
 * Timers fired at one instant before a run is declared stuck: a livelock
 * that never lets virtual time advance (e.g. operations that take 0 ms in a
 * closed loop) would otherwise spin forever. Far above any real burst (the
 * largest start-up burst is a few timers per virtual user).
 */
export const MAX_TIMERS_AT_ONE_INSTANT = 20_000_000;

/** virtual time stopped advancing: {@link MAX_TIMERS_AT_ONE_INSTANT} timers fired at one instant */
export class NoProgressError extends Error {
  constructor(
    readonly atMs: number,
    limit = MAX_TIMERS_AT_ONE_INSTANT,
  ) {
    super(`virtual time stopped advancing at ${atMs} ms: more than ${limit} timers fired at that instant (something keeps rescheduling itself with no delay)`);
    this.name = 'NoProgressError';
  }
}

/**
 * Deterministic virtual time: timers fire in (time, scheduling order) and the
 * clock jumps from one timer to the next. Used by tests, the simulation
 * engine, the CLI and the replay worker.
 */
export class VirtualScheduler implements SimClock {
  /** now, in ms */
  private t = 0;
  /** now, in queue keys: ms, or ticks when quantized */
  private key = 0;
  /** ticks per ms; 0 = not quantized */
  private readonly tpm: number;
  /** inside advanceTo/step (a timer callback is running) */
  private running = false;
  private readonly queue = new TimerQueue();
  /** number of timer callbacks run so far */
  fired = 0;
  private readonly maxSameInstant: number;
  /** the guard looks every `guardMask + 1` timers (a power of two, a quarter of the limit at most) */
  private readonly guardMask: number;

  constructor(options: VirtualSchedulerOptions = {}) {
    const tpm = options.ticksPerMs ?? 0;
    if (!(tpm >= 0) || !Number.isFinite(tpm)) throw new Error(`ticksPerMs must be a finite number ≥ 0, got ${tpm}`);
    this.tpm = tpm;
    this.maxSameInstant = options.maxTimersAtOneInstant ?? MAX_TIMERS_AT_ONE_INSTANT;
    let every = 1;
    while (every * 8 <= this.maxSameInstant && every < 1 << 20) every *= 2;
    this.guardMask = every - 1;
  }

  now(): number {
    return this.t;
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    if (this.tpm !== 0) return this.queue.push(this.tickKey(this.key + msToTicks(delayMs > 0 ? delayMs : 0, this.tpm)), fn);
    return this.queue.push(this.t + (delayMs > 0 ? delayMs : 0), fn);
  }

  /** schedules at an absolute virtual time (clamped to now) */
  at(time: number, fn: () => void): TimerId {
    if (this.tpm !== 0) return this.queue.push(this.tickKey(msToTicks(time, this.tpm)), fn);
    return this.queue.push(time > this.t ? time : this.t, fn);
  }

  atCall<T>(time: number, fn: (arg: T) => void, arg: T): TimerId {
    if (this.tpm !== 0) return this.queue.push(this.tickKey(msToTicks(time, this.tpm)), fn, arg);
    return this.queue.push(time > this.t ? time : this.t, fn, arg);
  }

  /** quantized mode: clamps a tick to now, and to now + 1 from inside a running timer */
  private tickKey(tick: number): number {
    if (tick > this.key) return tick;
    return this.running ? this.key + 1 : this.key;
  }

  private setKey(key: number): void {
    this.key = key;
    this.t = this.tpm !== 0 ? ticksToMs(key, this.tpm) : key;
  }

  clearTimer(id: TimerId): void {
    this.queue.cancel(id);
  }

  /** pending timers, cancelled ones included until they surface */
  get pending(): number {
    return this.queue.length;
  }

  /** time of the next pending timer, or Infinity */
  nextTime(): number {
    const key = this.queue.peekTime();
    return this.tpm !== 0 ? ticksToMs(key, this.tpm) : key;
  }

  /** runs every timer due at or before `time`, then sets the clock to `time` */
  advanceTo(time: number): void {
    const queue = this.queue;
    const until = this.tpm !== 0 ? msToTicks(time, this.tpm) : time;
    const wasRunning = this.running;
    const guardMask = this.guardMask;
    let n = 0;
    let guardKey = NaN;
    let guardHits = 0;
    this.running = true;
    try {
      while (queue.length > 0) {
        const key = queue.peekTime();
        if (key > until) break;
        if (key !== this.key) this.setKey(key);
        // the same-instant guard, at checkpoints (a register count per timer, not a field):
        // the same key at checkpoints `guardEvery` timers apart means every timer between fired at that instant
        if ((++n & guardMask) === 0) {
          if (key === guardKey) {
            if (++guardHits * (guardMask + 1) > this.maxSameInstant) throw new NoProgressError(this.t, this.maxSameInstant);
          } else {
            guardKey = key;
            guardHits = 0;
          }
        }
        const fn = queue.pop();
        if (fn !== null) {
          this.fired++;
          fn(queue.poppedArg);
        }
      }
    } finally {
      this.running = wasRunning;
    }
    if (until > this.key) this.setKey(until);
  }

  /** runs every timer due within the next `ms` */
  advance(ms: number): void {
    this.advanceTo(this.t + ms);
  }

  /** runs one timer (skipping cancelled ones); false when none is left */
  step(): boolean {
    const queue = this.queue;
    const wasRunning = this.running;
    this.running = true;
    try {
      while (queue.length > 0) {
        const key = queue.peekTime();
        const fn = queue.pop();
        if (fn !== null) {
          // only a timer that fires moves the clock (cancelled ones do not)
          this.setKey(key);
          this.fired++;
          fn(queue.poppedArg);
          return true;
        }
      }
      return false;
    } finally {
      this.running = wasRunning;
    }
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
