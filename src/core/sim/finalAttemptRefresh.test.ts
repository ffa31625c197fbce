/**
 * Regression (issue 11, fix 1): the final attempt refreshes the map too.
 * With one attempt per operation (maxAttempts 1 or ZARIS_DISABLE_RETRIES), or
 * a deadline shorter than the attempt timeout, the client used to keep its
 * epoch-1 map for the whole run, so after node 1 was promoted away every
 * dead-segment operation still went to the dead node. Now the map reaches
 * the cluster's epoch and the dead node's failures stop after promotion.
 */
import { describe, expect, it } from 'vitest';
import type { TelemetrySink, ZarisEvent } from '../telemetry/events';
import { runScenario } from './runScenario';
import { loadScenario } from './scenario';

/** per second: attempts that went to node 1 and failed with a transport error */
class DeadNodeFailures implements TelemetrySink {
  readonly perSecond: number[] = [];
  promotedAt: number | null = null;
  emit(e: ZarisEvent): void {
    if (e.type === 'topology' && e.change === 'promoted' && this.promotedAt === null) this.promotedAt = e.t;
    if (e.type === 'attempt.end' && e.node === 1 && e.error !== undefined) {
      const s = Math.floor(e.t / 1000);
      this.perSecond[s] = (this.perSecond[s] ?? 0) + 1;
    }
  }
}

function run(client: Record<string, unknown>, fault: Record<string, unknown>) {
  const scenario = loadScenario(
    {
      name: 'final-attempt-refresh',
      seed: 1,
      durationMs: 14_000,
      cluster: { nodes: 3, segments: 64, replicas: 1 },
      client,
      workload: { ratePerSec: 1000, maxInFlight: 512, keys: 500, mix: { get: 0.5, put: 0.5 } },
      faults: [{ atMs: 3000, node: 1, ...fault }],
    },
    'test',
    {},
  );
  const dead = new DeadNodeFailures();
  const { summary, engine } = runScenario(scenario, { sinks: [dead] });
  return { summary, engine, dead };
}

describe('the final attempt refreshes the map (seed: onMoved is awaited before the loop condition)', () => {
  it.each([
    ['maxAttempts 1', { maxAttempts: 1 }, { action: 'failover' }],
    ['disableRetries', { disableRetries: true }, { action: 'failover' }],
    ['a deadline shorter than the attempt timeout (hung node)', { operationTimeoutMs: 300, attemptTimeoutMs: 1000 }, { action: 'hang' }],
  ] as const)('%s: the client map reaches the new epoch and the dead node stops failing operations', (_label, client, fault) => {
    const { engine, dead } = run(client, fault);
    expect(dead.promotedAt).not.toBeNull();
    expect(engine.state.epoch).toBeGreaterThan(1);
    expect(engine.client.map.epoch).toBe(engine.state.epoch);
    // failures on node 1 while it is down but not yet promoted away …
    const before = dead.perSecond.slice(4, Math.floor((dead.promotedAt as number) / 1000)).reduce((a, b) => a + (b ?? 0), 0);
    expect(before).toBeGreaterThan(0);
    // … and none a second after the promotion (the refreshed map routes to the new owner)
    const after = dead.perSecond.slice(Math.floor((dead.promotedAt as number) / 1000) + 2).reduce((a, b) => a + (b ?? 0), 0);
    expect(after).toBe(0);
  });
});
