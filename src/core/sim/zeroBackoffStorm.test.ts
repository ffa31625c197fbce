/**
 * The refresh storm with no backoff: `deadlineReplacesAttempts` (only the
 * deadline bounds the retry loop) and `backoffMillis` 0. An operation on a
 * segment with no owner in the client's map fails locally in 0 ms
 * (PartitionUnavailable) and its refresh returns at once — debounced after a
 * refresh that just ended, or abandoned with a wait budget of 0 — so with
 * 0 ms sleeps the next attempt came at the same instant, forever: the run
 * never advanced (the CLI stopped on the scheduler's guard after 20 M timers;
 * Replay's recording grew to ~6 GB first). Found by the property generator
 * with fault bursts, in `ui/replay/seekIndex.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { recordScenario } from '../replay/recordRun';
import { VirtualScheduler } from '../time/virtualScheduler';
import { runScenario } from './runScenario';
import { loadScenario, type ScenarioInput } from './scenario';

const storm = { backoffMillis: 0, bugs: { deadlineReplacesAttempts: true } } as const;

const scenarios: readonly (readonly [string, ScenarioInput])[] = [
  [
    // node 1 hangs for good with no replicas: once it is declared dead its segments have no owner,
    // and every refresh within the debounce window of the last one is debounced at once
    'a segment left without an owner, the refresh debounced',
    {
      name: 'storm-debounced',
      seed: 1,
      durationMs: 1500,
      cluster: { nodes: 2, segments: 8, replicas: 0, heartbeatMs: 50, failureTimeoutMs: 200 },
      client: { operationTimeoutMs: 1000, ...storm },
      workload: { ratePerSec: 200, maxInFlight: 16, keys: 50 },
      faults: [{ atMs: 0, action: 'hang', node: 1 }],
    },
  ],
  [
    // node 0 hangs at once: the first map fetch waits on it, operations start with no owner and give up waiting at once
    'no map yet, a wait budget of 0',
    {
      name: 'storm-wait-0',
      seed: 1,
      durationMs: 500,
      cluster: { nodes: 2, segments: 8, replicas: 0 },
      client: { operationTimeoutMs: 50, refreshWaitBudgetMs: 0, ...storm },
      workload: { ratePerSec: 200, maxInFlight: 16, keys: 50 },
      faults: [{ atMs: 0, action: 'hang', node: 0 }],
    },
  ],
];

describe('deadlineReplacesAttempts with backoffMillis 0: the storm ends at each deadline instead of stopping virtual time', () => {
  it.each(scenarios)('%s', (_, input) => {
    const s = loadScenario(input, 'storm');
    const timeout = s.client.operationTimeoutMs as number;
    // a small same-instant guard: the stuck run fails fast instead of after 20 M timers
    const { summary } = runScenario(s, { clock: new VirtualScheduler({ maxTimersAtOneInstant: 100_000 }) });
    expect(summary.ops.endReasons.deadline).toBeGreaterThan(0);
    expect(summary.invariants.checks.find((c) => c.name === 'attemptBudgetKept')).toMatchObject({ ok: false, expected: true });
    expect(summary.invariants.checks.find((c) => c.name === 'deadlineKept')).toMatchObject({ ok: true });
    // Replay records the same run to its end; the storm is there (beyond the attempt budget of 3) and
    // bounded: at most one attempt per ms of the deadline
    const rec = recordScenario(s);
    expect(rec.tape.endT).toBeLessThanOrEqual(s.durationMs);
    expect(rec.tape.length).toBeLessThan(100_000);
    const maxAttempt = Math.max(...rec.tape.events().map((e) => (e.type === 'attempt.start' ? e.attempt : 0)));
    expect(maxAttempt).toBeGreaterThan(3);
    expect(maxAttempt).toBeLessThanOrEqual(timeout + 1);
  });
});

/**
 * The same at the workload's level: a closed-loop user (no think time) whose operations the client
 * fails without sending anything — no owner in its map (node 1 failed over, no replicas), a refresh
 * that returns at once (debounced), no retry left (`maxAttempts` 1, or `ZARIS_DISABLE_RETRIES`) —
 * started its next operation inside the last one's callback: the call stack overflowed ("Maximum
 * call stack size exceeded"; with retries left and `backoffMillis` 0, virtual time stopped instead).
 * Now the user waits the shortest real timer (1 ms) after an operation that took no time.
 */
describe('a closed-loop user whose operations take no time', () => {
  const input = (client: ScenarioInput['client']): ScenarioInput => ({
    name: 'zero-time-ops',
    seed: 1,
    durationMs: 3000,
    cluster: { nodes: 3, segments: 3, replicas: 0, heartbeatMs: 50, failureTimeoutMs: 300 },
    client,
    workload: { concurrency: 2, keys: 1, mix: { get: 1 } },
    faults: [{ atMs: 100, action: 'failover', node: 1 }],
  });
  it.each([
    ['maxAttempts 1', { maxAttempts: 1 }],
    ['disableRetries', { disableRetries: true }],
    ['backoffMillis 0', { backoffMillis: 0 }],
  ] as const)('%s: the run reaches its end, at most one such operation per user per ms', (_, client) => {
    const s = loadScenario(input(client), 'zero');
    // (the one key's segment is node 1's: PartitionUnavailable below shows it lost its owner)
    const { summary } = runScenario(s, { clock: new VirtualScheduler({ maxTimersAtOneInstant: 100_000 }) });
    expect(summary.statuses.PartitionUnavailable).toBeGreaterThan(1000);
    expect(summary.ops.total).toBeLessThanOrEqual(2 * s.durationMs + 1000);
    expect(summary.invariants.ok).toBe(true);
  });
});
