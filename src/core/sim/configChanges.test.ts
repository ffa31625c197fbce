/**
 * The configuration schedule (scenario field `changes`): what a live
 * session records when its controls change, replayed by the engine at the
 * same virtual times. Validation names the field; the engine applies client
 * settings to operations started after the change, restarts the workload
 * with the new settings, pauses and resumes it; the run stays deterministic.
 */
import { describe, expect, it } from 'vitest';
import type { ZarisEvent } from '../telemetry/events';
import { InputError } from '../validation';
import { runScenario } from './runScenario';
import { loadScenario, toScenarioInput } from './scenario';

const BASE = {
  name: 'changes',
  seed: 7,
  durationMs: 4000,
  cluster: { nodes: 3, segments: 16, replicas: 1 },
  workload: { concurrency: 8, thinkMs: 5, keys: 200 },
} as const;

function events(input: unknown): { events: ZarisEvent[]; summary: ReturnType<typeof runScenario>['summary'] } {
  const events: ZarisEvent[] = [];
  const { summary } = runScenario(loadScenario(input), { sinks: [{ emit: (e) => events.push(e) }] });
  return { events, summary };
}

const issues = (input: unknown): { path: string; message: string }[] => {
  try {
    loadScenario(input);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return [...(e as InputError).issues];
  }
  throw new Error('accepted');
};

describe('validation of the schedule', () => {
  it('names the bad field of a change', () => {
    expect(issues({ ...BASE, changes: [{ atMs: 100, client: { maxAttempts: 0 } }] })).toEqual([
      { path: 'changes[0].client.maxAttempts', message: expect.stringContaining('maxAttempts must be ≥ 1') },
    ]);
    expect(issues({ ...BASE, changes: [{ atMs: 100, client: { maxAttemps: 5 } }] })[0]?.path).toBe('changes[0].client');
    expect(issues({ ...BASE, changes: [{ atMs: 100 }] })[0]?.message).toMatch(/at least one of client, workload, paused/);
    expect(issues({ ...BASE, changes: [{ atMs: 9000, paused: true }] })).toEqual([
      { path: 'changes[0].atMs', message: 'atMs 9000 is not before the end of the run (durationMs 4000): a change must come before it' },
    ]);
    // exactly at the end it would do nothing either (the workload stops there)
    expect(issues({ ...BASE, changes: [{ atMs: 4000, client: { maxAttempts: 1 } }] })).toEqual([
      { path: 'changes[0].atMs', message: 'atMs 4000 is not before the end of the run (durationMs 4000): a change must come before it' },
    ]);
  });

  it('a change that would leave the workload with nothing to do points at "paused" instead', () => {
    const found = issues({ ...BASE, changes: [{ atMs: 100, workload: { concurrency: 0 } }] });
    expect(found[0]?.path).toBe('changes[0].workload');
    expect(found[0]?.message).toMatch(/"paused": true/);
  });

  it('round-trips through toScenarioInput, sorted by time', () => {
    const s = loadScenario({ ...BASE, changes: [{ atMs: 2000, paused: true }, { atMs: 1000, client: { operationTimeoutMs: 'infinite' } }] });
    expect(s.changes.map((c) => c.atMs)).toEqual([1000, 2000]);
    expect(loadScenario(toScenarioInput(s))).toEqual(s);
  });
});

describe('the engine applies the schedule', { timeout: 30_000 }, () => {
  it('client settings apply to operations started after the change', () => {
    const { events: evs } = events({ ...BASE, changes: [{ atMs: 2000, client: { maxAttempts: 7, operationTimeoutMs: 'infinite' } }] });
    const starts = evs.filter((e) => e.type === 'op.start');
    const before = starts.filter((e) => e.t < 2000);
    const after = starts.filter((e) => e.t >= 2000);
    expect(before.length).toBeGreaterThan(100);
    expect(after.length).toBeGreaterThan(100);
    expect(new Set(before.map((e) => e.budget))).toEqual(new Set([3]));
    expect(new Set(after.map((e) => e.budget))).toEqual(new Set([7]));
    expect(new Set(after.map((e) => e.deadline))).toEqual(new Set([null]));
  });

  it('pause stops new operations until resume; in-flight ones finish', () => {
    const { events: evs } = events({ ...BASE, changes: [{ atMs: 1000, paused: true }, { atMs: 2500, paused: false }] });
    const starts = evs.filter((e) => e.type === 'op.start');
    expect(starts.filter((e) => e.t > 1000 && e.t < 2500)).toEqual([]);
    expect(starts.filter((e) => e.t >= 2500).length).toBeGreaterThan(100);
    // the operations open at the pause finished during it
    const ended = new Set(evs.flatMap((e) => (e.type === 'op.end' && e.t < 2500 ? [e.op] : [])));
    expect(starts.filter((e) => e.t <= 1000 && !ended.has(e.op))).toEqual([]);
  });

  it('a workload change restarts the users with the new settings', () => {
    const { events: evs } = events({ ...BASE, changes: [{ atMs: 2000, workload: { concurrency: 2, keys: 5, mix: { get: 1 } } }] });
    const after = evs.filter((e) => e.type === 'op.start' && e.t > 2010);
    expect(after.length).toBeGreaterThan(50);
    expect(after.every((e) => e.type === 'op.start' && e.kind === 'get' && Number(e.key.slice(1)) < 5)).toBe(true);
    // at most the two new users have an operation open at any time after the switch settles
    expect(new Set(after.map((e) => (e.type === 'op.start' ? e.vu : -1)))).toEqual(new Set([0, 1]));
  });

  it('an open-loop pool that shrinks counts the slots still held', () => {
    const open = { ...BASE, workload: { ratePerSec: 4000, maxInFlight: 64, keys: 200 } };
    const { events: evs } = events({ ...open, changes: [{ atMs: 1500, workload: { maxInFlight: 4 } }] });
    let inFlight = 0;
    let peakAfter = 0;
    for (const e of evs) {
      if (e.type === 'op.start') inFlight++;
      if (e.type === 'op.end') inFlight--;
      if (e.t > 2000) peakAfter = Math.max(peakAfter, inFlight);
    }
    expect(peakAfter).toBeLessThanOrEqual(4);
    expect(peakAfter).toBeGreaterThan(0);
  });

  it('is deterministic, and a schedule with no effect leaves the run untouched', () => {
    const input = { ...BASE, changes: [{ atMs: 1200, client: { backoffMillis: 50 } }, { atMs: 3000, workload: { thinkMs: 1 } }] };
    expect(JSON.stringify(events(input).events)).toBe(JSON.stringify(events(input).events));
    expect(JSON.stringify(events({ ...BASE, changes: [] }).events)).toBe(JSON.stringify(events(BASE).events));
  });

  it('a bug toggled on mid-run explains the violations it causes', () => {
    const storm = {
      ...BASE,
      durationMs: 8000,
      workload: { ratePerSec: 2000, maxInFlight: 512, keys: 500 },
      faults: [{ atMs: 3000, action: 'failover', node: 1 }],
      changes: [{ atMs: 1000, client: { bugs: { deadlineReplacesAttempts: true } } }],
    };
    const { summary } = events(storm);
    const budget = summary.invariants.checks.find((c) => c.name === 'attemptBudgetKept');
    expect(budget?.ok).toBe(false);
    expect(budget?.expected).toBe(true);
  });
});
