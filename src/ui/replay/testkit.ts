/**
 * The replay worker without a worker, for tests: the same ReplayRoom behind
 * the session interface, messages delivered synchronously, time by hand.
 */
import { dispatchReplayMessage, type ReplayListener } from '../bridge/replaySession';
import type { ReplaySessionLike } from './replayController';
import type { ZarisEvent } from '../../core/telemetry/events';
import { ReplayRoom } from './replayRoom';
import type { BudgetAtCursor } from './seekIndex';
import { AvailabilityWatch } from '../../core/sim/availabilityRule';
import { SimEngine } from '../../core/sim/engine';
import { availabilityCheck, type InvariantCheck, type InvariantReport } from '../../core/sim/invariants';
import type { Scenario } from '../../core/sim/scenario';

/**
 * A fresh engine run of `s` to `t`: its events, and the availability rule
 * watched on its cluster as a headless run's checker does, stopped at `t` —
 * what a replay's cursor at `t` must show.
 */
export function freshRunTo(s: Scenario, t: number): { readonly engine: SimEngine; readonly events: ZarisEvent[]; readonly availability: InvariantCheck } {
  const events: ZarisEvent[] = [];
  let watch: AvailabilityWatch | null = null;
  const engine = new SimEngine(s, {
    sinks: [
      {
        emit: (e) => {
          events.push(e);
          if (e.type === 'fault' || e.type === 'topology') watch?.observe(e.t);
        },
      },
    ],
  });
  watch = new AvailabilityWatch(engine.state);
  engine.runTo(t);
  watch.finish(engine.now);
  return { engine, events, availability: availabilityCheck(watch) };
}

/** `report` with the availability rule's row last, as `invariantReport` places it */
export function withAvailability(report: InvariantReport, check: InvariantCheck): InvariantReport {
  return { ok: report.ok && (check.ok || check.expected), checks: [...report.checks, check] };
}

/** operations in flight at the end of `events` beyond their budget, and those that ended so (brute force) */
export function overBudgetOf(events: readonly ZarisEvent[]): BudgetAtCursor {
  const budget = new Map<number, number>();
  const over = new Set<number>();
  let ended = 0;
  for (const e of events) {
    if (e.type === 'op.start' && e.budget !== undefined) budget.set(e.op, e.budget);
    else if (e.type === 'attempt.start' && e.attempt > (budget.get(e.op) ?? Infinity)) over.add(e.op);
    else if (e.type === 'op.end' && over.delete(e.op)) ended++;
  }
  return { overBudgetInFlight: over.size, overBudgetEnded: ended };
}

export interface ManualTime {
  now(): number;
  every(ms: number, fn: () => void): () => void;
  /** advances the clock by `ms`, firing due ticks */
  advance(ms: number): void;
}

export function manualTime(): ManualTime {
  let t = 0;
  const timers = new Set<{ ms: number; next: number; fn: () => void }>();
  return {
    now: () => t,
    every: (ms, fn) => {
      const x = { ms, next: t + ms, fn };
      timers.add(x);
      return () => timers.delete(x);
    },
    advance: (ms) => {
      const end = t + ms;
      for (;;) {
        let due: { ms: number; next: number; fn: () => void } | null = null;
        for (const x of timers) if (x.next <= end && (due === null || x.next < due.next)) due = x;
        if (due === null) break;
        t = due.next;
        due.next += due.ms;
        due.fn();
      }
      t = end;
    },
  };
}

export function inProcessSession(listener: ReplayListener, time: ManualTime = manualTime(), frameDelayMs?: number): ReplaySessionLike & { readonly room: ReplayRoom } {
  const room = new ReplayRoom(time);
  // `frameDelayMs`: frames arrive that much later than the call's answer (the worker posts them on their own port)
  const post = (m: Parameters<typeof dispatchReplayMessage>[1]) => {
    if (frameDelayMs !== undefined && m.kind === 'replayFrame') setTimeout(() => dispatchReplayMessage(listener, m), frameDelayMs);
    else dispatchReplayMessage(listener, m);
  };
  return {
    room,
    load: async (scenario) => {
      listener.onReset();
      room.load(scenario, post);
    },
    loadBatches: async (scenario, batches) => {
      listener.onReset();
      room.loadBatches(scenario, batches, post);
    },
    play: async (speed) => room.play(speed),
    pause: async () => room.pause(),
    step: async (ms) => room.step(ms),
    seek: async (t) => room.seek(t),
    exportNdjson: async () => room.exportNdjson(),
    exportTrace: async () => room.exportTrace(),
    dispose: () => room.dispose(),
  };
}
