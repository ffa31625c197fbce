/**
 * The timer workload of a run without the run: a {@link SimClock} wrapper
 * records, for every timer, when it was due and which timers its callback
 * scheduled or cancelled; {@link replayTimerTrace} then plays exactly that
 * schedule on any clock with callbacks that do nothing else. The benchmark
 * uses it to compare the two clocks on the scheduling work alone, apart from
 * the client, cluster and telemetry work both share.
 */
import type { TimerId } from '../src/core/time/scheduler';
import type { SimClock } from '../src/core/time/simClock';

/** what a timer's callback did: schedule timer k (k ≥ 0) or cancel timer k (encoded −k − 1) */
export interface TimerTrace {
  /** absolute due time (ms) of timer k */
  readonly due: number[];
  /** actions of timer k's callback; index −1 (stored at `roots`) = outside any callback */
  readonly actions: number[][];
  readonly roots: number[];
  /** timers that fired (cancelled ones do not) */
  fired: number;
  /** the end time the run was driven to */
  end: number;
}

export class RecordingClock implements SimClock {
  readonly trace: TimerTrace = { due: [], actions: [], roots: [], fired: 0, end: 0 };
  /** inner timer id → trace index */
  private readonly index = new Map<TimerId, number>();
  private running = -1;

  constructor(private readonly inner: SimClock) {}

  now(): number {
    return this.inner.now();
  }

  private record(due: number): number {
    const k = this.trace.due.length;
    this.trace.due.push(due);
    this.trace.actions.push([]);
    (this.running >= 0 ? (this.trace.actions[this.running] as number[]) : this.trace.roots).push(k);
    return k;
  }

  private wrap<T>(k: number, fn: (arg: T) => void): (arg: T) => void {
    return (arg: T) => {
      const outer = this.running;
      this.running = k;
      this.trace.fired++;
      try {
        fn(arg);
      } finally {
        this.running = outer;
      }
    };
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    return this.at(this.inner.now() + (delayMs > 0 ? delayMs : 0), fn);
  }

  at(time: number, fn: () => void): TimerId {
    const k = this.record(time > this.inner.now() ? time : this.inner.now());
    const id = this.inner.at(time, this.wrap<void>(k, fn));
    this.index.set(id, k);
    return id;
  }

  atCall<T>(time: number, fn: (arg: T) => void, arg: T): TimerId {
    const k = this.record(time > this.inner.now() ? time : this.inner.now());
    const id = this.inner.atCall(time, this.wrap(k, fn), arg);
    this.index.set(id, k);
    return id;
  }

  clearTimer(id: TimerId): void {
    const k = this.index.get(id);
    if (k !== undefined) (this.running >= 0 ? (this.trace.actions[this.running] as number[]) : this.trace.roots).push(-k - 1);
    this.inner.clearTimer(id);
  }

  advanceTo(time: number): void {
    this.trace.end = time;
    this.inner.advanceTo(time);
  }
}

/** plays `trace` on `clock`; returns how many timers fired (equal to `trace.fired` when the clock is faithful) */
export function replayTimerTrace(trace: TimerTrace, clock: SimClock): number {
  const ids: TimerId[] = new Array<TimerId>(trace.due.length);
  let fired = 0;
  const run = (actions: readonly number[]): void => {
    for (const a of actions) {
      if (a >= 0) ids[a] = clock.atCall(trace.due[a] as number, fire, a);
      else clock.clearTimer(ids[-a - 1] as TimerId);
    }
  };
  const fire = (k: number): void => {
    fired++;
    run(trace.actions[k] as number[]);
  };
  run(trace.roots);
  clock.advanceTo(trace.end);
  return fired;
}
