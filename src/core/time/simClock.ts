import type { Scheduler, TimerId } from './scheduler';

/**
 * The clock the simulation engine runs on: a {@link Scheduler} that can also
 * schedule at absolute times and be driven forward. {@link VirtualScheduler}
 * is the engine's own; the benchmark plugs in `@sinonjs/fake-timers` through
 * the same interface (`bench/fakeTimersClock.ts`).
 */
export interface SimClock extends Scheduler {
  /** runs `fn` at absolute time `time` (clamped to now) */
  at(time: number, fn: () => void): TimerId;
  /** `at(time, () => fn(arg))` without allocating a closure (the network's hot path) */
  atCall<T>(time: number, fn: (arg: T) => void, arg: T): TimerId;
  /** runs every timer due at or before `time` (in time order), then sets the clock to `time` */
  advanceTo(time: number): void;
}

/**
 * Integer-tick time, as timer libraries that count whole milliseconds see it:
 * `ticksPerMs` ticks per virtual ms (1000 = µs resolution). A time or delay
 * in ms becomes `Math.round(ms × ticksPerMs)` ticks. Both clocks of the
 * benchmark quantize with these two functions, so they agree to the tick.
 */
export function msToTicks(ms: number, ticksPerMs: number): number {
  return Math.round(ms * ticksPerMs);
}
export function ticksToMs(ticks: number, ticksPerMs: number): number {
  return ticks / ticksPerMs;
}
