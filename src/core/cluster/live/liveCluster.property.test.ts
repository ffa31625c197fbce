/**
 * Property tests of the live protocol (LiveControl + LiveNodes on the
 * virtual-time test kit): writes, kills, restarts, scale-outs, hangs,
 * resumes and link faults (slow, lost ack, one-way partition, garbled
 * reply) at any instant (including a kill and a restart in the same
 * millisecond), random disk latencies, 0–2 replicas. After the schedule the cluster settles and
 * the headless runs' invariant checker judges it: reads never see less
 * than an acknowledged write, the cluster's data holds every acknowledged
 * version, segments with an up, caught-up replica stay available; and no
 * two acknowledged writes of a key carry the same version (a reused version
 * means an acknowledged write was lost and overwritten).
 * ZARIS_PROPERTY_RUNS=N (default 300) and ZARIS_PROPERTY_SEED=S as in the
 * headless property tests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_OWNER } from '../../domain/clusterMap';
import type { OpKind } from '../../domain/protocol';
import type { FaultCommand } from '../faults';
import { LiveCluster, type AckedWrite } from './testkit/liveCluster';

const RUNS = Number(process.env.ZARIS_PROPERTY_RUNS ?? '') || 300;
const SEED = Number(process.env.ZARIS_PROPERTY_SEED ?? '') || 20_261_201;

type StepKind = OpKind | 'kill' | 'restart' | 'scaleOut' | 'hang' | 'resume' | 'link';

/** the link faults a 'link' step draws from (the fault registry's kinds, on the test kit's shell) */
const LINK_FAULTS: readonly FaultCommand[] = [
  { action: 'slow', factor: 20, durationMs: 300 },
  { action: 'lostAck', probability: 0.5, durationMs: 300 },
  { action: 'partition', direction: 'in', durationMs: 300 },
  { action: 'partition', direction: 'out', durationMs: 300 },
  { action: 'garble', probability: 0.5, durationMs: 300 },
];

interface Step {
  /** ms after the previous step (0: the same instant) */
  readonly dt: number;
  readonly kind: StepKind;
  readonly pick: number;
  readonly key: number;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  dt: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 600 })),
  kind: fc.constantFrom<StepKind>('put', 'put', 'put', 'get', 'delete', 'kill', 'restart', 'restart', 'scaleOut', 'hang', 'resume', 'link'),
  pick: fc.nat({ max: 1000 }),
  key: fc.nat({ max: 11 }),
});

const caseArb = fc.record({
  nodes: fc.integer({ min: 2, max: 3 }),
  replicas: fc.integer({ min: 0, max: 2 }),
  segments: fc.integer({ min: 3, max: 8 }),
  /** one-way latency of node → control links (the disk stream), ms */
  diskLatency: fc.integer({ min: 1, max: 8 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 40 }),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function duplicateVersions(acked: readonly AckedWrite[]): string[] {
  const seen = new Set<string>();
  const dup: string[] = [];
  for (const a of acked) {
    const id = `${a.key}@${a.version}`;
    if (seen.has(id)) dup.push(`${id} (op ${a.op})`);
    seen.add(id);
  }
  return dup;
}

/** runs one schedule and returns what went wrong (empty: nothing) */
function check(k: Case): string[] {
  const c = new LiveCluster({
    nodes: k.nodes,
    replicas: Math.min(k.replicas, k.nodes - 1),
    segments: k.segments,
    heartbeatMs: 50,
    failureTimeoutMs: 300,
    catchUpBaseMs: 50,
    migrationBaseMs: 50,
    handoffMs: 50,
  });
  c.latency = (from, to) => (to === 'c' && typeof from === 'number' ? k.diskLatency : 1);
  const down = new Set<number>();
  let members = k.nodes;
  let nextValue = 0;
  for (const s of k.steps) {
    if (s.dt > 0) c.run(s.dt);
    const node = s.pick % members;
    const key = `k${s.key}`;
    switch (s.kind) {
      case 'kill':
        if (down.has(node) || members - down.size <= 1) break;
        c.kill(node);
        down.add(node);
        break;
      case 'restart': {
        const target = [...down][s.pick % Math.max(1, down.size)];
        if (target === undefined) break;
        c.restart(target);
        down.delete(target);
        break;
      }
      case 'scaleOut':
        if (members >= k.nodes + 2) break;
        c.scaleOut();
        members++;
        break;
      case 'hang':
        if (!down.has(node)) c.fault({ action: 'hang', node, durationMs: s.key * 100 });
        break;
      case 'resume':
        if (!down.has(node)) c.fault({ action: 'resume', node });
        break;
      case 'link':
        if (!down.has(node)) c.fault({ ...(LINK_FAULTS[s.key % LINK_FAULTS.length] as FaultCommand), node });
        break;
      default: {
        // routed by the control plane's truth, else to the picked node
        const owner = c.control.state.segment(c.segment(key)).owner;
        const to = owner !== NO_OWNER && !down.has(owner) ? owner : node;
        c.send(to, s.kind, key, s.kind === 'put' ? `v${nextValue++}` : undefined);
      }
    }
  }
  // settle: every handoff, catch-up and detection completes
  c.run(6_000);
  const report = c.verify();
  const problems = report.checks.filter((ch) => !ch.ok).map((ch) => `${ch.name}: ${ch.detail} (ops ${ch.examples.join(', ')})`);
  const dup = duplicateVersions(c.acked);
  if (dup.length > 0) problems.push(`acknowledged writes with the same version (one was lost): ${dup.slice(0, 5).join(', ')}`);
  return problems;
}

describe('live protocol under kills and restarts at any instant', () => {
  it('the same-millisecond kill and restart after an acknowledged write keeps the write (replicas 0)', () => {
    const c = new LiveCluster({ replicas: 0 });
    c.latency = (from, to) => (to === 'c' && typeof from === 'number' ? 5 : 1);
    const key = c.keyIn(0);
    expect(c.ask(0, 'put', key, 'one', 20)?.version).toBe(1);
    let acked: number | undefined;
    c.send(0, 'put', key, 'two', (r) => (acked = r.version));
    // the node has committed and acknowledged once the disk confirmed; kill and restart in that same instant
    c.sched.runUntil(() => acked !== undefined);
    expect(acked).toBe(2);
    c.kill(0);
    c.restart(0);
    c.run(200);
    expect(c.ask(0, 'get', key)).toMatchObject({ value: 'two', version: 2 });
    expect(c.ask(0, 'put', key, 'three')).toMatchObject({ version: 3 });
    expect(c.verify().ok).toBe(true);
  });

  it(
    `keep every acknowledged write and the availability rule (${RUNS} random schedules)`,
    () => {
      let kills = 0;
      fc.assert(
        fc.property(caseArb, (k) => {
          kills += k.steps.filter((s) => s.kind === 'kill').length;
          const problems = check(k);
          if (problems.length > 0) throw new Error(`${problems.join('\n')}\ncase: ${JSON.stringify(k)}`);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      expect(kills).toBeGreaterThan(RUNS / 2);
    },
    30_000 + RUNS * 200,
  );
});
