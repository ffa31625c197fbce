/**
 * The simulation's clock driven by `@sinonjs/fake-timers` instead of the
 * engine's own timer queue — the benchmark's reference point.
 *
 * fake-timers counts whole milliseconds (a delay is truncated to an integer)
 * and runs a timer scheduled with no delay from inside a tick one unit later.
 * To keep sub-millisecond network latencies, one virtual ms is `ticksPerMs`
 * fake-timer units (1000 = µs resolution), quantized with the same
 * `msToTicks` the engine's `VirtualScheduler({ ticksPerMs })` uses; that
 * scheduler also applies the same zero-delay rule, so both clocks fire the
 * same timers at the same ticks in the same order and a run gives the same
 * summary on either (the benchmark checks this).
 */
import { createClock } from '@sinonjs/fake-timers';
import type { TimerId } from '../src/core/time/scheduler';
import { msToTicks, ticksToMs, type SimClock } from '../src/core/time/simClock';

/** fake-timers replaces longer delays by 1 (as browsers do); refuse them instead */
const MAX_DELAY_TICKS = 2 ** 31 - 1;

type Callback = (...args: unknown[]) => void;

export class FakeTimersClock implements SimClock {
  private readonly clock = createClock(0);

  constructor(readonly ticksPerMs: number) {
    if (!Number.isInteger(ticksPerMs) || ticksPerMs < 1) throw new RangeError(`ticksPerMs must be a whole number ≥ 1, got ${ticksPerMs}`);
  }

  now(): number {
    return ticksToMs(this.clock.now, this.ticksPerMs);
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    return this.schedule(msToTicks(delayMs > 0 ? delayMs : 0, this.ticksPerMs), fn);
  }

  at(time: number, fn: () => void): TimerId {
    return this.schedule(msToTicks(time, this.ticksPerMs) - this.clock.now, fn);
  }

  atCall<T>(time: number, fn: (arg: T) => void, arg: T): TimerId {
    return this.schedule(msToTicks(time, this.ticksPerMs) - this.clock.now, fn as Callback, arg);
  }

  clearTimer(id: TimerId): void {
    this.clock.clearTimeout(id);
  }

  advanceTo(time: number): void {
    const ticks = msToTicks(time, this.ticksPerMs) - this.clock.now;
    if (ticks >= 0) this.clock.tick(ticks);
  }

  private schedule(delayTicks: number, fn: Callback, arg?: unknown): TimerId {
    if (delayTicks > MAX_DELAY_TICKS) throw new RangeError(`delay of ${delayTicks} ticks exceeds fake-timers' ${MAX_DELAY_TICKS}`);
    // In Node, fake-timers hands back a Timeout-like object whose primitive value is the id.
    return Number(this.clock.setTimeout(fn, delayTicks > 0 ? delayTicks : 0, arg));
  }
}
