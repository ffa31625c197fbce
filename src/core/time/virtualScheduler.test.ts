import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { NoProgressError, VirtualScheduler } from './virtualScheduler';

/** a scheduler plus a log of (label, time) of every callback that ran */
function recorder() {
  const sched = new VirtualScheduler();
  const fired: [string, number][] = [];
  const at = (delay: number, label: string) => sched.setTimer(delay, () => fired.push([label, sched.now()]));
  return { sched, fired, at };
}

describe('VirtualScheduler', () => {
  it('starts at 0 and only moves when driven', () => {
    const { sched, fired, at } = recorder();
    at(10, 'a');
    expect(sched.now()).toBe(0);
    expect(fired).toEqual([]);
    expect(sched.pending).toBe(1);
    expect(sched.nextTime()).toBe(10);
  });

  it('advance(ms) runs timers due within the window (including ones they schedule) and sets the clock', () => {
    const { sched, fired, at } = recorder();
    at(10, 'a');
    at(30, 'c');
    sched.setTimer(20, () => {
      fired.push(['b', sched.now()]);
      at(5, 'b+5'); // due at 25, inside the window
      at(50, 'b+50'); // due at 70, outside
    });
    sched.advance(30);
    expect(fired).toEqual([
      ['a', 10],
      ['b', 20],
      ['b+5', 25],
      ['c', 30],
    ]);
    expect(sched.now()).toBe(30);
    expect(sched.nextTime()).toBe(70);
    sched.advance(5);
    expect(sched.now()).toBe(35);
  });

  it('advanceTo(time) is absolute and never moves the clock back', () => {
    const { sched, fired, at } = recorder();
    at(100, 'a');
    sched.advanceTo(99);
    expect(fired).toEqual([]);
    sched.advanceTo(100);
    expect(fired).toEqual([['a', 100]]);
    sched.advanceTo(50);
    expect(sched.now()).toBe(100);
  });

  it('negative delays and past absolute times are clamped to now', () => {
    const { sched, fired } = recorder();
    sched.advance(40);
    sched.setTimer(-5, () => fired.push(['neg', sched.now()]));
    sched.at(10, () => fired.push(['past', sched.now()]));
    sched.at(60, () => fired.push(['abs', sched.now()]));
    sched.runUntilIdle();
    expect(fired).toEqual([
      ['neg', 40],
      ['past', 40],
      ['abs', 60],
    ]);
  });

  it('step() runs exactly one timer and moves the clock to it; false when none is left', () => {
    const { sched, fired, at } = recorder();
    at(5, 'a');
    at(7, 'b');
    expect(sched.step()).toBe(true);
    expect(fired).toEqual([['a', 5]]);
    expect(sched.now()).toBe(5);
    expect(sched.step()).toBe(true);
    expect(sched.step()).toBe(false);
    expect(sched.now()).toBe(7);
    expect(sched.fired).toBe(2);
  });

  it('runUntilIdle() runs chains to the end and throws on a livelock', () => {
    const { sched, fired } = recorder();
    let n = 0;
    const tick = () => {
      fired.push(['tick', sched.now()]);
      if (++n < 4) sched.setTimer(10, tick);
    };
    sched.setTimer(10, tick);
    sched.runUntilIdle();
    expect(fired.map(([, t]) => t)).toEqual([10, 20, 30, 40]);
    expect(sched.pending).toBe(0);

    const loop = () => void sched.setTimer(1, loop);
    sched.setTimer(1, loop);
    const before = sched.fired;
    expect(() => sched.runUntilIdle(100)).toThrow(/more than 100 timers/);
    expect(sched.fired - before).toBe(101);
  });

  it('runUntil(done) stops as soon as done holds; false when timers run out first', () => {
    const { sched, fired, at } = recorder();
    for (let i = 1; i <= 5; i++) at(i * 10, `t${i}`);
    expect(sched.runUntil(() => fired.length === 2)).toBe(true);
    expect(sched.now()).toBe(20);
    expect(sched.pending).toBe(3);
    expect(sched.runUntil(() => fired.length === 99)).toBe(false);
    expect(fired).toHaveLength(5);
    expect(sched.runUntil(() => true)).toBe(true);
  });

  it('clearTimer cancels a pending timer; stale and unknown ids are ignored', () => {
    const { sched, fired, at } = recorder();
    const a = at(10, 'a');
    at(20, 'b');
    sched.clearTimer(a);
    sched.runUntilIdle();
    expect(fired).toEqual([['b', 20]]);
    expect(sched.fired).toBe(1);
    sched.clearTimer(123456789);
    sched.clearTimer(-1);
  });

  it('clearing an id that already fired never cancels a newer timer (slots are reused)', () => {
    const { sched, fired, at } = recorder();
    const old = Array.from({ length: 8 }, (_, i) => at(i, `old${i}`));
    sched.runUntilIdle();
    const t0 = sched.now();
    for (let i = 0; i < 8; i++) at(1, `new${i}`);
    for (const id of old) sched.clearTimer(id);
    sched.runUntilIdle();
    expect(fired.slice(8)).toEqual(Array.from({ length: 8 }, (_, i) => [`new${i}`, t0 + 1]));
  });

  it('equal times fire in scheduling order, and the same schedule replays the same order', () => {
    const run = () => {
      const { sched, fired, at } = recorder();
      const rng = Rng.seeded(42);
      for (let i = 0; i < 200; i++) at(rng.int(0, 20), `t${i}`);
      sched.runUntilIdle();
      return fired;
    };
    const first = run();
    expect(run()).toEqual(first);
    for (let i = 1; i < first.length; i++) {
      const [pl, pt] = first[i - 1] as [string, number];
      const [l, t] = first[i] as [string, number];
      expect(t).toBeGreaterThanOrEqual(pt);
      if (t === pt) expect(Number(l.slice(1))).toBeGreaterThan(Number(pl.slice(1)));
    }
  });

  it('cancelled timers do not move the clock', () => {
    const { sched, at } = recorder();
    at(10, 'a');
    const late = at(15_000, 'late');
    sched.clearTimer(late);
    sched.runUntilIdle();
    expect(sched.now()).toBe(10);
    expect(sched.step()).toBe(false);
    expect(sched.now()).toBe(10);
  });
});

describe('the same-instant guard', () => {
  it('a livelock at one instant throws NoProgressError instead of spinning forever', () => {
    const s = new VirtualScheduler({ maxTimersAtOneInstant: 1000 });
    let n = 0;
    const again = (): void => {
      n++;
      s.setTimer(0, again);
    };
    s.setTimer(5, again);
    expect(() => s.advanceTo(10)).toThrow(NoProgressError);
    expect(() => s.advanceTo(10)).toThrow(/stopped advancing at 5 ms/);
    expect(n).toBeGreaterThan(1000);
  });

  it('bursts below the limit and timers at distinct times are fine', () => {
    const s = new VirtualScheduler({ maxTimersAtOneInstant: 1000 });
    let n = 0;
    for (let i = 0; i < 1000; i++) s.setTimer(1, () => n++);
    for (let i = 0; i < 5000; i++) s.setTimer(2 + i * 1e-3, () => n++);
    s.advanceTo(100);
    expect(n).toBe(6000);
  });
});
