/**
 * The control plane (SPEC §4) on virtual time: failure detection and
 * promotion, hang/resume, scale-out migration, failback catch-up and
 * handoff, link/ack faults, and ignored actions. Cluster: 3 nodes, 8
 * segments, 1 replica unless a test says otherwise (segment s: owner s % 3,
 * replica (s + 1) % 3; node 1 owns 1, 4, 7).
 */
import { describe, expect, it } from 'vitest';
import { NO_OWNER, type NodeId } from '../domain/clusterMap';
import type { DataRequest, OpKind } from '../domain/protocol';
import { KvStatus } from '../domain/status';
import { Rng } from '../rng';
import { Recorder } from '../sim/testkit/recorder';
import { VirtualScheduler } from '../time/virtualScheduler';
import { DEFAULT_CLUSTER_CONFIG, type ClusterConfig } from './clusterConfig';
import { SimCluster } from '../sim/simCluster';
import { SimControl } from '../sim/simControl';
import type { FaultCommand } from './faults';
import { linkLatencyMs } from './linkFaults';

const HB = DEFAULT_CLUSTER_CONFIG.heartbeatMs;
const TIMEOUT = DEFAULT_CLUSTER_CONFIG.failureTimeoutMs;

function setup(config: Partial<ClusterConfig> = {}, seed = 1) {
  const cluster = new SimCluster({ ...DEFAULT_CLUSTER_CONFIG, nodes: 3, segments: 8, replicas: 1, ...config });
  const state = cluster.control;
  const sched = new VirtualScheduler();
  const rec = new Recorder();
  // the engine hands the control plane a derived stream; do the same so heartbeat phases vary with the seed
  const cp = new SimControl(cluster, sched, Rng.seeded(seed).stream(2), rec);
  const at = (t: number, f: FaultCommand): void => {
    sched.advanceTo(t);
    cp.apply(f);
  };
  return { cluster, state, sched, rec, cp, at };
}

let nextOp = 1;
function ask(cluster: SimCluster, node: NodeId, segment: number, kind: OpKind, key = 'probe') {
  const req: DataRequest = { type: 'data', kind, key, segment, epoch: cluster.control.epoch, op: nextOp++, value: kind === 'put' ? 'p' : undefined };
  return cluster.serve(node, req);
}

/** writes `n` keys into segment `s` through its owner (replicated synchronously) */
function fill(cluster: SimCluster, s: number, n: number, prefix = 'k'): void {
  const owner = cluster.control.segment(s).owner;
  for (let i = 0; i < n; i++) expect(ask(cluster, owner, s, 'put', `${prefix}${s}.${i}`).status).toBe(KvStatus.Ok);
}

function owners(state: SimCluster['control']): number[] {
  return state.segments.map((s) => s.owner);
}

describe('announce', () => {
  it('emits the initial topology with every segment at epoch 1', () => {
    const { cp, rec } = setup();
    cp.announce();
    expect(rec.events).toEqual([{ t: 0, type: 'topology', epoch: 1, change: 'initial', node: 0, segments: [0, 1, 2, 3, 4, 5, 6, 7] }]);
  });
});

describe('failover', () => {
  it('crashes the node at once; the fault lists its owned segments; nothing moves before detection', () => {
    const { state, sched, rec, at } = setup();
    at(1000, { action: 'failover', node: 1 });
    expect(state.node(1).status).toBe('down');
    expect(state.node(1).declaredDead).toBe(false);
    expect(rec.of('fault')).toEqual([{ t: 1000, type: 'fault', action: 'failover', node: 1, segments: [1, 4, 7] }]);
    expect(state.isServing(1)).toBe(false);
    sched.advanceTo(1000 + TIMEOUT - HB);
    expect(owners(state)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
    expect(state.epoch).toBe(1);
    expect(rec.of('topology')).toEqual([]);
    expect(state.map().nodes).toEqual([0, 1, 2]);
  });

  it('after detection, replicas are promoted: owner changes, epoch rises, topology nodeDown + promoted', () => {
    const { cluster, state, sched, rec, at } = setup();
    at(1000, { action: 'failover', node: 1 });
    sched.runUntilIdle();
    const down = rec.topology('nodeDown');
    expect(down).toHaveLength(1);
    const t = (down[0] as { t: number }).t;
    expect(t).toBeGreaterThan(1000 + TIMEOUT - HB);
    expect(t).toBeLessThanOrEqual(1000 + TIMEOUT + 2 * HB);
    // node 1 owned 1, 4, 7 (replica 2) and was replica of 0, 3, 6
    expect(down[0]).toMatchObject({ epoch: 2, node: 1, segments: [0, 1, 3, 4, 6, 7] });
    expect(rec.topology('promoted')).toEqual([{ t, type: 'topology', epoch: 2, change: 'promoted', node: 1, segments: [1, 4, 7] }]);
    expect(rec.topology('unavailable')).toEqual([]);
    expect(owners(state)).toEqual([0, 2, 2, 0, 2, 2, 0, 2]);
    for (const s of [0, 1, 3, 4, 6, 7]) expect(state.segment(s).replicas).toEqual([]);
    expect(state.segment(2).replicas).toEqual([0]);
    expect(state.node(1).declaredDead).toBe(true);
    expect(state.epoch).toBe(2);
    expect(state.map()).toMatchObject({ epoch: 2, owners: [0, 2, 2, 0, 2, 2, 0, 2], nodes: [0, 2] });
    // promoted owners serve the data the crashed owner acknowledged
    expect(ask(cluster, 2, 1, 'put').status).toBe(KvStatus.Ok);
    expect(ask(cluster, 0, 1, 'get').status).toBe(KvStatus.Moved);
  });

  it('acknowledged writes survive the failover (the promoted replica holds them)', () => {
    const { cluster, state, sched, at } = setup();
    for (const s of [1, 4, 7]) fill(cluster, s, 5);
    at(10, { action: 'failover', node: 1 });
    sched.runUntilIdle();
    for (const s of [1, 4, 7]) {
      expect(state.segment(s).owner).toBe(2);
      for (let i = 0; i < 5; i++) expect(ask(cluster, 2, s, 'get', `k${s}.${i}`)).toEqual({ status: KvStatus.Ok, value: 'p', version: 1 });
    }
  });

  it('segments with no live replica become NO_OWNER (topology unavailable), remembering their last owner', () => {
    const { cluster, state, sched, rec, at } = setup({ replicas: 0 });
    at(1000, { action: 'failover', node: 1 });
    sched.runUntilIdle();
    expect(rec.topology('promoted')).toEqual([]);
    expect(rec.topology('unavailable')).toMatchObject([{ node: 1, segments: [1, 4, 7], epoch: 2 }]);
    for (const s of [1, 4, 7]) {
      expect(state.segment(s)).toMatchObject({ owner: NO_OWNER, lastOwner: 1, phase: 'stable' });
      expect(ask(cluster, 0, s, 'get').status).toBe(KvStatus.Unavailable);
    }
    expect(state.map().owners).toEqual([0, NO_OWNER, 2, 0, NO_OWNER, 2, 0, NO_OWNER]);
  });

  it('a segment whose replica is down too becomes NO_OWNER; the others are promoted to live replicas', () => {
    const { state, sched, at } = setup();
    at(0, { action: 'failover', node: 2 });
    at(0, { action: 'failover', node: 1 });
    sched.runUntilIdle();
    // 1, 4, 7: owner 1, replica 2 (down) → nobody; 2, 5: owner 2, replica 0 → promoted
    expect(owners(state)).toEqual([0, NO_OWNER, 0, 0, NO_OWNER, 0, 0, NO_OWNER]);
    for (const s of [1, 4, 7]) expect(state.segment(s).lastOwner).toBe(1);
    for (const s of state.segments) expect(s.replicas).toEqual([]);
    expect(state.map().nodes).toEqual([0]);
  });

  // SPEC §4 + the detector's own contract (controlPlane.ts scheduleDetection):
  // "detection takes between failureTimeoutMs and failureTimeoutMs + 2 periods".
  it.each([1, 2, 3, 4, 5])('detection delay is within [failureTimeoutMs, failureTimeoutMs + 2 × heartbeatMs] of the crash (seed %i)', (seed) => {
    const violations: string[] = [];
    for (let crashAt = 0; crashAt < 2 * HB; crashAt += HB / 10) {
      for (const action of ['failover', 'hang'] as const) {
        const { sched, rec, at } = setup({}, seed);
        at(crashAt, { action, node: 1 });
        sched.runUntilIdle();
        const t = rec.topology('nodeDown')[0]?.t;
        const delay = t === undefined ? Infinity : t - crashAt;
        if (!(delay >= TIMEOUT && delay <= TIMEOUT + 2 * HB)) violations.push(`${action} at ${crashAt} ms detected after ${delay} ms`);
      }
    }
    expect(violations).toEqual([]);
  });
});

describe('hang', () => {
  it('a hung node stops serving; detection and promotion are the same as for a crash', () => {
    for (const seed of [1, 2, 3]) {
      const crash = setup({}, seed);
      crash.at(777, { action: 'failover', node: 1 });
      crash.sched.runUntilIdle();
      const hang = setup({}, seed);
      hang.at(777, { action: 'hang', node: 1 });
      expect(hang.state.node(1).status).toBe('hung');
      expect(hang.state.isServing(1)).toBe(false);
      expect(hang.rec.of('fault')).toEqual([{ t: 777, type: 'fault', action: 'hang', node: 1, segments: [1, 4, 7] }]);
      hang.sched.runUntilIdle();
      expect(hang.rec.topology('nodeDown')[0]?.t).toBe(crash.rec.topology('nodeDown')[0]?.t);
      expect(owners(hang.state)).toEqual(owners(crash.state));
      expect(hang.state.epoch).toBe(crash.state.epoch);
      expect(hang.state.node(1).status).toBe('hung');
    }
  });

  it('resume before detection keeps ownership: no nodeDown, epoch unchanged, node up again', () => {
    const { cluster, state, sched, rec, at } = setup();
    at(1000, { action: 'hang', node: 1 });
    at(2000, { action: 'resume', node: 1 });
    expect(state.node(1).status).toBe('up');
    expect(rec.of('fault')[1]).toEqual({ t: 2000, type: 'fault', action: 'resume', node: 1, segments: [] });
    sched.advanceTo(20_000);
    expect(rec.topology('nodeDown')).toEqual([]);
    expect(owners(state)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
    expect(state.epoch).toBe(1);
    expect(ask(cluster, 1, 1, 'put').status).toBe(KvStatus.Ok);
  });

  it('a hang with durationMs shorter than detection resumes by itself and keeps ownership', () => {
    const { state, sched, rec, at } = setup();
    at(1000, { action: 'hang', node: 1, durationMs: 1500 });
    expect(rec.of('fault')[0]?.detail).toBe('for 1.5 s');
    sched.advanceTo(2499);
    expect(state.node(1).status).toBe('hung');
    sched.advanceTo(2500);
    expect(state.node(1).status).toBe('up');
    expect(rec.of('fault').map((f) => [f.t, f.action])).toEqual([
      [1000, 'hang'],
      [2500, 'resume'],
    ]);
    sched.runUntilIdle();
    expect(rec.topology('nodeDown')).toEqual([]);
    expect(state.epoch).toBe(1);
  });

  it('a hang that outlasts detection is failed over; resuming then rejoins like a failback', () => {
    const { state, sched, rec, at } = setup();
    at(0, { action: 'hang', node: 1 });
    sched.advanceTo(TIMEOUT + 2 * HB);
    expect(state.node(1).declaredDead).toBe(true);
    expect(owners(state)).toEqual([0, 2, 2, 0, 2, 2, 0, 2]);
    at(6000, { action: 'resume', node: 1 });
    expect(rec.of('fault').at(-1)).toMatchObject({ action: 'resume', node: 1, detail: 'was declared dead: rejoins' });
    expect(state.node(1).status).toBe('recovering');
    expect(state.node(1).declaredDead).toBe(false);
    sched.runUntilIdle();
    expect(owners(state)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
    expect(state.node(1).status).toBe('up');
  });

  // Each hang starts a new silence: a detector timer left over from an earlier
  // hang (which was resumed) must not declare the node dead early.
  it('hang → resume → hang: the second hang is detected no earlier than failureTimeoutMs − heartbeatMs after it began', () => {
    const { state, sched, rec, at } = setup();
    at(0, { action: 'hang', node: 1 });
    at(1000, { action: 'resume', node: 1 });
    at(2000, { action: 'hang', node: 1 });
    sched.advanceTo(2000 + TIMEOUT - HB);
    expect(rec.topology('nodeDown').map((e) => e.t)).toEqual([]);
    expect(state.node(1).declaredDead).toBe(false);
    expect(owners(state)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
  });

  // A hang without durationMs "lasts until resume/failback" (faults.ts): the
  // auto-resume timer of an earlier, already resumed hang must not end it.
  it('a later open-ended hang is not ended by the durationMs timer of an earlier hang', () => {
    const { state, sched, at } = setup();
    at(0, { action: 'hang', node: 1, durationMs: 1000 });
    at(200, { action: 'resume', node: 1 });
    at(500, { action: 'hang', node: 1 });
    sched.advanceTo(1500);
    expect(state.node(1).status).toBe('hung');
  });
});

describe('scale-out', () => {
  it.each([
    [3, 8, 1],
    [3, 64, 1],
    [2, 9, 1],
    [1, 8, 0],
    [4, 16, 2],
    [5, 64, 2],
  ])('%i nodes, %i segments, %i replicas: the new node gets floor(S / N) segments', (nodes, segments, replicas) => {
    const { state, sched, rec, at } = setup({ nodes, segments, replicas });
    at(100, { action: 'scaleOut' });
    const target = Math.floor(segments / (nodes + 1));
    const fault = rec.of('fault')[0];
    expect(fault).toMatchObject({ action: 'scaleOut', node: nodes });
    expect(fault?.segments).toHaveLength(target);
    expect([...(fault?.segments ?? [])]).toEqual([...new Set(fault?.segments)].sort((a, b) => a - b));
    sched.runUntilIdle();
    expect(state.ownedBy(nodes)).toEqual(fault?.segments);
    expect(rec.topology('migrationEnd').flatMap((e) => e.segments).sort((a, b) => a - b)).toEqual(fault?.segments);
    // taken from the fullest owners: nobody is left with fewer than the joiner
    for (let n = 0; n < nodes; n++) expect(state.ownedBy(n).length).toBeGreaterThanOrEqual(target);
    expect(state.node(nodes).status).toBe('up');
  });

  it('each planned segment migrates (writes answer Migrating) for migrationBaseMs + keys × migrationMsPerKey, then the new node owns it, the old replica stays and the old owner answers Moved', () => {
    const cfg = { migrationBaseMs: 200, migrationMsPerKey: 0.5 };
    // the same scale-out each time (deterministic): one run per planned segment, so following one
    // segment's move in time never runs past a moment of the other's
    const scaledOut = () => {
      const r = setup(cfg);
      for (let s = 0; s < 8; s++) fill(r.cluster, s, (s + 1) * 10);
      const before = r.state.segments.map((s) => ({ ...s, replicas: [...s.replicas] }));
      r.at(1000, { action: 'scaleOut' });
      return { ...r, before };
    };
    const first = scaledOut();
    const { state, rec, before } = first;
    const joiner = 3;
    expect(state.nodes).toHaveLength(4);
    expect(state.node(joiner).status).toBe('joining');
    expect(state.epoch).toBe(2);
    expect(state.map().nodes).toEqual([0, 1, 2, 3]);
    expect(rec.topology('nodeJoined')).toMatchObject([{ t: 1000, node: joiner, epoch: 2 }]);
    const plan = rec.of('fault')[0]?.segments ?? [];
    expect(plan).toHaveLength(2);

    let last = first;
    for (const [k, s] of plan.entries()) {
      last = k === 0 ? first : scaledOut();
      const { cluster, state, sched, rec } = last;
      const start = rec.topology('migrationStart').find((e) => e.segments.includes(s));
      expect(start).toBeDefined();
      const t0 = (start as { t: number }).t;
      const window = cfg.migrationBaseMs + (s + 1) * 10 * cfg.migrationMsPerKey;
      const source = before[s]?.owner as number;
      const other = [0, 1, 2].find((n) => n !== source && !before[s]?.replicas.includes(n)) as number;
      // inside the window
      sched.advanceTo(t0 + window - 0.001);
      expect(state.segment(s)).toMatchObject({ phase: 'migrating', owner: source });
      expect(ask(cluster, source, s, 'put').status).toBe(KvStatus.Migrating);
      expect(ask(cluster, source, s, 'delete', `k${s}.0`).status).toBe(KvStatus.Migrating);
      expect(ask(cluster, source, s, 'get', `k${s}.0`).status).toBe(KvStatus.Ok);
      expect(ask(cluster, joiner, s, 'get').status).toBe(KvStatus.Moved);
      // at the end of the window the source is fenced (OwnershipChanging, reads too) while its final
      // state travels (a replication round trip plus its keys' copy time); then ownership flips
      sched.advanceTo(t0 + window);
      expect(state.segment(s)).toMatchObject({ phase: 'migrating', owner: source });
      expect(cluster.node(source).fenced[s]).toBe(1);
      expect(ask(cluster, source, s, 'put').status).toBe(KvStatus.OwnershipChanging);
      expect(ask(cluster, source, s, 'get', `k${s}.0`).status).toBe(KvStatus.OwnershipChanging);
      const rt = DEFAULT_CLUSTER_CONFIG.replicationMs + cluster.keyCount(source, s) * DEFAULT_CLUSTER_CONFIG.migrationMsPerKey;
      sched.advanceTo(t0 + window + rt - 0.001);
      expect(cluster.node(source).fenced[s]).toBe(1);
      sched.advanceTo(t0 + window + rt);
      const end = rec.topology('migrationEnd').find((e) => e.segments.includes(s));
      expect(end?.t).toBe(t0 + window + rt);
      expect(cluster.node(source).fenced[s]).toBe(0);
      const replica = before[s]?.replicas[0] as number;
      expect(state.segment(s)).toMatchObject({ phase: 'stable', owner: joiner, preferred: joiner, replicas: [replica] });
      expect(cluster.store(joiner, s)).toEqual(cluster.store(source, s));
      expect(cluster.keyCount(joiner, s)).toBe((s + 1) * 10);
      expect(ask(cluster, joiner, s, 'put').status).toBe(KvStatus.Ok);
      // SPEC §3/§4: the old owner no longer holds the segment (settled → Moved);
      // the in-sync replica stays one (ReplicaWriteRejected, reads served)
      expect(ask(cluster, source, s, 'put').status).toBe(KvStatus.Moved);
      expect(ask(cluster, source, s, 'get', `k${s}.1`).status).toBe(KvStatus.Moved);
      expect(ask(cluster, replica, s, 'put').status).toBe(KvStatus.ReplicaWriteRejected);
      expect(ask(cluster, replica, s, 'get', `k${s}.1`).status).toBe(KvStatus.Ok);
      expect(ask(cluster, other, s, 'get').status).toBe(KvStatus.Moved);
    }
    last.sched.runUntilIdle();
    expect(last.state.node(joiner).status).toBe('up');
    // one epoch for the join, one per migrated segment
    expect(last.state.epoch).toBe(2 + plan.length);
    // untouched segments keep their owners
    for (let s = 0; s < 8; s++) if (!plan.includes(s)) expect(last.state.segment(s).owner).toBe(before[s]?.owner);
  });

  it('a segment whose replica was lost keeps the old owner as its replica (it is the only other copy)', () => {
    const { cluster, state, sched, rec, at } = setup({ migrationBaseMs: 1_000 });
    at(0, { action: 'scaleOut' });
    const s = (rec.of('fault')[0]?.segments ?? [])[0] as number;
    const source = state.segment(s).owner;
    const replica = state.segment(s).replicas[0] as number;
    state.segment(s).replicas = []; // its replica missed a write and left (see dataPath.test.ts)
    void replica;
    sched.runUntilIdle();
    expect(state.segment(s)).toMatchObject({ owner: 3, replicas: [source] });
    expect(ask(cluster, source, s, 'put').status).toBe(KvStatus.ReplicaWriteRejected);
  });

  it('with replicas 0 the old owner answers Moved after the flip', () => {
    const { cluster, state, sched, rec, at } = setup({ replicas: 0 });
    at(0, { action: 'scaleOut' });
    sched.runUntilIdle();
    const plan = rec.of('fault')[0]?.segments ?? [];
    expect(plan.length).toBeGreaterThan(0);
    for (const s of plan) {
      expect(state.segment(s).replicas).toEqual([]);
      expect(ask(cluster, s % 3, s, 'put').status).toBe(KvStatus.Moved);
      expect(ask(cluster, s % 3, s, 'get').status).toBe(KvStatus.Moved);
    }
  });

  it('migrationConcurrency bounds the migrations running at once', () => {
    const { rec, sched, at } = setup({ segments: 64, migrationConcurrency: 1 });
    at(0, { action: 'scaleOut' });
    sched.runUntilIdle();
    const starts = rec.topology('migrationStart');
    const ends = rec.topology('migrationEnd');
    expect(starts).toHaveLength(16);
    expect(ends).toHaveLength(16);
    for (let i = 1; i < starts.length; i++) expect(starts[i]?.t).toBe(ends[i - 1]?.t);

    const two = setup({ segments: 64, migrationConcurrency: 2 });
    two.at(0, { action: 'scaleOut' });
    two.sched.runUntilIdle();
    const events = two.rec.of('topology').filter((e) => e.change === 'migrationStart' || e.change === 'migrationEnd');
    let running = 0;
    let peak = 0;
    for (const e of events) {
      running += e.change === 'migrationStart' ? 1 : -1;
      peak = Math.max(peak, running);
    }
    expect(peak).toBe(2);
  });

  it('a migration whose source crashes is abandoned (the segment is failed over instead)', () => {
    const { state, sched, rec, at } = setup({ migrationBaseMs: 10_000 });
    at(0, { action: 'scaleOut' });
    const plan = rec.of('fault')[0]?.segments ?? [];
    const s = plan[0] as number;
    const source = state.segment(s).owner;
    at(1, { action: 'failover', node: source });
    sched.runUntilIdle();
    expect(state.segment(s).owner).not.toBe(source);
    expect(state.segment(s).owner).not.toBe(3);
    expect(state.segment(s).phase).toBe('stable');
  });
});

describe('failback', () => {
  function failedOver(config: Partial<ClusterConfig> = {}) {
    const env = setup(config);
    for (let s = 0; s < 8; s++) fill(env.cluster, s, 4, 'old');
    env.at(0, { action: 'failover', node: 1 });
    env.sched.runUntil(() => env.rec.topology('nodeDown').length > 0);
    return env;
  }

  it('the returning node catches up, then takes its segments back through a handoff window (OwnershipChanging), after which the former owner is a replica', () => {
    const cfg = { catchUpBaseMs: 500, catchUpMsPerKey: 2, handoffMs: 300 };
    const { cluster, state, sched, rec, at } = failedOver(cfg);
    expect(owners(state)).toEqual([0, 2, 2, 0, 2, 2, 0, 2]);
    // writes while node 1 is away: node 1's copy is stale
    for (const s of [1, 4, 7]) fill(cluster, s, 3, 'new');
    const epoch = state.epoch;
    at(6000, { action: 'failback', node: 1 });
    expect(rec.of('fault').at(-1)).toEqual({ t: 6000, type: 'fault', action: 'failback', node: 1, segments: [1, 4, 7] });
    expect(state.node(1).status).toBe('recovering');
    expect(state.node(1).declaredDead).toBe(false);
    expect(state.map().nodes).toEqual([0, 1, 2]);
    expect(state.epoch).toBe(epoch + 1);
    // its preferred segments, and node 0's, which it is an assigned replica of (it left their replica sets when it died)
    expect(rec.topology('catchUpStart')).toMatchObject([{ t: 6000, node: 1, segments: [0, 1, 3, 4, 6, 7] }]);
    for (const s of [0, 3, 6]) expect(state.segment(s)).toMatchObject({ owner: 0, replicas: [], placement: [0, 1] });
    // during catch-up node 2 still owns them; node 1 is no replica yet
    expect(ask(cluster, 1, 1, 'get').status).toBe(KvStatus.Moved);
    const keys = 3 * (4 + 3) + 3 * 4;
    const catchUp = cfg.catchUpBaseMs + keys * cfg.catchUpMsPerKey;
    sched.advanceTo(6000 + catchUp - 0.001);
    expect(rec.topology('catchUpEnd')).toEqual([]);
    expect(owners(state)).toEqual([0, 2, 2, 0, 2, 2, 0, 2]);
    sched.advanceTo(6000 + catchUp);
    expect(rec.topology('catchUpEnd')).toMatchObject([{ t: 6000 + catchUp, segments: [0, 1, 3, 4, 6, 7] }]);
    // back in the replica sets of the segments it is only assigned to (no handback there)
    for (const s of [0, 3, 6]) {
      expect(state.segment(s)).toMatchObject({ owner: 0, replicas: [1], phase: 'stable' });
      expect(cluster.store(1, s)).toEqual(cluster.store(0, s));
    }
    // the former owner (node 2) is fenced while its final states travel (a replication round trip plus
    // each segment's keys' copy time); ownership flips when the last has arrived
    expect(rec.topology('handoffStart')).toEqual([]);
    for (const s of [1, 4, 7]) {
      expect(state.segment(s)).toMatchObject({ owner: 2, phase: 'transitioning' });
      expect(cluster.node(2).fenced[s]).toBe(1);
      expect(ask(cluster, 2, s, 'put').status).toBe(KvStatus.OwnershipChanging);
      expect(ask(cluster, 2, s, 'get').status).toBe(KvStatus.OwnershipChanging);
    }
    const rt = DEFAULT_CLUSTER_CONFIG.replicationMs + Math.max(...[1, 4, 7].map((s) => cluster.keyCount(2, s))) * DEFAULT_CLUSTER_CONFIG.migrationMsPerKey;
    sched.advanceTo(6000 + catchUp + rt - 0.001);
    expect(rec.topology('handoffStart')).toEqual([]);
    sched.advanceTo(6000 + catchUp + rt);
    expect(rec.topology('handoffStart')).toMatchObject([{ t: 6000 + catchUp + rt, node: 1, segments: [1, 4, 7], epoch: epoch + 2 }]);
    expect(state.node(1).status).toBe('up');
    for (const s of [1, 4, 7]) {
      expect(state.segment(s)).toMatchObject({ owner: 1, replicas: [2], phase: 'transitioning' });
      expect(cluster.store(1, s)).toEqual(cluster.store(2, s));
      expect(cluster.keyCount(1, s)).toBe(7);
      // non-owners answer OwnershipChanging, whatever the kind; the new owner serves
      for (const kind of ['get', 'put'] as const) {
        expect(ask(cluster, 0, s, kind).status).toBe(KvStatus.OwnershipChanging);
        expect(ask(cluster, 2, s, kind).status).toBe(KvStatus.OwnershipChanging);
      }
      expect(ask(cluster, 1, s, 'put', `new${s}.0`)).toEqual({ status: KvStatus.Ok, version: 2 });
      expect(cluster.store(2, s).get(`new${s}.0`)?.version).toBe(2);
    }
    sched.advanceTo(6000 + catchUp + rt + cfg.handoffMs - 0.001);
    expect(state.segment(1).phase).toBe('transitioning');
    sched.advanceTo(6000 + catchUp + rt + cfg.handoffMs);
    expect(rec.topology('handoffEnd')).toMatchObject([{ t: 6000 + catchUp + rt + cfg.handoffMs, segments: [1, 4, 7] }]);
    for (const s of [1, 4, 7]) {
      expect(state.segment(s)).toMatchObject({ owner: 1, replicas: [2], phase: 'stable', preferred: 1 });
      expect(ask(cluster, 2, s, 'put').status).toBe(KvStatus.ReplicaWriteRejected);
      expect(ask(cluster, 2, s, 'get', `old${s}.0`).status).toBe(KvStatus.Ok);
      expect(ask(cluster, 0, s, 'get').status).toBe(KvStatus.Moved);
    }
    expect(owners(state)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
  });

  it('failback of the last owner of NO_OWNER segments reclaims them at once, with their data', () => {
    const { cluster, state, sched, rec, at } = failedOver({ replicas: 0 });
    for (const s of [1, 4, 7]) expect(state.segment(s).owner).toBe(NO_OWNER);
    const epoch = state.epoch;
    at(6000, { action: 'failback', node: 1 });
    expect(rec.topology('reclaimed')).toMatchObject([{ t: 6000, node: 1, segments: [1, 4, 7], epoch: epoch + 1 }]);
    expect(owners(state)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
    expect(state.epoch).toBe(epoch + 1);
    for (const s of [1, 4, 7]) expect(ask(cluster, 1, s, 'get', `old${s}.3`)).toEqual({ status: KvStatus.Ok, value: 'p', version: 1 });
    sched.runUntilIdle();
    expect(state.node(1).status).toBe('up');
    expect(rec.topology('handoffStart')).toEqual([]);
  });

  it('failback before detection cancels it: the node keeps its segments and is never declared dead', () => {
    const { state, sched, rec, at } = setup();
    at(0, { action: 'failover', node: 1 });
    at(500, { action: 'failback', node: 1 });
    expect(state.node(1).status).toBe('recovering');
    sched.runUntilIdle();
    expect(rec.topology('nodeDown')).toEqual([]);
    expect(state.node(1)).toMatchObject({ status: 'up', declaredDead: false });
    expect(owners(state)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
  });

  it('failback without a node brings back the first node that is down', () => {
    const { state, sched, rec, at } = setup();
    at(0, { action: 'failover', node: 2 });
    sched.runUntilIdle();
    at(6000, { action: 'failback' });
    expect(rec.of('fault').at(-1)).toMatchObject({ action: 'failback', node: 2, segments: [2, 5] });
    sched.runUntilIdle();
    expect(owners(state)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
  });

  it('a crash during catch-up aborts it (no handoff to a dead node)', () => {
    const { state, sched, rec, at } = failedOver({ catchUpBaseMs: 1000 });
    at(6000, { action: 'failback', node: 1 });
    at(6100, { action: 'failover', node: 1 });
    sched.runUntilIdle();
    expect(rec.topology('catchUpEnd')).toEqual([]);
    expect(rec.topology('handoffStart')).toEqual([]);
    for (const s of [1, 4, 7]) expect(state.segment(s).owner).toBe(2);
  });
});

/** the latency factor on node `n`'s link now (linkFaults.ts) */
function slowAt(cluster: SimCluster, sched: { now(): number }, n: number): number {
  return linkLatencyMs(cluster.node(n).link, sched.now(), 1);
}

describe('slow links and lost acknowledgements', () => {
  it('slow sets the latency factor for durationMs, then clears it', () => {
    const { cluster, state, sched, rec, at } = setup();
    at(100, { action: 'slow', node: 0, factor: 4, durationMs: 1000 });
    expect(slowAt(cluster, sched, 0)).toBe(4);
    expect(rec.of('fault')).toEqual([{ t: 100, type: 'fault', action: 'slow', node: 0, segments: [0, 3, 6], detail: '4× latency for 1 s', durationMs: 1000 }]);
    sched.advanceTo(1099);
    expect(slowAt(cluster, sched, 0)).toBe(4);
    sched.advanceTo(1100);
    expect(slowAt(cluster, sched, 0)).toBe(1);
    expect(state.epoch).toBe(1);
  });

  it('slow defaults: factor 10 for 5000 ms', () => {
    const { cluster, sched, at } = setup();
    at(0, { action: 'slow', node: 2 });
    expect(slowAt(cluster, sched, 2)).toBe(10);
    sched.advanceTo(4999);
    expect(slowAt(cluster, sched, 2)).toBe(10);
    sched.advanceTo(5000);
    expect(slowAt(cluster, sched, 2)).toBe(1);
  });

  it('a later slow fault with a different factor is not cleared by the earlier timer', () => {
    const { cluster, sched, at } = setup();
    at(0, { action: 'slow', node: 0, factor: 10, durationMs: 1000 });
    at(500, { action: 'slow', node: 0, factor: 5, durationMs: 5000 });
    sched.advanceTo(2000);
    expect(slowAt(cluster, sched, 0)).toBe(5);
    sched.advanceTo(5500);
    expect(slowAt(cluster, sched, 0)).toBe(1);
  });

  // Same rule when the factor happens to be equal: the second fault asked for 5 s.
  it('a later slow fault with the same factor lasts its full duration', () => {
    const { cluster, sched, at } = setup();
    at(0, { action: 'slow', node: 0, factor: 10, durationMs: 1000 });
    at(500, { action: 'slow', node: 0, factor: 10, durationMs: 5000 });
    sched.advanceTo(2000);
    expect(slowAt(cluster, sched, 0)).toBe(10);
  });

  it('lostAck sets the window and probability; the window closes after durationMs; the details read in seconds and shares', () => {
    const { cluster, state, sched, rec, at } = setup();
    at(100, { action: 'lostAck', node: 0, probability: 0.5, durationMs: 2000 });
    expect(cluster.node(0).link).toMatchObject({ lostAckUntil: 2100, lostAckProbability: 0.5 });
    expect(rec.of('fault')).toEqual([{ t: 100, type: 'fault', action: 'lostAck', node: 0, segments: [0, 3, 6], detail: '50 % of acks lost for 2 s', durationMs: 2000 }]);
    sched.advanceTo(2100);
    expect(sched.now()).toBeGreaterThanOrEqual(cluster.node(0).link.lostAckUntil);
    // defaults: p = 1 for 2000 ms
    at(3000, { action: 'lostAck', node: 1 });
    expect(cluster.node(1).link).toMatchObject({ lostAckUntil: 5000, lostAckProbability: 1 });
    expect(state.epoch).toBe(1);
    // every link fault's detail reads in seconds and shares, as the page gives them (it said "p=0.5 for 10000 ms")
    at(4000, { action: 'partition', node: 0, direction: 'in', durationMs: 2500 });
    at(4010, { action: 'partition', node: 1, direction: 'out', durationMs: 10_000 });
    at(4020, { action: 'garble', node: 2, probability: 0.125, durationMs: 1250 });
    at(4030, { action: 'lostAck', node: 0, probability: 1, durationMs: 400 });
    at(4040, { action: 'slow', node: 1, factor: 2.5, durationMs: 60_000 });
    expect(rec.of('fault').filter((e) => e.t >= 4000).map((e) => e.detail)).toEqual([
      'requests to the node lost for 2.5 s',
      'replies of the node lost for 10 s',
      '12.5 % of replies garbled for 1.25 s',
      '100 % of acks lost for 0.4 s',
      '2.5× latency for 60 s',
    ]);
  });
});

describe('ignored actions emit a fault with a detail and change nothing', () => {
  type Row = [name: string, prepare: FaultCommand[], fault: FaultCommand, detail: string];
  const rows: Row[] = [
    ['failover of a node already down', [{ action: 'failover', node: 1 }], { action: 'failover', node: 1 }, 'ignored: node is already down'],
    ['hang of a node that is down', [{ action: 'failover', node: 1 }], { action: 'hang', node: 1 }, 'ignored: node is down'],
    ['hang of a hung node', [{ action: 'hang', node: 1 }], { action: 'hang', node: 1 }, 'ignored: node is hung'],
    ['resume of a node that is up', [], { action: 'resume', node: 1 }, 'ignored: node is up'],
    ['resume of a crashed node', [{ action: 'failover', node: 1 }], { action: 'resume', node: 1 }, 'ignored: node is down'],
    ['failback of a node that is up', [], { action: 'failback', node: 1 }, 'ignored: node is up and was not failed over'],
    ['failback of a hung node not failed over', [{ action: 'hang', node: 1 }], { action: 'failback', node: 1 }, 'ignored: node is hung and was not failed over'],
    ['failback with no node down', [], { action: 'failback' }, 'ignored: no node is down'],
  ];

  it.each(rows)('%s', (_name, prepare, fault, detail) => {
    const { state, rec, cp } = setup();
    for (const f of prepare) cp.apply(f);
    const snapshot = JSON.stringify({ nodes: state.nodes, segments: state.segments, epoch: state.epoch });
    rec.clear();
    cp.apply(fault);
    expect(rec.events).toHaveLength(1);
    expect(rec.events[0]).toMatchObject({ type: 'fault', action: fault.action, segments: [], detail });
    expect(JSON.stringify({ nodes: state.nodes, segments: state.segments, epoch: state.epoch })).toBe(snapshot);
  });

  it.each<FaultCommand>([
    { action: 'failover', node: 3 },
    { action: 'hang', node: 7 },
    { action: 'slow' },
    { action: 'lostAck', node: 99 },
  ])('a node that does not exist is an error (%o)', (fault) => {
    const { cp } = setup();
    expect(() => cp.apply(fault)).toThrow(/does not exist/);
  });
});
