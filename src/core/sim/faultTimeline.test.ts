/**
 * A fault the control plane would ignore is refused when the scenario is
 * read (`faultTimeline.ts`), and the validation's model of who is down or
 * hung agrees with the engine's: a schedule that passes runs with no fault
 * ignored (the one timing-dependent case — a failback of a hung node just
 * after `failureTimeoutMs` — aside).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FaultSpec } from '../cluster/faults';
import { FAULT_ACTIONS, type FaultEvent } from '../telemetry/events';
import { InputError } from '../validation';
import { SimEngine } from './engine';
import { faultScheduleIssues } from './faultTimeline';
import { loadScenario, type ScenarioInput } from './scenario';
import { Recorder } from './testkit/recorder';

const OPTS = { members: 3, durationMs: 20_000, failureTimeoutMs: 3_500 };
const issuesOf = (faults: FaultSpec[]) => faultScheduleIssues(faults, OPTS).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('faults the control plane would ignore are refused', () => {
  it.each<[string, FaultSpec[], string | null]>([
    ['failback of a node that is up', [{ atMs: 1, action: 'failback', node: 1 }], 'faults.0.node: node 1 is up at 1 ms: failback brings back a node that was failed over (or hung and declared dead)'],
    ['failback without a node, none down', [{ atMs: 1, action: 'failback' }], 'faults.0: failback at 1 ms names no node and no node is down or hung then: failback brings back a node that was failed over'],
    ['resume of a node not hung', [{ atMs: 1, action: 'resume', node: 0 }], 'faults.0.node: node 0 is not hung at 1 ms: resume needs a hung node'],
    ['a hang of a hung node', [{ atMs: 1, action: 'hang', node: 0 }, { atMs: 2, action: 'hang', node: 0 }], 'faults.1.node: node 0 is already hung at 2 ms (hang at 1 ms): resume it first'],
    ['a hang of a crashed node', [{ atMs: 1, action: 'failover', node: 0 }, { atMs: 2, action: 'hang', node: 0 }], 'faults.1.node: node 0 is down at 2 ms (failover at 1 ms): a hang needs a node that runs; fail it back first'],
    ['a resume after the hang ran out', [{ atMs: 1, action: 'hang', node: 0, durationMs: 100 }, { atMs: 1000, action: 'resume', node: 0 }], 'faults.1.node: node 0 is not hung at 1000 ms (its hang ended at 101 ms): resume needs a hung node'],
    ['a resume of a crashed node', [{ atMs: 1, action: 'failover', node: 2 }, { atMs: 5, action: 'resume', node: 2 }], 'faults.1.node: node 2 is down at 5 ms (failover at 1 ms): resume needs a hung node'],
    ['a failback of a hung node before it can be declared dead', [{ atMs: 1000, action: 'hang', node: 1 }, { atMs: 2000, action: 'failback', node: 1 }], 'faults.1.node: node 1 is hung at 2000 ms (since 1000 ms) and cannot be declared dead before 4500 ms (cluster.failureTimeoutMs 3500): resume it, or fail it back after that'],
    // the engine's firstDown takes the lowest-numbered node down or hung: here hung node 0, not crashed node 1
    [
      'a failback without a node that would pick a hung node',
      [{ atMs: 1, action: 'hang', node: 0 }, { atMs: 2, action: 'failover', node: 1 }, { atMs: 3, action: 'failback' }],
      'faults.2: the first node down or hung, node 0, is hung at 3 ms (since 1 ms) and cannot be declared dead before 3501 ms (cluster.failureTimeoutMs 3500): resume it, or fail it back after that',
    ],
    ['failover, failback, failover again', [{ atMs: 1, action: 'failover', node: 1 }, { atMs: 5000, action: 'failback' }, { atMs: 9000, action: 'failover', node: 1 }], null],
    ['a resume at the very instant the hang ends (the schedule fires first)', [{ atMs: 1, action: 'hang', node: 0, durationMs: 100 }, { atMs: 101, action: 'resume', node: 0 }], null],
    ['a hang after the last one ran out', [{ atMs: 1, action: 'hang', node: 0, durationMs: 100 }, { atMs: 200, action: 'hang', node: 0 }], null],
    ['a crash of a hung node, then its failback', [{ atMs: 1, action: 'hang', node: 0 }, { atMs: 2, action: 'failover', node: 0 }, { atMs: 3, action: 'failback', node: 0 }], null],
    ['a failback of a hung node after failureTimeoutMs', [{ atMs: 1000, action: 'hang', node: 1 }, { atMs: 9000, action: 'failback', node: 1 }], null],
  ])('%s', (_what, faults, expected) => {
    expect(issuesOf(faults)).toEqual(expected === null ? [] : [expected]);
  });

  it('the scenario loader names the fault and exits before the run', () => {
    const input: ScenarioInput = { name: 't', seed: 1, durationMs: 1000, faults: [{ atMs: 1, action: 'failback', node: 1 }] };
    expect(() => loadScenario(input)).toThrow(InputError);
  });
});

describe('validation and the engine agree on who is down or hung', () => {
  const NODE_FAULTS = ['failover', 'failback', 'hang', 'resume', 'scaleOut'] as const;
  const draw = fc.array(
    fc.record({
      atMs: fc.integer({ min: 0, max: 11_999 }),
      action: fc.constantFrom(...NODE_FAULTS),
      node: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      durationMs: fc.option(fc.integer({ min: 1, max: 3_000 }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 10 },
  );

  it('a schedule that passes validation runs with no fault ignored (200 random schedules of node faults)', () => {
    expect(NODE_FAULTS.every((a) => (FAULT_ACTIONS as readonly string[]).includes(a))).toBe(true);
    let passed = 0;
    fc.assert(
      fc.property(draw, (raw) => {
        const faults: FaultSpec[] = raw.map((f) => {
          if (f.action === 'scaleOut') return { atMs: f.atMs, action: f.action };
          if (f.action === 'failback') return f.node === undefined ? { atMs: f.atMs, action: f.action } : { atMs: f.atMs, action: f.action, node: f.node };
          const node = f.node ?? 0;
          return f.action === 'hang' && f.durationMs !== undefined ? { atMs: f.atMs, action: f.action, node, durationMs: f.durationMs } : { atMs: f.atMs, action: f.action, node };
        });
        // keep each drawn fault that validation accepts after the ones kept before it
        const opts = { members: 3, durationMs: 12_000, failureTimeoutMs: 3_500 };
        const kept: FaultSpec[] = [];
        for (const f of [...faults].sort((a, b) => a.atMs - b.atMs)) if (faultScheduleIssues([...kept, f], opts).length === 0) kept.push(f);
        if (kept.length >= 2) passed++;
        const rec = new Recorder();
        const input: ScenarioInput = { name: 'p', seed: 1, durationMs: 12_000, cluster: { nodes: 3, segments: 8, replicas: 1 }, workload: { concurrency: 2, thinkMs: 50, keys: 20 }, faults: kept };
        const engine = new SimEngine(loadScenario(input), { sinks: [rec] });
        engine.run();
        const ignored = rec.events.filter((e): e is FaultEvent => e.type === 'fault' && (e.detail ?? '').startsWith('ignored'));
        // the one case validation cannot decide: a hung node's failback, once it may have been declared dead
        const undecidable = ignored.filter((e) => e.action === 'failback');
        expect(ignored.filter((e) => !undecidable.includes(e)).map((e) => `${e.action} n${e.node} at ${e.t}: ${e.detail ?? ''}`)).toEqual([]);
      }),
      { numRuns: 200, seed: 11 },
    );
    expect(passed).toBeGreaterThan(100);
  });
});
