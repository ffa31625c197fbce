/**
 * The engine's clock options: timers with an argument, integer-tick time,
 * and the agreement of the quantized VirtualScheduler with the
 * `@sinonjs/fake-timers` adapter the benchmark compares it with.
 */
import { describe, expect, it } from 'vitest';
import { FakeTimersClock } from '../../../bench/fakeTimersClock';
import { Rng } from '../rng';
import type { TimerId } from './scheduler';
import type { SimClock } from './simClock';
import { VirtualScheduler } from './virtualScheduler';

describe('VirtualScheduler.atCall', () => {
  it('passes the argument, in (time, scheduling order) with the other timers', () => {
    const sched = new VirtualScheduler();
    const out: string[] = [];
    sched.atCall(5, (s: string) => out.push(`${s}@${sched.now()}`), 'a');
    sched.at(5, () => out.push(`b@${sched.now()}`));
    sched.atCall(2, (n: number) => out.push(`n${n}@${sched.now()}`), 7);
    const c = sched.atCall(3, (s: string) => out.push(s), 'cancelled');
    sched.clearTimer(c);
    sched.advanceTo(10);
    expect(out).toEqual(['n7@2', 'a@5', 'b@5']);
  });
});

describe('VirtualScheduler({ ticksPerMs })', () => {
  it('rounds times to whole ticks', () => {
    const sched = new VirtualScheduler({ ticksPerMs: 1000 });
    const seen: number[] = [];
    sched.setTimer(0.0004, () => seen.push(sched.now())); // rounds to 0 ticks: fires at 0 (scheduled outside a timer)
    sched.setTimer(1.2345678, () => seen.push(sched.now()));
    sched.at(2.0006, () => seen.push(sched.now()));
    sched.advanceTo(5);
    expect(seen).toEqual([0, 1.235, 2.001]);
    expect(sched.now()).toBe(5);
  });

  it('a zero delay from inside a running timer fires one tick later, after the timers due now', () => {
    const sched = new VirtualScheduler({ ticksPerMs: 10 });
    const out: string[] = [];
    sched.at(1, () => {
      out.push(`a@${sched.now()}`);
      sched.setTimer(0, () => out.push(`zero@${sched.now()}`));
      sched.at(0, () => out.push(`past@${sched.now()}`));
    });
    sched.at(1, () => out.push(`b@${sched.now()}`));
    sched.advanceTo(2);
    expect(out).toEqual(['a@1', 'b@1', 'zero@1.1', 'past@1.1']);
  });

  it('without ticks, a zero delay fires at the same time (exact float time)', () => {
    const sched = new VirtualScheduler();
    const out: string[] = [];
    sched.at(1, () => sched.setTimer(0, () => out.push(`zero@${sched.now()}`)));
    sched.advanceTo(2);
    expect(out).toEqual(['zero@1']);
  });
});

/** a random timer program: nested scheduling with fractional, zero and past times, clears, advances */
function program(clock: SimClock, seed: number): string[] {
  const rng = Rng.seeded(seed);
  const log: string[] = [];
  const ids: TimerId[] = [];
  let n = 0;
  const spawn = (depth: number): void => {
    const label = n++;
    const r = rng.next();
    const fire = (): void => {
      log.push(`${label}@${clock.now()}`);
      if (depth < 4) for (let k = rng.int(0, 2); k > 0; k--) spawn(depth + 1);
      if (ids.length > 0 && rng.next() < 0.2) clock.clearTimer(ids[rng.int(0, ids.length - 1)] as TimerId);
    };
    if (r < 0.3) ids.push(clock.setTimer(rng.next() < 0.2 ? 0 : rng.exp(0.3), fire));
    else if (r < 0.6) ids.push(clock.at(clock.now() + (rng.next() - 0.2) * 2, fire));
    else ids.push(clock.atCall(clock.now() + rng.exp(1), (d: number) => (d === depth ? fire() : log.push('bad arg')), depth));
  };
  for (let i = 0; i < 50; i++) spawn(0);
  for (let t = 0.5; t <= 30; t += 0.7) clock.advanceTo(t);
  log.push(`end@${clock.now()}`);
  return log;
}

describe('the fake-timers adapter agrees with the quantized engine clock', () => {
  it.each([1, 2, 3, 4])('same timers, same ticks, same order (seed %i)', (seed) => {
    const engine = program(new VirtualScheduler({ ticksPerMs: 1000 }), seed);
    const fake = program(new FakeTimersClock(1000), seed);
    expect(engine.length).toBeGreaterThan(100);
    expect(fake).toEqual(engine);
  });
});
