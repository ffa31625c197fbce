import { describe, expect, it } from 'vitest';
import { SimEngine } from '../sim/engine';
import { loadScenario } from '../sim/scenario';
import { shortenedPreset } from '../sim/testkit/presetInputs';
import { Recorder } from '../sim/testkit/recorder';
import type { ZarisEvent } from '../telemetry/events';
import { opStory, type OpStory } from './opStory';
import { TimelineRecorder } from './timelineRecorder';

/** op 5 is refused (Moved), starts refresh 4, then hits OwnershipChanging, rides refresh 9 (started by op 6), gives up waiting, and succeeds on attempt 3 */
const SCRIPT: ZarisEvent[] = [
  { t: 0, type: 'op.start', op: 5, kind: 'put', key: 'k7', segment: 3, vu: 2, deadline: 60_000, budget: 3, cond: { ifMatchVersion: 3 } },
  { t: 0, type: 'attempt.start', op: 5, attempt: 1, node: 1, epoch: 1 },
  { t: 1, type: 'op.start', op: 6, kind: 'get', key: 'k8', segment: 4, vu: 3 },
  { t: 2, type: 'attempt.end', op: 5, attempt: 1, node: 1, status: 'Moved', latencyMs: 2 },
  { t: 2, type: 'refresh.request', op: 5, cause: 'Moved' },
  { t: 2, type: 'refresh.start', op: 5, refresh: 4 },
  { t: 7, type: 'refresh.end', refresh: 4, ok: true, epochBefore: 1, epochAfter: 2, node: 0, fetches: 1 },
  { t: 7, type: 'backoff', op: 5, attempt: 1, delayMs: 100, status: 'Moved' },
  { t: 107, type: 'attempt.start', op: 5, attempt: 2, node: 2, epoch: 2 },
  { t: 108, type: 'refresh.request', op: 6, cause: 'Timeout' },
  { t: 108, type: 'refresh.start', op: 6, refresh: 9 },
  { t: 109, type: 'attempt.end', op: 5, attempt: 2, node: 2, status: 'OwnershipChanging', latencyMs: 2 },
  { t: 109, type: 'refresh.request', op: 5, cause: 'OwnershipChanging' },
  { t: 109, type: 'refresh.coalesced', op: 5, refresh: 9 },
  { t: 120, type: 'refresh.waitAbandoned', op: 5, refresh: 9, waitedMs: 11 },
  { t: 120, type: 'backoff', op: 5, attempt: 2, delayMs: 200, status: 'OwnershipChanging' },
  { t: 130, type: 'refresh.end', refresh: 9, ok: false, epochBefore: 2, epochAfter: 2, node: null, fetches: 3 },
  { t: 320, type: 'attempt.start', op: 5, attempt: 3, node: 2, epoch: 2 },
  { t: 321, type: 'attempt.end', op: 5, attempt: 3, node: 2, error: 'Timeout', latencyMs: 1 },
  { t: 321, type: 'op.end', op: 5, error: 'Timeout', attempts: 3, latencyMs: 321, reason: 'attemptsExhausted' },
];

describe('opStory', () => {
  it('tells the whole story of a retried operation', () => {
    const s = opStory(SCRIPT, 5) as OpStory;
    expect(s).toMatchObject({ op: 5, kind: 'put', key: 'k7', segment: 3, vu: 2, cond: { ifMatchVersion: 3 }, deadline: 60_000, budget: 3 });
    expect(s).toMatchObject({ startMs: 0, endMs: 321, latencyMs: 321, outcome: 'Timeout', reason: 'attemptsExhausted', version: null });
    expect(s.attempts).toEqual([
      { kind: 'attempt', attempt: 1, node: 1, epoch: 1, startMs: 0, endMs: 2, outcome: 'Moved', status: 'Moved', latencyMs: 2 },
      { kind: 'attempt', attempt: 2, node: 2, epoch: 2, startMs: 107, endMs: 109, outcome: 'OwnershipChanging', status: 'OwnershipChanging', latencyMs: 2 },
      { kind: 'attempt', attempt: 3, node: 2, epoch: 2, startMs: 320, endMs: 321, outcome: 'Timeout', error: 'Timeout', latencyMs: 1 },
    ]);
    expect(s.refreshWaits).toEqual([
      { kind: 'refreshWait', requestMs: 2, cause: 'Moved', refresh: 4, refreshNo: 1, how: 'started', coalesced: false, resumedMs: 7, abandoned: false, refreshOk: true },
      { kind: 'refreshWait', requestMs: 109, cause: 'OwnershipChanging', refresh: 9, refreshNo: 2, how: 'coalesced', coalesced: true, resumedMs: 120, abandoned: true, refreshOk: false },
    ]);
    expect(s.backoffs).toEqual([
      { kind: 'backoff', afterAttempt: 1, startMs: 7, endMs: 107, delayMs: 100, outcome: 'Moved' },
      { kind: 'backoff', afterAttempt: 2, startMs: 120, endMs: 320, delayMs: 200, outcome: 'OwnershipChanging' },
    ]);
    expect(s.steps.map((x) => x.kind)).toEqual(['attempt', 'refreshWait', 'backoff', 'attempt', 'refreshWait', 'backoff', 'attempt']);
  });

  it('an op still in flight, a debounced refresh, and an unknown op', () => {
    const events: ZarisEvent[] = [
      ...SCRIPT.slice(0, 3),
      { t: 1, type: 'attempt.start', op: 6, attempt: 1, node: 0, epoch: 1 },
      { t: 3, type: 'attempt.end', op: 6, attempt: 1, node: 0, error: 'Socket', latencyMs: 2 },
      { t: 3, type: 'refresh.request', op: 6, cause: 'Socket' },
      { t: 3, type: 'refresh.debounced', op: 6, refresh: 5, sinceLastMs: 100 },
      { t: 3, type: 'backoff', op: 6, attempt: 1, delayMs: 100, error: 'Socket' },
      { t: 103, type: 'attempt.start', op: 6, attempt: 2, node: 0, epoch: 1 },
    ];
    const s = opStory(events, 6) as OpStory;
    expect(s.endMs).toBeNull();
    expect(s.outcome).toBeNull();
    expect(s.refreshWaits).toEqual([{ kind: 'refreshWait', requestMs: 3, cause: 'Socket', refresh: 5, refreshNo: null, how: 'debounced', coalesced: false, resumedMs: 3, abandoned: false, refreshOk: null }]);
    expect(s.attempts[1]).toMatchObject({ attempt: 2, endMs: null, outcome: null, latencyMs: null });
    expect(opStory(events, 99)).toBeNull();
  });

  it('matches the events of a real failover run, op by op', () => {
    const rec = new Recorder();
    new SimEngine(loadScenario(shortenedPreset('failover', 3000, 0.2)), { sinks: [rec] }).run();
    const timeline = new TimelineRecorder();
    for (const e of rec.events) timeline.emit(e);
    const retried = rec.of('op.end').filter((e) => e.attempts > 1);
    expect(retried.length).toBeGreaterThan(10);
    for (const end of retried.slice(0, 40)) {
      const s = opStory(rec.events, end.op) as OpStory;
      const mine = rec.events.filter((e) => 'op' in e && e.op === end.op);
      expect(s.attempts.map((a) => [a.attempt, a.node, a.startMs])).toEqual(mine.flatMap((e) => (e.type === 'attempt.start' ? [[e.attempt, e.node, e.t]] : [])));
      expect(s.attempts.map((a) => a.outcome)).toEqual(mine.flatMap((e) => (e.type === 'attempt.end' ? [e.status ?? e.error] : [])));
      expect(s.backoffs.map((b) => [b.startMs, b.delayMs])).toEqual(mine.flatMap((e) => (e.type === 'backoff' ? [[e.t, e.delayMs]] : [])));
      expect(s.refreshWaits).toHaveLength(mine.filter((e) => e.type === 'refresh.request').length);
      for (const w of s.refreshWaits) {
        expect(w.refresh).not.toBeNull();
        expect(w.resumedMs).not.toBeNull();
      }
      expect(s).toMatchObject({ endMs: end.t, attempts: expect.any(Array), reason: end.reason });
      expect(s.attempts).toHaveLength(end.attempts);
      // the whole-run timeline tells the same story
      expect(timeline.story(end.op)).toEqual(s);
    }
  }, 30_000);
});
