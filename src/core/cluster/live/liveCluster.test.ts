/**
 * The live control protocol (LiveControl + LiveNode, as the workers run
 * them) on virtual time with simulated ports: one epoch per crash, fenced
 * handoffs (no split brain on failback or scale-out), Moved after a
 * migration, durable restarts, and the data the final-state check reads.
 * Cluster: 3 nodes, replicas 1 unless a test says otherwise (segment s:
 * owner s % 3, replica (s + 1) % 3).
 */
import { describe, expect, it } from 'vitest';
import { KvStatus } from '../../domain/status';
import { NO_OWNER } from '../../domain/clusterMap';
import { promotionBoundMs } from '../../sim/availabilityRule';
import { LiveCluster, type AckedWrite } from './testkit/liveCluster';

const DETECTION_MS = 3_500 + 2 * 500 + 500;

/** two acknowledged writes of one key with the same version: one of them was lost (split brain) */
function duplicateVersions(acked: readonly AckedWrite[]): AckedWrite[] {
  const seen = new Map<string, AckedWrite>();
  const dup: AckedWrite[] = [];
  for (const a of acked) {
    const id = `${a.key}@${a.version}`;
    const first = seen.get(id);
    if (first !== undefined) dup.push(first, a);
    else seen.set(id, a);
  }
  return dup;
}

describe('a crash', () => {
  it('is one topology change: writes that miss the dead replica move no epoch; detection bumps it once', () => {
    const c = new LiveCluster({ segments: 64 });
    const keys = Array.from({ length: 64 }, (_, s) => c.keyIn(s));
    for (const k of keys) c.send(c.segment(k) % 3, 'put', k, 'a');
    c.run(50);
    expect(c.control.state.epoch).toBe(1);
    c.kill(1);
    // node 1 is the replica of ≈21 segments: every write there misses it
    for (let round = 0; round < 3; round++) {
      for (const k of keys) if (c.segment(k) % 3 !== 1) c.send(c.segment(k) % 3, 'put', k, `b${round}`);
      c.run(400);
    }
    const lostReplicaSegments = Array.from({ length: 64 }, (_, s) => s).filter((s) => (s + 1) % 3 === 1);
    for (const s of lostReplicaSegments) expect(c.control.state.segment(s).replicas).toEqual([]);
    expect(c.control.state.epoch).toBe(1);
    c.run(DETECTION_MS);
    expect(c.control.state.epoch).toBe(2);
    const changes = c.rec.of('topology').map((e) => [e.change, e.epoch]);
    expect(changes).toEqual([
      ['initial', 1],
      ['nodeDown', 2],
      ['promoted', 2],
    ]);
  });
});

describe('failback handoff', () => {
  it('fences the old owner first: a write racing the handoff is never acknowledged by both owners', () => {
    const c = new LiveCluster();
    const key = c.keyIn(0); // segment 0: owner 0, replica 1
    expect(c.ask(0, 'put', key, 'v0')?.status).toBe(KvStatus.Ok);
    c.kill(0);
    c.run(DETECTION_MS);
    expect(c.control.state.segment(0).owner).toBe(1);
    // the old owner (node 1) hears from the control plane late; the returning node early
    c.latency = (from, to) => (from === 'c' && to === 1 ? 30 : 1);
    c.restart(0);
    const t0 = c.sched.now();
    // a stale client writes to node 1, a fresh one to node 0, every ms through the handoff
    for (let i = 0; i < 2_000; i++) {
      c.sched.at(t0 + i, () => {
        c.send(1, 'put', key, `stale${i}`);
        c.send(0, 'put', key, `fresh${i}`);
      });
    }
    c.run(2_500);
    expect(c.control.state.segment(0)).toMatchObject({ owner: 0, replicas: [1], phase: 'stable' });
    expect(c.rec.topology('handoffStart')).toHaveLength(1);
    const mine = c.acked.filter((a) => a.key === key && a.t > t0);
    expect(mine.some((a) => a.node === 1)).toBe(true); // writes were acknowledged on both sides of the flip
    expect(mine.some((a) => a.node === 0)).toBe(true);
    expect(duplicateVersions(mine)).toEqual([]);
    // every node 1 ack precedes every node 0 ack: one owner at a time
    const lastOld = Math.max(...mine.filter((a) => a.node === 1).map((a) => a.version));
    const firstNew = Math.min(...mine.filter((a) => a.node === 0).map((a) => a.version));
    expect(lastOld).toBeLessThan(firstNew);
    // the final state holds the newest acknowledged write
    const newest = mine.reduce((a, b) => (b.version > a.version ? b : a));
    expect(c.ask(0, 'get', key)).toMatchObject({ status: KvStatus.Ok, version: newest.version, value: newest.value });
  });

  it('the old owner answers OwnershipChanging while fenced and the handoff lasts; afterwards it is a replica', () => {
    const c = new LiveCluster();
    const key = c.keyIn(0);
    c.ask(0, 'put', key, 'v0');
    c.kill(0);
    c.run(DETECTION_MS);
    c.latency = (from, to) => (from === 'c' && to === 1 ? 30 : 1);
    c.restart(0);
    const statuses = new Set<KvStatus>();
    const t0 = c.sched.now();
    for (let i = 0; i < 1_500; i++) c.sched.at(t0 + i, () => c.send(1, 'put', key, 'x', (r) => statuses.add(r.status)));
    c.run(2_000);
    expect(statuses).toContain(KvStatus.OwnershipChanging);
    expect(c.ask(1, 'put', key, 'y')?.status).toBe(KvStatus.ReplicaWriteRejected);
    expect(c.ask(1, 'get', key)?.status).toBe(KvStatus.Ok);
  });
});

describe('scale-out', () => {
  it('a migrated segment is answered Moved by its old owner; no read at the old owner misses a write the new owner acknowledged', () => {
    const c = new LiveCluster({ migrationBaseMs: 100 });
    const keys = Array.from({ length: 8 }, (_, s) => c.keyIn(s));
    for (const k of keys) c.send(c.segment(k) % 3, 'put', k, 'v0');
    c.run(50);
    c.scaleOut();
    const plan = c.rec.of('fault')[0]?.segments ?? [];
    expect(plan.length).toBeGreaterThan(0);
    const s = plan[0] as number;
    const key = keys[s] as string;
    const source = s % 3;
    // the old owner hears from the control plane late
    c.latency = (from, to) => (from === 'c' && to === source ? 30 : 1);
    // reads at the old owner, writes at the new owner, every ms through the migration
    const stale: string[] = [];
    const t0 = c.sched.now();
    for (let i = 0; i < 1_000; i++) {
      c.sched.at(t0 + i, () => {
        const ackedBefore = Math.max(0, ...c.acked.filter((a) => a.key === key).map((a) => a.version));
        c.send(source, 'get', key, undefined, (r) => {
          if (r.status === KvStatus.Ok && (r.version ?? 0) < ackedBefore) stale.push(`read v${r.version} after v${ackedBefore} acked`);
        });
        c.send(3, 'put', key, `n${i}`);
      });
    }
    c.run(1_500);
    expect(c.control.state.segment(s)).toMatchObject({ owner: 3, replicas: [(s + 1) % 3], phase: 'stable' });
    expect(c.acked.filter((a) => a.key === key && a.node === 3).length).toBeGreaterThan(0);
    expect(stale).toEqual([]);
    // SPEC §3/§4: the old owner no longer holds the segment → Moved; the replica stays one
    expect(c.ask(source, 'get', key)?.status).toBe(KvStatus.Moved);
    expect(c.ask(source, 'put', key, 'x')?.status).toBe(KvStatus.Moved);
    expect(c.ask((s + 1) % 3, 'put', key, 'x')?.status).toBe(KvStatus.ReplicaWriteRejected);
    expect(c.ask(3, 'put', key, 'x')?.status).toBe(KvStatus.Ok);
  });
});

describe('durable nodes', () => {
  it('with replicas 0 a restarted node replays its disk: its segments come back with every acknowledged write', () => {
    const c = new LiveCluster({ replicas: 0 });
    const keys = [0, 3, 6].map((s) => c.keyIn(s)); // node 0's segments
    for (const k of keys) {
      expect(c.ask(0, 'put', k, 'one')?.status).toBe(KvStatus.Ok);
      expect(c.ask(0, 'put', k, 'two')?.status).toBe(KvStatus.Ok);
    }
    expect(c.ask(0, 'delete', keys[2] as string)?.status).toBe(KvStatus.Ok);
    c.kill(0);
    c.run(DETECTION_MS);
    expect(c.control.state.segment(0).owner).toBe(-1);
    expect(c.ask(1, 'get', keys[0] as string)?.status).toBe(KvStatus.Unavailable);
    c.restart(0); // a fresh worker: empty memory
    c.run(100);
    expect(c.ask(0, 'get', keys[0] as string)).toMatchObject({ status: KvStatus.Ok, value: 'two', version: 2 });
    expect(c.ask(0, 'get', keys[1] as string)).toMatchObject({ status: KvStatus.Ok, value: 'two', version: 2 });
    expect(c.ask(0, 'get', keys[2] as string)).toMatchObject({ status: KvStatus.NotFound, version: 3 });
    expect(c.ask(0, 'put', keys[0] as string, 'three')).toMatchObject({ status: KvStatus.Ok, version: 3 });
  });

  it('a restarted node answers nothing before it has replayed its disk and adopted a view', () => {
    const c = new LiveCluster({ replicas: 0 });
    const key = c.keyIn(0);
    c.ask(0, 'put', key, 'one');
    c.kill(0);
    c.run(DETECTION_MS);
    c.latency = (from, to) => (from === 'c' && to === 0 ? 40 : 1);
    c.restart(0);
    let early: KvStatus | undefined;
    c.send(0, 'get', key, undefined, (r) => (early = r.status));
    c.run(20);
    expect(early).toBeUndefined(); // waiting (a fresh worker's default topology would have answered NotFound)
    c.run(100);
    // answered from the replayed disk and the control plane's view (Unavailable until failback reclaims it)
    expect(early).toBeDefined();
    expect(early).not.toBe(KvStatus.NotFound);
    expect(c.ask(0, 'get', key)?.status).toBe(KvStatus.Ok);
  });
});

describe('final-state data', () => {
  it('reports each segment from its owner, and from the dead owner’s disk while no one owns it', () => {
    const c = new LiveCluster({ replicas: 0 });
    const k0 = c.keyIn(0);
    const k1 = c.keyIn(1);
    c.ask(0, 'put', k0, 'a');
    c.ask(1, 'put', k1, 'a');
    c.ask(1, 'put', k1, 'b');
    c.kill(0);
    c.run(DETECTION_MS);
    let versions: Map<string, number> | undefined;
    c.control.clusterVersions((v) => (versions = v));
    c.run(50);
    expect(versions?.get(k0)).toBe(1);
    expect(versions?.get(k1)).toBe(2);
  });
});

describe('issue 11 regressions on the live protocol', () => {
  it('fix 2: a failed-back node rejoins the replica sets it was only a replica of; the next failure of their owner promotes it', () => {
    const c = new LiveCluster({ segments: 9 });
    const keys = [0, 3, 6].map((s) => c.keyIn(s)); // node 0's segments, replica 1
    c.kill(1);
    c.run(DETECTION_MS);
    for (const k of keys) expect(c.ask(0, 'put', k, 'while-1-was-away')?.status).toBe(KvStatus.Ok);
    c.restart(1);
    c.run(3_000);
    for (const s of [0, 3, 6]) expect(c.control.state.segment(s)).toMatchObject({ owner: 0, replicas: [1] });
    for (const k of keys) expect(c.ask(0, 'put', k, 'after-return')?.status).toBe(KvStatus.Ok);
    c.kill(0);
    c.run(DETECTION_MS);
    for (const s of [0, 3, 6]) expect(c.control.state.segment(s).owner).toBe(1);
    for (const k of keys) expect(c.ask(1, 'get', k)).toMatchObject({ status: KvStatus.Ok, value: 'after-return' });
  });

  it('the control worker’s availability watch sees a crash on the control plane’s events, and reports what the checker does', () => {
    const c = new LiveCluster({ segments: 9 });
    const bound = promotionBoundMs(c.config);
    c.kill(0);
    c.run(100);
    // node 0's segments await the promotion of their up replica: were it never to come, each would be a violation
    const never = c.availability.reportAt(c.sched.now() + bound + 1);
    expect(never?.violations).toBe(3);
    expect(never?.examples[0]).toMatch(/^segment 0 \(awaitingPromotion\) from \d+ ms for \d+ ms so far$/);
    // the detector promotes within the bound
    c.run(DETECTION_MS);
    for (const s of [0, 3, 6]) expect(c.control.state.segment(s).owner).toBe(1);
    expect(c.availability.reportAt(c.sched.now())).toEqual({ violations: 0, examples: [] });
    const row = c.checker.report().checks.find((x) => x.name === 'replicatedSegmentsAvailable');
    expect(row).toMatchObject({ ok: true, violations: 0 });
  });

  it('fix 3: a scale-out while a node is down but not yet declared dead migrates at once and re-plans after the detection', () => {
    const c = new LiveCluster({ segments: 12 });
    c.kill(1);
    c.run(100);
    c.scaleOut();
    c.run(2_000);
    const before = c.control.state.ownedBy(3).length;
    expect(before).toBeGreaterThan(0); // share 12 / 4 = 3 counts the down member
    c.run(DETECTION_MS + 3_000);
    expect(c.control.state.ownedBy(3).length).toBeGreaterThanOrEqual(4); // 12 / 3 once node 1 is declared dead
    expect(c.control.state.node(3).status).toBe('up');
  });
});

describe('a hung owner on the live protocol', () => {
  it('reports a replica’s missed ack when it runs again, not while hung: its replica is still there to promote (property test, 2,000 schedules)', () => {
    const c = new LiveCluster({ nodes: 2, replicas: 1, segments: 3, heartbeatMs: 50, failureTimeoutMs: 300, catchUpBaseMs: 50, migrationBaseMs: 50, handoffMs: 50 });
    const key = c.keyIn(0); // node 0's segment, replica 1
    c.fault({ action: 'hang', node: 1, durationMs: 100 });
    c.send(0, 'put', key, 'missed-by-1'); // waits REPLICATION_TIMEOUT_MS for node 1's ack
    c.run(540);
    c.fault({ action: 'hang', node: 0, durationMs: 500 }); // the timeout comes due during this hang
    c.run(420);
    expect(c.control.state.segment(0).owner).toBe(1); // declared dead at ≈ 950 ms: promoted, not unavailable
    c.run(3_000);
    const row = c.verify().checks.find((x) => x.name === 'replicatedSegmentsAvailable');
    expect(row).toMatchObject({ ok: true, violations: 0 });
  });
});

describe('a replica that crashes and restarts at once (live property test, seed 21)', () => {
  const config = { replicas: 1, heartbeatMs: 50, failureTimeoutMs: 300, catchUpBaseMs: 50, migrationBaseMs: 50, handoffMs: 50 };
  const put = (c: LiveCluster, key: string, value: string): void => {
    const owner = c.control.state.segment(c.segment(key)).owner;
    c.send(owner === NO_OWNER ? 0 : owner, 'put', key, value);
  };

  it('acknowledges a replicated write only once it is on its own disk: restarted at once, it still holds every write it acknowledged', () => {
    const c = new LiveCluster({ ...config, nodes: 2, segments: 4 });
    const key = c.keyIn(1); // owner 1, replica 0
    put(c, key, 'acked');
    c.run(2);
    c.kill(0); // the replica, right after it applied the write
    c.restart(0);
    c.run(1);
    c.kill(1); // and the owner: node 0 is promoted from what its disk replayed
    c.run(6_000);
    expect(c.acked.map((a) => a.key)).toContain(key);
    const row = c.verify().checks.find((x) => x.name === 'noLostAckedWrites');
    expect(row).toMatchObject({ ok: true });
  });

  it('is promoted when it has caught up, if its segment lost its owner meanwhile (it came back before it was declared dead)', () => {
    const c = new LiveCluster({ ...config, nodes: 3, segments: 3 }); // segment 1: owner 1, replica 2
    c.kill(1);
    c.run(151);
    c.kill(2);
    c.run(239); // node 1 declared dead at ≈ 400 ms: segment 1 has no serving replica to promote
    c.restart(2);
    c.run(200);
    expect(c.control.state.segment(1).owner).toBe(2);
    c.run(3_000);
    const row = c.verify().checks.find((x) => x.name === 'replicatedSegmentsAvailable');
    expect(row).toMatchObject({ ok: true, violations: 0 });
  });
});

describe('an owner deposed while its write waited for a replica (live property test, default seed, run 9,956)', () => {
  it('does not acknowledge the write once the segment is owned elsewhere: promoted without it, then migrated by a scale-out', () => {
    const c = new LiveCluster({ nodes: 2, replicas: 1, segments: 3, heartbeatMs: 50, failureTimeoutMs: 300, catchUpBaseMs: 50, migrationBaseMs: 50, handoffMs: 50 });
    const key = c.keyIn(2); // owner 0, replica 1
    c.fault({ action: 'hang', node: 1, durationMs: 100 }); // the replica misses the write: the owner waits 900 ms for its ack
    let answer: string | undefined;
    c.send(0, 'put', key, 'v0', (r) => (answer = r.status));
    c.fault({ action: 'hang', node: 0, durationMs: 400 }); // the owner hangs; declared dead at ≈ 400 ms, node 1 promoted
    c.scaleOut(); // the segment then moves to node 2, from node 1's copy (without the write)
    c.run(1_000);
    expect(c.control.state.segment(2).owner).toBe(2);
    expect(answer).toBe(KvStatus.Moved); // at ≈ 910 ms, when its wait ended: not Ok
    c.run(5_000);
    expect(c.acked.filter((a) => a.key === key)).toEqual([]);
    const row = c.verify().checks.find((x) => x.name === 'noLostAckedWrites');
    expect(row).toMatchObject({ ok: true });
  });
});

describe('a crashed replica on the live protocol', () => {
  it('stalls no write: the page resets the dead worker’s links, so the owner acknowledges without it at once instead of after the replication timeout', () => {
    const c = new LiveCluster({ segments: 9 });
    const key = c.keyIn(0); // segment 0: owner 0, replica 1
    const replies: { t: number; status: string }[] = [];
    const t0 = c.sched.now();
    // in flight at the crash: node 0 applied it and sent it to node 1, which dies before it arrives
    c.send(0, 'put', key, 'in-flight', (r) => replies.push({ t: c.sched.now() - t0, status: r.status }));
    c.run(1.5);
    c.kill(1);
    c.run(5);
    // after the crash: node 0 still lists node 1 as the replica until the control plane shrinks the set
    c.send(0, 'put', key, 'after', (r) => replies.push({ t: c.sched.now() - t0, status: r.status }));
    c.run(50);
    expect(replies.map((r) => r.status)).toEqual([KvStatus.Ok, KvStatus.Ok]);
    expect(Math.max(...replies.map((r) => r.t)), 'ms until both writes are acknowledged').toBeLessThan(20);
    expect(c.audit.report().ambiguous.total, 'no write the client could not know about').toBe(0);
    c.run(DETECTION_MS);
    expect(c.control.state.segment(0)).toMatchObject({ owner: 0, replicas: [] });
    expect(c.verify().ok).toBe(true);
  });
});

describe('Unavailable from a node that knows the owner is gone', () => {
  it('a replica answers a write Unavailable while its owner is down and not yet replaced, and serves it after the promotion', () => {
    const c = new LiveCluster();
    const key = c.keyIn(0); // segment 0: owner 0, replica 1
    expect(c.ask(0, 'put', key, 'a')?.status).toBe(KvStatus.Ok);
    c.kill(0);
    c.run(20); // the view (node 0 down) reaches node 1
    expect(c.ask(1, 'put', key, 'b')?.status).toBe(KvStatus.Unavailable);
    expect(c.ask(1, 'get', key)).toMatchObject({ status: KvStatus.Ok, value: 'a' }); // a replica still serves reads
    expect(c.ask(2, 'put', key, 'b')?.status).toBe(KvStatus.Unavailable);
    c.run(DETECTION_MS);
    expect(c.ask(1, 'put', key, 'b')).toMatchObject({ status: KvStatus.Ok, version: 2 });
  });
});

describe('the ambiguous-write audit on the live protocol (as the client worker runs it)', () => {
  it('a write applied under a lost acknowledgement is named with its op id; an acknowledged one is not', () => {
    const c = new LiveCluster({ segments: 9 });
    const key = c.keyIn(0); // owner 0
    const okOp = c.send(0, 'put', key, 'first');
    c.run(50);
    c.fault({ action: 'lostAck', node: 0, probability: 1, durationMs: 500 });
    const lostOp = c.send(0, 'put', key, 'second');
    c.run(1_100); // the reply never comes: the operation ends in Timeout after 1 s
    const r = c.audit.report();
    expect(r.ambiguous.audited).toBe(2);
    expect(r.ambiguous.total).toBe(1);
    expect(r.ambiguous.byCase.appliedReportedFailed).toBe(1);
    expect(r.ambiguous.list).toEqual([expect.objectContaining({ op: lostOp, case: 'appliedReportedFailed', key, applies: 1, outcome: 'Timeout' })]);
    expect(r.ambiguous.list.some((w) => w.op === okOp)).toBe(false);
    // the write did land: the cluster holds its version although the caller heard Timeout
    expect(c.ask(0, 'get', key)).toMatchObject({ status: KvStatus.Ok, value: 'second', version: 2 });
  });
});
