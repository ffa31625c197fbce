import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientViewOf, clusterViewOf } from '../../core/cluster/views';
import { recordScenario } from '../../core/replay/recordRun';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import { scenarioArb } from '../../core/sim/testkit/faultSchedules';
import { presetInput, shortenedPreset } from '../../core/sim/testkit/presetInputs';
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import type { ZarisEvent } from '../../core/telemetry/events';
import type { InvariantCheck } from '../../core/sim/invariants';
import type { TelemetrySnapshot } from '../store/snapshot';
import { TelemetryAggregator } from '../store/telemetryAggregator';
import { SeekIndex, withInFlightOverBudget, type PauseChange } from './seekIndex';
import { freshRunTo, overBudgetOf, withAvailability } from './testkit';

const RUNS = Math.max(10, Math.round((Number(process.env.ZARIS_PROPERTY_RUNS ?? '') || 300) / 10));

/** a fresh engine run to `t`: its events, the availability rule at `t`, and its views at `t` */
function freshRun(s: Scenario, t: number) {
  const { engine, events, availability } = freshRunTo(s, t);
  return { events, availability, cluster: clusterViewOf(engine.state, engine.now), client: clientViewOf(engine.client.map, engine.now) };
}

const overBudget = overBudgetOf;

/** the fresh fold's snapshot as the replay reports it: the checker's verdict with the availability rule, plus operations in flight beyond their budget */
function freshReplaySnapshot(s: Scenario, agg: TelemetryAggregator, fresh: { readonly events: readonly ZarisEvent[]; readonly availability: InvariantCheck }): TelemetrySnapshot {
  const snap = agg.snapshot();
  return snap.invariants === null ? snap : { ...snap, invariants: withInFlightOverBudget(withAvailability(snap.invariants, fresh.availability), overBudget(fresh.events), s.client) };
}

/** what the dashboard store shows after folding `events` in batches of `batch` */
function freshFold(s: Scenario, events: readonly ZarisEvent[], batch: number): TelemetryAggregator {
  const agg = new TelemetryAggregator(() => s.client);
  for (let i = 0; i < events.length; i += batch) {
    const b = new EventBatchBuilder(batch);
    for (const e of events.slice(i, i + batch)) b.push(e);
    agg.ingestBatch(b.take());
  }
  return agg;
}

/** the scenario's pause schedule */
const pausesOf = (s: Scenario): PauseChange[] => s.changes.flatMap((c) => (c.paused === undefined ? [] : [{ atMs: c.atMs, paused: c.paused }]));

/** the fresh fold with the pause schedule: each change before the first event at or after it, the rest due by `t` at the end */
function freshFoldWithPauses(s: Scenario, events: readonly ZarisEvent[], t: number): TelemetryAggregator {
  const agg = new TelemetryAggregator(() => s.client);
  const changes = pausesOf(s);
  let ci = 0;
  let from = 0;
  events.forEach((e, i) => {
    while (ci < changes.length && (changes[ci] as PauseChange).atMs <= e.t) {
      agg.ingestEvents(events.slice(from, i));
      from = i;
      agg.noteWorkload(!(changes[ci] as PauseChange).paused, (changes[ci] as PauseChange).atMs, false);
      ci++;
    }
  });
  agg.ingestEvents(events.slice(from));
  for (; ci < changes.length && (changes[ci] as PauseChange).atMs <= t; ci++) agg.noteWorkload(!(changes[ci] as PauseChange).paused, (changes[ci] as PauseChange).atMs, false);
  return agg;
}

const comparable = (s: TelemetrySnapshot) => ({ ...s, version: 0 });
/** a view without its time stamp (a frame's view carries the time it last changed) */
const atZero = <V extends { readonly t: number }>(v: V | null) => (v === null ? null : { ...v, t: 0 });

describe('SeekIndex: seek anywhere = a fresh run to that time', () => {
  it('snapshot, fault markers and views at random times, in random order, equal a fresh run to each time', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        scenarioArb({ varyBudget: true, bugs: ['deadlineReplacesAttempts', 'retryConflict', 'unclampedBackoff'], maxFaults: 4 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 40, max: 3000 }),
        fc.integer({ min: 1, max: 9000 }),
        (input, fractions, checkpointEvents, batch) => {
          const s = loadScenario(input, 'generated');
          const rec = recordScenario(s);
          const index = new SeekIndex(rec.tape, s.client, s.durationMs, rec.views, { checkpointEvents });
          for (const f of fractions) {
            const t = Math.round(f * s.durationMs * 100) / 100;
            const frame = index.frameAt(t);
            const fresh = freshRun(s, t);
            expect(frame.events).toBe(fresh.events.length);
            const agg = freshFold(s, fresh.events, batch);
            expect(comparable(frame.snapshot)).toEqual(comparable(freshReplaySnapshot(s, agg, fresh)));
            expect(frame.budget).toEqual(overBudget(fresh.events));
            expect(frame.faults).toEqual(agg.faults);
            expect(atZero(frame.clusterView)).toEqual(atZero(fresh.cluster));
            expect(atZero(frame.clientView)).toEqual(atZero(fresh.client));
          }
        },
      ),
      { numRuns: RUNS, seed: 20_261_201 },
    );
  });

  it('with the scenario\'s pauses: the fault cards leave them out exactly as a fresh fold that pauses at the same times, and the frame lists them up to the cursor', { timeout: 120_000 }, () => {
    let sawPause = false;
    fc.assert(
      fc.property(
        scenarioArb({ maxFaults: 3, maxChanges: 4 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 40, max: 3000 }),
        (input, f, checkpointEvents) => {
          const s = loadScenario(input, 'generated');
          const rec = recordScenario(s);
          const index = new SeekIndex(rec.tape, s.client, s.durationMs, rec.views, { checkpointEvents, pauses: pausesOf(s) });
          const t = Math.round(f * s.durationMs * 100) / 100;
          const frame = index.frameAt(t);
          const fresh = freshRun(s, t);
          const agg = freshFoldWithPauses(s, fresh.events, t);
          expect(comparable(frame.snapshot)).toEqual(comparable(freshReplaySnapshot(s, agg, fresh)));
          expect(frame.pauses).toEqual(agg.pauses.map((p) => (p.to === null ? { from: p.from, to: frame.cursorMs } : p)));
          if (frame.pauses.length > 0) sawPause = true;
        },
      ),
      { numRuns: RUNS, seed: 20_261_203 },
    );
    expect(sawPause).toBe(true);
  });

  it('a pause while a fault is open: no healthy throughput is lost to it, at any cursor and any checkpoint spacing', { timeout: 60_000 }, () => {
    // lost acks from node 0 at 2 s for 1 s; the workload paused 2.5 s → 6.5 s
    const base = loadScenario(presetInput('lost-ack'), 'lost-ack');
    const s = loadScenario({ ...presetInput('lost-ack'), durationMs: 9000, faults: [{ atMs: 2000, action: 'lostAck', node: 0, durationMs: 1000, probability: 0.5 }], changes: [{ atMs: 2500, paused: true }, { atMs: 6500, paused: false }] }, 'paused');
    expect(base.changes).toEqual([]);
    const rec = recordScenario(s);
    const events = rec.tape.events();
    const indexes = [40, 1_000_000].map((checkpointEvents) => new SeekIndex(rec.tape, s.client, s.durationMs, rec.views, { checkpointEvents, pauses: pausesOf(s) }));
    for (const t of [3000, 6600, 9000]) {
      const fresh = freshRun(s, t);
      const agg = freshFoldWithPauses(s, events.filter((e) => e.t <= t), t);
      for (const index of indexes) {
        const frame = index.frameAt(t);
        expect(comparable(frame.snapshot)).toEqual(comparable(freshReplaySnapshot(s, agg, fresh)));
        const card = frame.snapshot.evidence[0];
        // at most the 0.5 s between the fault and the pause (closed-loop users wait out their timeouts)
        expect(card?.healthyLostMs ?? 0).toBeLessThanOrEqual(500);
        expect(frame.pauses).toEqual([{ from: 2500, to: Math.min(t, 6500) }]);
      }
    }
    // without the pause schedule the same run's card counts the paused seconds as lost
    const unpaused = new SeekIndex(rec.tape, s.client, s.durationMs, rec.views).frameAt(6600).snapshot.evidence[0];
    expect(unpaused?.healthyLostMs).toBeGreaterThanOrEqual(3000);
  });

  it('presets with long-parked operations (the storm, the herd): random times, random checkpoint spacing', { timeout: 120_000 }, () => {
    const runs = ['refresh-storm', 'failover', 'herd'].map((id) => {
      const s = loadScenario(shortenedPreset(id, 8000, 0.25), id);
      return { s, rec: recordScenario(s) };
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: runs.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 200, max: 20_000 }), (k, f, checkpointEvents) => {
        const { s, rec } = runs[k] as (typeof runs)[number];
        const index = new SeekIndex(rec.tape, s.client, s.durationMs, rec.views, { checkpointEvents });
        const t = f * s.durationMs;
        const frame = index.frameAt(t);
        const fresh = freshRun(s, t);
        const agg = freshFold(s, fresh.events, 4096);
        expect(comparable(frame.snapshot)).toEqual(comparable(freshReplaySnapshot(s, agg, fresh)));
        expect(atZero(frame.clusterView)).toEqual(atZero(fresh.cluster));
        expect(atZero(frame.clientView)).toEqual(atZero(fresh.client));
      }),
      { numRuns: RUNS, seed: 20_261_202 },
    );
  });

  it('the recording is the run: the tape holds exactly the events of a plain run', () => {
    const s = loadScenario(shortenedPreset('refresh-storm', 4000, 0.3), 'storm');
    const rec = recordScenario(s);
    const plain = freshRun(s, s.durationMs).events;
    expect(rec.tape.length).toBe(plain.length);
    expect(rec.tape.events()).toEqual(plain);
  });

  it('the storm: over-budget operations in flight at the cursor, while the checker (which counts at op.end) may not yet', () => {
    const s = loadScenario(shortenedPreset('refresh-storm', 8000, 0.3), 'storm');
    const rec = recordScenario(s);
    const index = new SeekIndex(rec.tape, s.client, s.durationMs, rec.views);
    const events = rec.tape.events();
    const brute = (t: number) => overBudget(events.filter((e) => e.t <= t));
    let sawInFlight = false;
    for (let t = 0; t <= s.durationMs; t += 250) {
      const b = index.budgetAt(t);
      expect(b).toEqual(brute(t));
      if (b.overBudgetInFlight > 0) sawInFlight = true;
    }
    expect(sawInFlight).toBe(true);
    // at the cursor the report counts them; at the end it is the checker's
    const inside = [...Array(33).keys()].map((k) => k * 250).find((t) => index.budgetAt(t).overBudgetInFlight > 0) as number;
    const check = index.frameAt(inside).snapshot.invariants?.checks.find((c) => c.name === 'attemptBudgetKept');
    expect(check).toMatchObject({ ok: false, expected: true });
    expect(check?.violations).toBe(index.budgetAt(inside).overBudgetInFlight + index.budgetAt(inside).overBudgetEnded);
    expect(index.wholeRun?.checks.find((c) => c.name === 'attemptBudgetKept')?.ok).toBe(false);
    const m = index.memory();
    expect(m.events).toBe(events.length);
    expect(m.totalBytes).toBeGreaterThan(m.tapeBytes);
  });
});
