import { describe, expect, it } from 'vitest';
import { FAULT_ACTIONS } from '../../core/telemetry/events';
import { loadScenario } from '../../core/sim/scenario';
import { InputError } from '../../core/validation';
import { checkRealFaults, REAL_FAULT_ACTIONS } from './realFaults';
import { validateForRedis } from './redisEngine';
import { EngineInputError } from './redisServers';

const base = { name: 'x', seed: 1, durationMs: 5000, cluster: { nodes: 3, replicas: 1 } };

describe('faults on a real Redis Cluster', () => {
  it('the registry holds the actions Redis can do; the rest are refused in one line naming them and the allowed ones', () => {
    expect(REAL_FAULT_ACTIONS).toEqual(['failover', 'hang', 'resume', 'failback', 'scaleOut']);
    expect(FAULT_ACTIONS.filter((a) => !REAL_FAULT_ACTIONS.includes(a))).toEqual(['slow', 'lostAck', 'partition', 'garble']);
    expect(() => checkRealFaults([{ action: 'failover' }, { action: 'lostAck' }, { action: 'slow' }, { action: 'slow' }])).toThrow(
      new EngineInputError('faults: lostAck, slow cannot be done on a real Redis Cluster (allowed with --engine redis: failover, hang, resume, failback, scaleOut)'),
    );
    expect(() => checkRealFaults([{ action: 'hang' }, { action: 'resume' }])).not.toThrow();
  });

  it('faults may target replica processes on Redis (ids after the masters), not in the simulation', () => {
    const input = { ...base, faults: [{ atMs: 1000, action: 'hang', node: 4 }] };
    expect(() => loadScenario(input)).toThrow(InputError);
    expect(loadScenario(input, 'x', {}, 'redis').faults[0]?.node).toBe(4);
    expect(() => loadScenario({ ...base, faults: [{ atMs: 1000, action: 'hang', node: 6 }] }, 'x', {}, 'redis')).toThrow(/node 6 does not exist at 1000 ms \(nodes 0\.\.5\)/);
  });

  it('refuses --wait-replicas above the replicas per master, or with ioredis', () => {
    const s = loadScenario(base);
    expect(() => validateForRedis(s, 2)).toThrow('--wait-replicas 2 is more than cluster.replicas 1 (allowed: 0..1)');
    expect(() => validateForRedis(s, 1, 'ioredis')).toThrow(/--client zaris only/);
    expect(() => validateForRedis(s, 1, 'zaris')).not.toThrow();
  });
});
