import { describe, expect, it } from 'vitest';
import { OP_SLOT_RING } from './opSlots';
import { newAttemptStart, newOpEnd, newOpStart } from './events';
import { RunAggregator } from './runAggregator';
import { loadScenario } from '../sim/scenario';
import { runScenario } from '../sim/runScenario';

function start(agg: RunAggregator, op: number, attempts: number): void {
  agg.opStart({ ...newOpStart(), op });
  for (let a = 1; a <= attempts; a++) agg.attemptStart({ ...newAttemptStart(), op, attempt: a });
}

describe('attempts of operations still in flight', () => {
  it('are counted apart from those that ended: the ended ones say 1, the one in flight has started 5', () => {
    const agg = new RunAggregator();
    start(agg, 1, 5);
    start(agg, 2, 1);
    agg.opEnd({ ...newOpEnd(), op: 2, status: 'Ok', attempts: 1, reason: 'success' });
    // an id past the ring (its ring slot is held by op 1): found through the overflow slots too
    start(agg, 1 + OP_SLOT_RING, 7);
    expect(agg.maxAttemptsPerOp).toBe(1);
    expect(agg.maxAttemptsInFlight()).toBe(7);
    agg.opEnd({ ...newOpEnd(), op: 1 + OP_SLOT_RING, status: 'Ok', attempts: 7, reason: 'success' });
    expect(agg.maxAttemptsInFlight()).toBe(5);
  });

  it('end to end: a storm whose operations outlive the run reports the attempts they started', () => {
    // only the 10 s deadline bounds the loop (the bug), node 1 is gone with no replica to promote: its operations retry past the run's end
    const s = loadScenario(
      {
        name: 'in-flight',
        seed: 2,
        durationMs: 3000,
        cluster: { nodes: 3, segments: 12, replicas: 0, heartbeatMs: 50, failureTimeoutMs: 300 },
        client: { operationTimeoutMs: 10_000, bugs: { deadlineReplacesAttempts: true } },
        workload: { concurrency: 8, keys: 100 },
        faults: [{ atMs: 200, action: 'failover', node: 1 }],
      },
      'test',
      {},
    );
    const { summary } = runScenario(s);
    expect(summary.ops.inFlightAtEnd).toBeGreaterThan(0);
    expect(summary.attempts.maxPerOpInFlight).toBeGreaterThan(summary.client.maxAttempts);
    expect(summary.attempts.maxPerOpInFlight).toBeGreaterThan(summary.attempts.maxPerOp);
  });
});
